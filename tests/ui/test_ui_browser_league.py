"""A league in a real browser, over a simulated week (issue 40).

The admin creates a league of preferans evenings from the /leagues form; ana opens the
league's page, registers for the season with its button and sees the next evening's
countdown running; three more members register over the API. The Club runs on a
ManualClock the test moves (never sleeps): the calendar creates the evening a day ahead,
ana (on the league's page) is reminded an hour before it, the evening starts, nobody
plays and the round's deadline passes, so the computer players finish every table (T8);
the evening ends and ana finds her points in the season table. Screenshot:
``test-artifacts/league.png``.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.clock import ManualClock
from app.members.service import ensure_admin
from tests.support.ui import close_watched, shot, watched_page
from tests.support.web import PASSWORD, member, wait_for

MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
SCALE = [10, 8, 6, 5]


@pytest.fixture(params=["sqlite"])
def backend(request):
    return request.param


@pytest.fixture
def clock():
    return ManualClock(MONDAY)


def page_of(browser, server, client):
    cookie = {"name": server.settings.cookie_name, "value": client.cookies[server.settings.cookie_name],
              "url": server.url}
    return watched_page(browser, cookies=[cookie])


def test_a_league_from_its_form_to_the_season_table(browser, live_server, clock):
    server = live_server
    ensure_admin(server.club.db, "sudija", PASSWORD)
    admin = member(server.url, "sudija", register=False)
    ana = member(server.url, "ana")
    boss = page_of(browser, server, admin)
    pg = page_of(browser, server, ana)
    try:
        # The organizer's form: a preferans league, one round of three hands an evening.
        boss.goto(server.url + "/leagues")
        form = "#league-form"
        boss.fill(f"{form} input[name=name]", "Prolećna liga")
        boss.check(f"{form} input[name=game][value=preferans]")
        boss.check(f"{form} input[name=format][value=svajcarski]")
        boss.fill(f"{form} input[name=rounds]", "1")
        boss.fill(f"{form} input[name=hands]", "3")
        boss.fill(f"{form} input[name=evenings]", "2")
        boss.fill(f"{form} input[name=best_of]", "1")
        boss.fill(f"{form} input[name=scale]", " ".join(map(str, SCALE)))
        boss.fill(f"{form} input[name=round_minutes]", "30")
        boss.click(f"{form} button[type=submit]")
        boss.wait_for_url("**/leagues/*")
        lid = int(boss.url.rsplit("/", 1)[1])
        assert boss.inner_text("#league-h") == "Prolećna liga"
        data = admin.get(f"/api/leagues/{lid}").json()
        assert (data["game"], data["hands"], data["evenings"], data["best_of"]) == ("preferans", 3, 2, 1)
        start = datetime.fromisoformat(data["calendar"][0]["starts_at"])

        # Ana registers for the season from the league's page; the countdown runs.
        pg.goto(f"{server.url}/leagues/{lid}")
        pg.click("button.league-register")
        pg.wait_for_selector(".league-entered")
        countdown = pg.locator(".league-countdown")
        assert int(countdown.get_attribute("data-seconds")) == int((start - clock.now()).total_seconds())
        shown = countdown.inner_text()
        pg.wait_for_function("() => document.querySelector('.league-countdown').textContent !== " + repr(shown))
        for name in ("bora", "ceca", "dule"):
            assert member(server.url, name).post(f"/api/leagues/{lid}/register").status_code == 200

        # A day before: the calendar creates the evening, the four of them entered.
        clock.advance((start - timedelta(hours=24) - clock.now()).total_seconds())
        tid = wait_for(lambda: admin.get(f"/api/leagues/{lid}").json()["calendar"][0]["tournament"])
        assert {p["name"] for p in admin.get(f"/api/tournaments/{tid}").json()["players"]} == {
            "ana", "bora", "ceca", "dule"}
        # An hour before: ana, on the league's page, is reminded.
        clock.advance((start - timedelta(minutes=59) - clock.now()).total_seconds())
        toast = pg.wait_for_selector(".toast[data-kind=evening]")
        assert "Prolećna liga, veče 1 počinje za 59 min" in toast.inner_text()

        # The evening starts; nobody plays; at the round's deadline the computer players
        # finish every table, and the evening ends.
        clock.advance((start - clock.now()).total_seconds() + 1)
        wait_for(lambda: admin.get(f"/api/tournaments/{tid}").json()["current_round"] == 1)
        clock.advance(minutes=31)
        t = wait_for(lambda: (t := admin.get(f"/api/tournaments/{tid}").json())["status"] == "finished" and t,
                     timeout=60)
        mine = next(i for i, row in enumerate(t["standings"]) if row["name"] == "ana")
        place = t["standings"][mine]["rank"] or mine + 1
        points = SCALE[place - 1]

        # Her points in the season table, the evening counted.
        pg.goto(f"{server.url}/leagues/{lid}")
        row = pg.locator(".league-table[data-kind=members] tr[data-player=ana]")
        assert row.get_attribute("data-total") == str(points)
        cell = row.locator("td.evening-points[data-evening='1']")
        assert cell.inner_text() == str(points) and "counted" in cell.get_attribute("class")
        assert pg.locator(".league-calendar li[data-evening='1'] a.evening-link").get_attribute("href") == (
            f"/tournaments/{tid}")
        shot(pg, "league")
    finally:
        close_watched(pg)
        close_watched(boss)
