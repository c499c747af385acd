"""Slow parties (issue 26, dopisna partija): the clocks' arithmetic, the time bank, vacation
in whole hours and its yearly allowance, weekends left out, holidays, the reminder (once),
the cap, a seat voted to a computer player and taken back, and a due decision made
exactly once by two instances after a restart (docs/rulings.md, "Slow parties").

The Club's clock is a ManualClock that starts on a Monday morning (UTC) and is moved;
the deadline watcher wakes at every move, so nothing here waits for real time.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.clock import ManualClock
from app.db.models import Action, Member, Partie, PartieSeat
from app.parties.slow import is_slow
from app.parties.slow_reminders import send_reminder
from app.parties.slow_time import HOUR, Pauses, counted, paused, reach
from app.realtime import notices
from tests.support.api import ORIGIN, error_code, register
from tests.support.web import wait_for

UTC = timezone.utc
MONDAY = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


def at(day: int, hour: float = 0) -> datetime:
    """January 2025, day ``day`` (the 6th is a Monday), ``hour`` UTC."""
    return datetime(2025, 1, day, tzinfo=UTC) + timedelta(hours=hour)


@pytest.fixture
def clock():
    return ManualClock(MONDAY)


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"slow_parties_max": 2})


# -- the arithmetic ---------------------------------------------------------------------


def test_the_slow_rule_and_time_that_counts():
    assert [is_slow(t) for t in (None, 0, 15, 300, 3600, 259200)] == [False, False, False, False, True, True]
    weekends = Pauses(weekends=True)
    friday = at(10, 20)  # Friday 20:00
    # 12 hours from Friday 20:00 without the weekend: 4 on Friday, 8 on Monday
    assert reach(friday, 12 * HOUR, weekends) == at(13, 8)
    assert counted(friday, at(13, 8), weekends) == 12 * HOUR
    assert counted(at(11, 10), at(12, 23), weekends) == 0  # Saturday to Sunday night
    assert reach(at(11, 10), HOUR, weekends) == at(13, 1)  # begun on a Saturday: Monday 01:00
    assert paused(at(12, 12), weekends) and not paused(at(13, 0), weekends)
    # a holiday joined to the weekend: Friday 22:00 to Tuesday 10:00
    holiday = Pauses(weekends=True, holiday=(at(10, 22), at(14, 10)))
    assert reach(friday, 12 * HOUR, holiday) == at(14, 20)  # 2 h on Friday, 10 on Tuesday
    assert counted(friday, at(14, 20), holiday) == 12 * HOUR
    # a holiday alone; weekends counted
    assert reach(friday, 3 * HOUR, Pauses(holiday=(at(10, 21), at(10, 22)))) == at(10, 24)
    assert reach(friday, 0, weekends) == friday


def test_weekends_are_those_of_the_proposers_zone():
    """A partie's weekend is Saturday 00:00 to Monday 00:00 on the wall clock of its
    proposer's zone (docs/rulings.md, "Times and time zones"), summer time and all."""
    tokyo = Pauses(weekends=True, zone="Asia/Tokyo")  # UTC+9: the weekend is Friday 15:00 to Sunday 15:00 UTC
    assert paused(at(10, 15), tokyo) and not paused(at(10, 14.5), tokyo)
    assert not paused(at(12, 15), tokyo) and paused(at(12, 14.5), tokyo)
    assert reach(at(10, 14), 2 * HOUR, tokyo) == at(12, 16)
    # Belgrade's last weekend of March 2025 is an hour shorter: 23:00 UTC on the 28th to 22:00 on the 30th
    march = Pauses(weekends=True, zone="Europe/Belgrade")
    friday = datetime(2025, 3, 28, 22, 0, tzinfo=UTC)
    assert counted(friday, friday + timedelta(days=3), march) == 3 * 24 * HOUR - 47 * HOUR


# -- helpers ------------------------------------------------------------------------------


def slow_partie(app, names=("ana", "bora", "cica"), **options) -> tuple[list[TestClient], int]:
    """A slow preferans partie of three members (the first proposes, the others accept)."""
    clients = [register(app, name) for name in names]
    body = {"game": "preferans", "settings": {"bule": 30, "refe": 1}, "timer": HOUR,
            "seats": [{"kind": "member", "name": n} for n in names[1:]], **options}
    r = clients[0].post("/api/parties", json=body)
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    for c in clients[1:]:
        assert c.post(f"/api/parties/{pid}/accept").status_code == 200
    return clients, pid


