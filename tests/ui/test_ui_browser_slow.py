"""A slow preferans partie (dopisna partija, issue 26) in a real browser, over simulated hours.

Ana proposes it from the lobby's form (one hour per decision, the default bank of two);
bora and cica accept and play over the API with their own sessions. The Club runs on a
ManualClock the test moves (never sleeps): ana, on the lobby, is reminded when 80% of her
hour is gone; she opens the table late, into her bank, sees every seat's time left and
passes; cica's hour and bank run out, a vacation hour is spent for her (her last of the
year), then the timer says the safe word for her, three times; ana and bora hand her seat
to a computer player, and cica, back, takes it again on her table page. Screenshot: ``test-artifacts/slow-partie.png``.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from app.clock import ManualClock
from app.db.models import Member, PartieSeat
from tests.support.ui import close_watched, shot, watched_page
from tests.support.web import member

MONDAY = datetime(2025, 1, 6, 9, 0, tzinfo=timezone.utc)


@pytest.fixture(params=["sqlite"])
def backend(request):
    return request.param


@pytest.fixture
def clock():
    return ManualClock(MONDAY)


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"ui_trick_pause_ms": 40, "ui_timings": {"dalje_delay": 30}})


def drive(clients: dict, pid: int, stop) -> dict:
    """The members of ``clients`` (seat -> session) say their words (a pass where they may)
    until ``stop(state)``; the state read last."""
    anyone = next(iter(clients.values()))
    for _ in range(300):
        state = anyone.get(f"/api/parties/{pid}/view").json()
        if stop(state):
            return state
        for seat in state["to_act"]:
            c = clients.get(seat)
            mine = c.get(f"/api/parties/{pid}/view").json() if c is not None else None
            if mine and mine["legal"]:
                word = next((w for w in ("dalje", "ne pratim", "moze", "odbijam") if w in mine["legal"]), mine["legal"][0])
                c.post(f"/api/parties/{pid}/actions", json={"word": word, "version": mine["version"]})
    raise AssertionError("the table never got there")


def seat(server, pid: int, no: int) -> PartieSeat:
    with server.club.db.read() as s:
        return s.get(PartieSeat, (pid, no))


def test_a_slow_partie_over_days(browser, live_server, clock):
    server = live_server
    ana_api, bora, cica = (member(server.url, name) for name in ("ana", "bora", "cica"))
    cookie = {"name": server.settings.cookie_name, "value": ana_api.cookies[server.settings.cookie_name],
              "url": server.url}
    pg = watched_page(browser, cookies=[cookie])
    try:
        # Ana proposes: preferans, a slow timer of one hour, bora and cica invited.
        pg.goto(server.url + "/lobby")
        pg.check("#propose-form input[name=game][value=preferans]")
        assert pg.is_hidden("#slow-options")
        pg.select_option("select[name=timer]", "3600")
        assert pg.is_visible("#slow-options")
        for i, name in ((1, "bora"), (2, "cica")):
            pg.select_option(f"select[name=seat{i}]", "member")
            pg.fill(f"input[name=seat{i}_name]", name)
        pg.click("#propose-form button[type=submit]")
        pg.wait_for_url("**/lobby?proposed=*")
        pid = int(pg.url.split("proposed=")[1].split("&")[0])
        for c in (bora, cica):
            assert c.post(f"/api/parties/{pid}/accept").status_code == 200
        assert bora.get(f"/api/parties/{pid}").json() | {"slow": True, "bank": 7200} == bora.get(
            f"/api/parties/{pid}").json()

        # Her turn; she is on the lobby, which counts the slow table waiting for her.
        drive({1: bora, 2: cica}, pid, lambda st: 0 in st["to_act"])
        pg.wait_for_selector("#slow-waiting[data-count='1']")
        clock.advance(minutes=48)  # 80% of her hour: one reminder
        toast = pg.wait_for_selector(".toast[data-kind=reminder]")
        assert f"#{pid}" in toast.inner_text() and "Podsetnik" in toast.inner_text()

        # Half an hour into her bank she opens the table: every seat's time left.
        clock.advance(minutes=42)
        pg.click(".toast[data-kind=reminder] a.toast-open")
        pg.wait_for_url(f"**/table/{pid}")
        pg.wait_for_selector("#seat-me .slow-clock.running")
        assert pg.inner_text("#seat-me .clock-decision") == "0 min za odluku"
        assert pg.inner_text("#seat-me .clock-bank") == "rezerva 1 h 30 min"
        for other in (1, 2):
            assert pg.inner_text(f".slow-clock[data-seat='{other}'] .clock-bank") == "rezerva 2 h"
        pg.wait_for_function("() => Klub.table.canAct() && Klub.table.legal.includes('dalje')")
        pg.click("button.word[data-word='dalje']")
        pg.wait_for_selector("#seat-me .slow-clock:not(.running)")
        assert pg.inner_text("#seat-me .clock-bank") == "rezerva 1 h 30 min"  # what she spent stays spent

        # Cica is away: her hour and bank run out; her last vacation hour of the year is spent.
        with server.club.db.write() as s:
            row = s.get(Member, seat(server, pid, 2).member_id)
            row.vacation_year, row.vacation_hours_used = 2025, 239
        players = {0: ana_api, 1: bora}
        drive(players, pid, lambda st: 2 in st["to_act"])
        clock.advance(hours=3)
        pg.wait_for_selector(".slow-clock[data-seat='2'] .clock-vacation")
        assert pg.inner_text(".slow-clock[data-seat='2'] .clock-vacation") == "odmor 1 h"
        clock.advance(hours=1)  # nothing left: the safe word, said for her
        pg.wait_for_selector("#timeout-note:not([hidden])")
        assert "cica" in pg.inner_text("#timeout-note") and "Vreme je isteklo" in pg.inner_text("#timeout-note")
        shot(pg, "slow-partie")
        # Two more decisions of hers run out (no bank, no vacation left: an hour each).
        for n in (2, 3):
            drive(players, pid, lambda st: 2 in st["to_act"] and seat(server, pid, 2).timeouts == n - 1)
            clock.advance(hours=1)
            pg.wait_for_function(f"() => Klub.table.seats[2].timeouts === {n}")

        # Three timed-out words: ana and bora hand her seat to a computer player.
        pg.click(".seat[data-seat='2'] button.takeover")
        pg.wait_for_function("() => Klub.table.seats[2].takeover_votes.length === 1")
        assert bora.post(f"/api/parties/{pid}/takeover", json={"seat": 2}).status_code == 200
        pg.wait_for_function("() => Klub.table.seats[2].computer")
        # She is back: her table offers her seat back, and she takes it.
        cookie = {**cookie, "value": cica.cookies[server.settings.cookie_name]}
        back = watched_page(browser, cookies=[cookie])
        back.goto(f"{server.url}/table/{pid}")
        back.click("#reclaim-form button.reclaim-seat")
        back.wait_for_url(f"**/table/{pid}")
        back.wait_for_selector("#seat-me .slow-clock[data-seat='2']")
        assert back.is_hidden("#reclaim-form")
        pg.wait_for_function("() => !Klub.table.seats[2].computer && Klub.table.seats[2].timeouts === 0")
        close_watched(back)
    finally:
        close_watched(pg)
        for c in (ana_api, bora, cica):
            c.close()