def alone_with_bots(app, name="ana", **options) -> tuple[TestClient, int]:
    """A slow preferans partie of one member and two computer players, at his turn."""
    c = register(app, name)
    r = c.post("/api/parties", json={"game": "preferans", "settings": {"bule": 30, "refe": 1}, "timer": HOUR,
                                     "seats": [{"kind": "bot"}, {"kind": "bot"}], **options})
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    wait_for(lambda: seat_row(app, pid, 0).turn_since is not None)
    return c, pid


def seat_row(app, pid: int, seat: int) -> PartieSeat:
    with app.state.club.db.read() as s:
        return s.get(PartieSeat, (pid, seat))


def member_row(app, name: str) -> Member:
    with app.state.club.db.read() as s:
        return s.scalar(select(Member).where(Member.name_key == name))


def timer_words(app, pid: int) -> int:
    with app.state.club.db.read() as s:
        return s.scalar(select(func.count()).select_from(Action).where(Action.partie_id == pid,
                                                                        Action.source == "timer"))


def turn_seat(app, pid: int) -> int:
    """The seat whose clock runs (read from the database: no member's view is read)."""
    with app.state.club.db.read() as s:
        return s.scalar(select(PartieSeat.seat).where(PartieSeat.partie_id == pid, PartieSeat.turn_since.is_not(None)))


def to_act(client, pid) -> tuple[int, dict]:
    state = client.get(f"/api/parties/{pid}/view").json()
    return state["to_act"][0], state


def say(client, pid: int, prefer: str = "dalje") -> dict:
    state = client.get(f"/api/parties/{pid}/view").json()
    word = prefer if prefer in state["legal"] else state["legal"][0]
    r = client.post(f"/api/parties/{pid}/actions", json={"word": word, "version": state["version"]})
    assert r.status_code == 200, r.text
    return r.json()["state"]


# -- the clocks over the API ---------------------------------------------------------------


def test_a_slow_proposal_its_choices_and_the_bank_spent(client, app, clock):
    clients, pid = slow_partie(app)
    summary = clients[0].get(f"/api/parties/{pid}").json()
    assert summary["slow"] and summary["timer"] == HOUR and summary["bank"] == 2 * HOUR
    assert not summary["weekends_off"]
    seat, state = to_act(clients[0], pid)
    clocks = state["slow"]["clocks"]
    assert state["deadline"] is None  # no live countdown: the clocks say it
    assert clocks[seat] | {"running": True, "decision": HOUR, "bank": 2 * HOUR, "left": 3 * HOUR} == clocks[seat]
    assert clocks[seat]["deadline"] == (MONDAY + timedelta(hours=3)).isoformat()
    clock.advance(minutes=90)  # half an hour of his bank
    mid = clients[seat].get(f"/api/parties/{pid}/clocks").json()["slow"]["clocks"][seat]
    assert (mid["decision"], mid["bank"], mid["left"]) == (0, 90 * 60, 90 * 60)
    say(clients[seat], pid)
    after = clients[0].get(f"/api/parties/{pid}/clocks").json()["slow"]["clocks"]
    assert after[seat] | {"running": False, "decision": HOUR, "bank": 90 * 60} == after[seat]
    nxt = next(c for c in after if c["running"])
    assert nxt["decision"] == HOUR and nxt["bank"] == 2 * HOUR
    assert seat_row(app, pid, seat).bank_left == 90 * 60
    with app.state.club.db.read() as s:  # the partie's deadline: the next seat's clock
        assert s.get(Partie, pid).deadline_at == clock.now() + timedelta(hours=3)
    assert timer_words(app, pid) == 0


def test_bad_slow_choices_are_refused(client, app):
    ana = register(app, "ana")
    bots = [{"kind": "bot"}, {"kind": "bot"}]
    for body, code in [({"timer": 7200}, "invalid_timer"), ({"timer": 3600, "bank": 1800}, "invalid_bank"),
                       ({"timer": 3600, "bank": 8 * 24 * HOUR}, "invalid_bank"),
                       ({"timer": 60, "bank": HOUR}, "invalid_slow_options"),
                       ({"timer": 60, "weekends_off": True}, "invalid_slow_options")]:
        r = ana.post("/api/parties", json={"game": "preferans", "seats": bots, **body})
        assert r.status_code == 422 and error_code(r) == code, (body, r.text)
    with app.state.club.db.read() as s:
        assert s.scalar(select(func.count()).select_from(Partie)) == 0
    r = ana.post("/api/parties", json={"game": "preferans", "seats": bots, "timer": 3600, "weekends_off": True,
                                       "weekend_zone": "Mars/Olympus"})
    assert r.status_code == 422 and error_code(r) == "invalid_zone"
    r = ana.post("/api/parties", json={"game": "preferans", "seats": bots, "timer": 259200, "bank": 0,
                                       "weekends_off": True})
    assert r.status_code == 201 and r.json()["bank"] == 0 and r.json()["weekends_off"]
    assert r.json()["weekend_zone"] is None  # over the API without a zone: UTC's weekend, as before


def test_vacation_is_spent_in_whole_hours_then_the_safe_word(client, app, clock):
    ana, pid = alone_with_bots(app, bank=0)
    version = ana.get(f"/api/parties/{pid}/view").json()["version"]
    clock.advance(hours=1)  # decision time gone, no bank: a vacation hour
    wait_for(lambda: seat_row(app, pid, 0).vacation_hours == 1)
    assert member_row(app, "ana").vacation_hours_used == 1 and member_row(app, "ana").vacation_year == 2025
    assert seat_row(app, pid, 0).deadline_at == MONDAY + timedelta(hours=2)
    clock.advance(minutes=59)
    assert seat_row(app, pid, 0).vacation_hours == 1
    clock.advance(minutes=1)
    wait_for(lambda: seat_row(app, pid, 0).vacation_hours == 2)
    clocks = ana.get(f"/api/parties/{pid}/clocks").json()["slow"]["clocks"][0]
    assert (clocks["vacation"], clocks["left"]) == (2, HOUR)
    say(ana, pid)  # just into the second hour: both hours are gone all the same
    assert member_row(app, "ana").vacation_hours_used == 2 and timer_words(app, pid) == 0
    wait_for(lambda: seat_row(app, pid, 0).turn_since is not None)  # the bots played; her turn again
    # The year's allowance is used up: the timer says the safe word for her.
    with app.state.club.db.write() as s:
        s.get(Member, member_row(app, "ana").id).vacation_hours_used = 240
    version = ana.get(f"/api/parties/{pid}/view").json()["version"]
    clock.advance(hours=1)
    wait_for(lambda: timer_words(app, pid) == 1)
    with app.state.club.db.read() as s:
        word = s.scalar(select(Action).where(Action.partie_id == pid, Action.source == "timer"))
    assert word.seq == version + 1 and word.seat == 0
    assert seat_row(app, pid, 0).timeouts == 1 and member_row(app, "ana").vacation_hours_used == 240
    # A new year: ten days again (the year of the hours spent is kept with them).
    wait_for(lambda: seat_row(app, pid, 0).turn_since is not None)
    with app.state.club.db.write() as s:
        s.get(Member, member_row(app, "ana").id).vacation_year = 2024
    assert ana.get("/api/me/vacation").json() | {"hours_left": 240, "hours_per_year": 240} == \
        ana.get("/api/me/vacation").json()
    clock.advance(hours=1)
    wait_for(lambda: seat_row(app, pid, 0).vacation_hours == 1)
    assert member_row(app, "ana").vacation_hours_used == 1 and timer_words(app, pid) == 1


def test_weekends_do_not_count_when_the_partie_leaves_them_out(client, app, clock):
    clock.advance(days=4, hours=14, minutes=30)  # Friday 23:30
    ana, pid = alone_with_bots(app, bank=0, weekends_off=True)
    assert seat_row(app, pid, 0).deadline_at == at(13, 0.5)  # half an hour on Friday, half on Monday
    clock.advance(hours=24)  # Saturday night
    clocks = ana.get(f"/api/parties/{pid}/clocks").json()["slow"]["clocks"][0]
    assert clocks["paused"] and clocks["decision"] == 30 * 60
    clock.advance(hours=24, minutes=30)  # Monday 00:00
    assert seat_row(app, pid, 0).vacation_hours == 0 and timer_words(app, pid) == 0
    clock.advance(minutes=30)
    wait_for(lambda: seat_row(app, pid, 0).vacation_hours == 1)


def test_a_holiday_stops_the_clocks_and_gives_back_whole_hours(client, app, clock):
    ana, pid = alone_with_bots(app, bank=0)
    due = seat_row(app, pid, 0).deadline_at
    r = ana.put("/api/me/holiday", json={"until": (MONDAY + timedelta(hours=4, minutes=30)).isoformat()})
    assert r.status_code == 200, r.text
    assert r.json()["hours_left"] == 235 and r.json()["holiday"]["until"] == (MONDAY + timedelta(hours=4.5)).isoformat()
    assert seat_row(app, pid, 0).deadline_at == due + timedelta(hours=4.5)
    clock.advance(hours=2)
    assert ana.get(f"/api/parties/{pid}/clocks").json()["slow"]["clocks"][0]["paused"]
    r = ana.delete("/api/me/holiday")  # back after 2 h: 2.5 h unused, 2 whole hours come back
    assert r.status_code == 200 and r.json()["holiday"] is None and r.json()["hours_left"] == 237
    assert seat_row(app, pid, 0).deadline_at == clock.now() + timedelta(hours=1)  # nothing counted meanwhile
    # bad holidays: none is changed
    assert error_code(ana.delete("/api/me/holiday")) == "not_on_holiday"
    r = ana.put("/api/me/holiday", json={"until": MONDAY.isoformat()})
    assert r.status_code == 422 and error_code(r) == "invalid_holiday"
    r = ana.put("/api/me/holiday", json={"until": (clock.now() + timedelta(days=11)).isoformat()})
    assert r.status_code == 422 and error_code(r) == "not_enough_vacation" and r.json()["error"]["hours_left"] == 237
    assert ana.put("/api/me/holiday", json={"until": "soon"}).status_code == 422
    assert ana.get("/api/me/vacation").json()["hours_left"] == 237
    assert seat_row(app, pid, 0).deadline_at == clock.now() + timedelta(hours=1)


def test_one_reminder_per_decision_and_none_after_a_look(client, app, clock, monkeypatch):
    told = []
    real_tell = notices.tell

    def tell(hub, member_ids, kind, **about):
        if kind == "reminder":
            told.append((list(member_ids), about))
        real_tell(hub, member_ids, kind, **about)

    monkeypatch.setattr(notices, "tell", tell)
    clients, pid = slow_partie(app)
    seat = turn_seat(app, pid)
    member_id = seat_row(app, pid, seat).member_id
    assert seat_row(app, pid, seat).remind_at == MONDAY + timedelta(minutes=48)
    clock.advance(minutes=47)
    assert not told
    clock.advance(minutes=1)
    wait_for(lambda: told)
    assert told == [([member_id], {"partie": pid, "game": "preferans", "left": 132 * 60})]
    row = seat_row(app, pid, seat)
    assert row.reminded and row.remind_at is None
    assert not send_reminder(app.state.club, pid, seat)  # never twice
    clock.advance(hours=1)
    assert len(told) == 1
    # The next decision: its player reads his table first (his view): no reminder.
    say(clients[seat], pid)
    nxt = turn_seat(app, pid)
    clients[nxt].get(f"/api/parties/{pid}/view")
    clock.advance(minutes=50)
    wait_for(lambda: seat_row(app, pid, nxt).reminded)
    assert len(told) == 1


def test_opening_the_table_is_a_look_and_the_others_read_the_seats_with_the_clocks(client, app, clock):
    clients, pid = slow_partie(app)
    assert seat_row(app, pid, 1).seen_at is None
    with app.state.club.db.write() as s:  # bora had left his table: his coming back changes the seats
        s.get(PartieSeat, (pid, 1)).away = True
    clock.advance(minutes=5)

    def socket(c: TestClient):
        cookie = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
        return client.websocket_connect(f"/ws/parties/{pid}", headers={**ORIGIN, "Cookie": cookie})

    with socket(clients[0]) as watcher:
        assert watcher.receive_json()["type"] == "state"
        with socket(clients[1]) as ws:
            assert ws.receive_json()["type"] == "state"
            wait_for(lambda: seat_row(app, pid, 1).seen_at == clock.now())  # he looked: no reminder for it
            # a slow partie's change of presence is not told as itself: the seats are read, clocks and all
            while (frame := watcher.receive_json())["type"] != "seats":
                pass
            assert "slow" in frame and frame["seats_version"] >= 1
            assert not next(info for info in frame["seats"] if info["seat"] == 1)["away"]


def test_at_most_so_many_slow_parties_at_once(client, app):
    ana = register(app, "ana")
    bora = register(app, "bora")
    bots = [{"kind": "bot"}, {"kind": "bot"}]
    for _ in range(2):
        assert ana.post("/api/parties", json={"game": "preferans", "timer": HOUR, "seats": bots}).status_code == 201
    r = ana.post("/api/parties", json={"game": "preferans", "timer": 3 * HOUR, "seats": bots})
    assert r.status_code == 409 and error_code(r) == "too_many_slow" and "2 slow parties" in r.json()["error"]["message"]
    assert ana.post("/api/parties", json={"game": "preferans", "timer": 60, "seats": bots}).status_code == 201
    # bora's own two, then an invitation he cannot accept
    for _ in range(2):
        assert bora.post("/api/parties", json={"game": "preferans", "timer": HOUR, "seats": bots}).status_code == 201
    cica = register(app, "cica")
    r = cica.post("/api/parties", json={"game": "preferans", "timer": HOUR,
                                        "seats": [{"kind": "member", "name": "bora"}, {"kind": "bot"}]})
    pid = r.json()["id"]
    r = bora.post(f"/api/parties/{pid}/accept")
    assert r.status_code == 409 and error_code(r) == "too_many_slow"
    assert bora.get(f"/api/parties/{pid}").json()["seats"][1]["answer"] == "invited"
    # the lobby: the slow tables after the live one, and how many wait for him
    lobby = wait_for(lambda: (x := ana.get("/api/lobby").json())["slow_waiting"] == 2 and x)
    assert [p["slow"] for p in lobby["playing"]] == [False, True, True]
    assert all(p["my_clock"]["running"] for p in lobby["playing"][1:])


def test_three_timed_out_words_let_the_others_hand_the_seat_over_and_he_takes_it_back(client, app, clock):
    clients, pid = slow_partie(app)
    cica = clients[2]
    r = clients[0].post(f"/api/parties/{pid}/takeover", json={"seat": 2})
    assert r.status_code == 409 and error_code(r) == "not_timed_out"  # away or not: three timeouts first
    assert error_code(cica.post(f"/api/parties/{pid}/reclaim")) == "not_reclaimable"
    with app.state.club.db.write() as s:
        s.get(PartieSeat, (pid, 2)).timeouts = 3
    assert clients[0].post(f"/api/parties/{pid}/takeover", json={"seat": 2}).status_code == 200
    seats = clients[1].post(f"/api/parties/{pid}/takeover", json={"seat": 2}).json()["seats"]
    assert seats[2]["computer"] and seats[2]["reclaimable"]
    row = seat_row(app, pid, 2)
    assert row.turn_since is None and row.deadline_at is None  # a computer player has no clock
    lobby = cica.get("/api/lobby").json()  # still her table: she may take it back
    assert [p["id"] for p in lobby["playing"]] == [pid]
    seats = cica.post(f"/api/parties/{pid}/reclaim").json()["seats"]
    assert not seats[2]["computer"] and seats[2]["timeouts"] == 0 and not seats[2]["reclaimable"]
    assert error_code(cica.post(f"/api/parties/{pid}/reclaim")) == "not_reclaimable"
    # the seat she left for good is not hers to take back
    cica.post(f"/api/parties/{pid}/hand-over")
    assert error_code(cica.post(f"/api/parties/{pid}/reclaim")) == "not_reclaimable"


# -- exactly once, over a restart, on two instances -----------------------------------------


def test_a_due_decision_is_made_once_by_two_instances_after_a_restart(settings, clock):
    """The server stops while a slow decision waits; its time runs out meanwhile (two of
    the member's vacation hours, then the timer's word). Two instances start on the same
    database: the hours are spent once and the word said once."""
    from app.web.main import create_app

    first = create_app(settings, clock)
    with TestClient(first, headers=ORIGIN):
        ana, pid = alone_with_bots(first, bank=0)
        with first.state.club.db.write() as s:
            row = s.get(Member, member_row(first, "ana").id)
            row.vacation_year, row.vacation_hours_used = 2025, 238  # two hours left this year
        version = ana.get(f"/api/parties/{pid}/view").json()["version"]
    clock.advance(hours=3, minutes=30)  # no server runs: the decision, two vacation hours and more
    one, two = create_app(settings, clock), create_app(settings, clock)
    with TestClient(one, headers=ORIGIN), TestClient(two, headers=ORIGIN):
        wait_for(lambda: timer_words(one, pid) == 1)
        # the computer players answer; then it is her turn again, with a fresh clock
        wait_for(lambda: (r := seat_row(two, pid, 0)).turn_since == clock.now() and r.deadline_at > clock.now())
        with one.state.club.db.read() as s:
            words = s.execute(select(Action.seq, Action.source).where(Action.partie_id == pid,
                                                                      Action.seq > version)).all()
        assert [src for seq, src in words if seq == version + 1] == ["timer"]
        assert [src for _, src in words].count("timer") == 1
        assert member_row(one, "ana").vacation_hours_used == 240
        assert seat_row(one, pid, 0).timeouts == 1


# -- the pages ------------------------------------------------------------------------------


def test_the_lobby_form_and_lists_and_the_account_holiday(client, app, clock):
    from tests.support.pages import FormClient

    ana = FormClient(app, headers=ORIGIN)
    assert ana.post("/api/auth/register", json={"name": "ana", "password": "klupska-lozinka-7"}).status_code == 201
    form = {"game": "preferans", "preferans.bule": "30", "preferans.refe": "1", "timer": "43200", "bank": "0",
            "weekends_off": "on", "tz": "Asia/Tokyo", "seat1": "bot", "seat2": "bot"}
    bad = ana.post("/lobby/propose", data={**form, "bank": "9"})
    assert bad.status_code == 422 and "Rezerva vremena se daje u celim satima" in bad.text
    r = ana.post("/lobby/propose", data=form, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/table/")
    pid = int(r.headers["location"].rsplit("/", 1)[1])
    summary = ana.get(f"/api/parties/{pid}").json()
    assert (summary["timer"], summary["bank"], summary["weekends_off"], summary["weekend_zone"]) == (
        43200, 0, True, "Asia/Tokyo")  # the proposer's weekend (his browser's zone)
    live = wait_for(lambda: "Dopisni stolovi koji čekaju vas: 1" in (t := ana.get("/lobby/live").text) and t)
    assert 'class="slow-mark">dopisna partija' in live and "vaše vreme: 10 d 12 h (sa 240 h odmora koji će se potrošiti)" in live
    page = ana.get(f"/table/{pid}").text
    assert "Dopisna partija: 12 sati po odluci, vikendi se ne računaju (Asia/Tokyo)." in page and "js/slow.js" in page
    # /account: the year's vacation, a holiday and the way back
    account = ana.get("/account").text
    assert "Preostali odmor u 2025. godini: 240 od 240 sati." in account and 'id="holiday-form"' in account
    bad = ana.post("/account/holiday", data={"until": "sutra"})
    assert bad.status_code == 422 and 'id="holiday-error"' in bad.text
    r = ana.post("/account/holiday", data={"until": "2025-01-07T10:00", "tz": "Europe/Belgrade"}, follow_redirects=False)
    assert r.status_code == 303  # 10:00 in Belgrade: 09:00 UTC, a day from now
    account = ana.get("/account").text
    assert 'Na odmoru do <time datetime="2025-01-07T09:00:00+00:00" class="local-time">7. 1. 2025. 10:00 (Europe/Belgrade)' \
        in account and "216 od 240" in account and "UTC" not in account
    clock.advance(hours=1)
    assert ana.post("/account/holiday", data={"end": "1"}, follow_redirects=False).status_code == 303
    assert "239 od 240" in ana.get("/account").text  # 23 whole hours came back


@pytest.mark.parametrize("game", ["lora", "preferans"])
def test_a_slow_table_page_keeps_the_static_budget(client, app, game):
    """A slow partie's table page loads slow.js too: still at most 150 KB of JavaScript and
    CSS (as every table page, tests/ui/test_ui_pages.py)."""
    import re

    ana = register(app, "ana")
    seats = [{"kind": "bot"}] * (3 if game == "lora" else 2)
    pid = ana.post("/api/parties", json={"game": game, "timer": HOUR, "seats": seats}).json()["id"]
    page = ana.get(f"/table/{pid}").text
    assets = [u.split("?", 1)[0] for u in re.findall(r'(?:src|href)="(/static/[^"]+\.(?:js|css)\?v=[0-9a-f]+)"', page)]
    assert "/static/js/slow.js" in assets
    assert sum(len(ana.get(a).content) for a in assets) <= 150 * 1024
