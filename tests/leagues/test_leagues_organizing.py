"""Leagues (issue 40), who runs them and what they do: the Club's organizers create a
league and an admin names a league's own organizers (L7); an organizer moves an evening
not started, its tournament with it, and every bad move is a clear 4xx that changes
nothing; a resume drops the moves of the evenings not created (L8); bots play in a league
that allows them, in their own table (L9); the reminder before an evening reaches each
member entered once, even with three instances racing (L10). All on a moved clock."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import LeagueEvening, LeagueReminder, Member, Tournament
from app.leagues import evenings, reminders
from app.web.push import describe
from tests.support.api import ORIGIN, error_code, register
from tests.support.bots import bearer, new_bot, new_token
from tests.support.tournaments import admin_client, body


def calendar(c, lid: int) -> list[dict]:
    return c.get(f"/api/leagues/{lid}").json()["calendar"]


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def other_clubs(settings, clock, n: int) -> list:
    from app.club import Club

    return [Club.from_settings(settings, clock) for _ in range(n)]


def race(clubs, work) -> list:
    """Each Club does ``work(club)`` at once (a thread each); their answers."""
    barrier = threading.Barrier(len(clubs))
    out: list = []

    def run(club) -> None:
        barrier.wait()
        out.append(work(club))

    threads = [threading.Thread(target=run, args=(c,)) for c in clubs]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    return out


def test_the_club_s_organizers_create_and_an_admin_names_a_league_s_own(app, clock):
    admin = admin_client(app)
    ana, bora = register(app, "ana"), register(app, "bora")
    r = ana.post("/api/leagues", json=body(clock))
    assert r.status_code == 403 and error_code(r) == "not_an_organizer" and r.json()["error"]["message"]
    assert admin.get("/api/leagues").json()["upcoming"] == []
    assert admin.post("/api/members/ana/organizer", json={"organizer": True}).status_code == 200
    lg = ana.post("/api/leagues", json=body(clock)).json()
    lid = lg["id"]
    assert lg["organizers"] == ["ana"] and lg["may_run"] is True
    assert bora.get(f"/api/leagues/{lid}").json()["may_run"] is False
    r = bora.post(f"/api/leagues/{lid}/pause")
    assert r.status_code == 403 and error_code(r) == "not_the_organizer"
    for who in (ana, bora):  # only an admin names a league's organizers
        r = who.post(f"/api/leagues/{lid}/organizers", json={"name": "bora"})
        assert r.status_code == 403 and error_code(r) == "not_an_admin"
    r = admin.post(f"/api/leagues/{lid}/organizers", json={"name": "nobody"})
    assert r.status_code == 404 and error_code(r) == "no_such_member"
    r = admin.post("/api/leagues/999/organizers", json={"name": "bora"})
    assert r.status_code == 404 and error_code(r) == "no_such_league"
    new_bot(bora, "robi")
    r = admin.post(f"/api/leagues/{lid}/organizers", json={"name": "robi"})
    assert r.status_code == 409 and error_code(r) == "is_a_bot"
    assert admin.post(f"/api/leagues/{lid}/organizers", json={"name": "Bora"}).json() == {
        "name": "bora", "organizer": True}
    r = admin.post(f"/api/leagues/{lid}/organizers", json={"name": "bora"})
    assert r.status_code == 409 and error_code(r) == "already_organizer"
    assert admin.get(f"/api/leagues/{lid}").json()["organizers"] == ["ana", "bora"]
    assert bora.post(f"/api/leagues/{lid}/pause").json()["status"] == "paused"
    assert bora.post(f"/api/leagues/{lid}/resume").json()["status"] == "active"
    assert admin.delete(f"/api/leagues/{lid}/organizers/bora").json() == {"name": "bora", "organizer": False}
    r = admin.delete(f"/api/leagues/{lid}/organizers/bora")
    assert r.status_code == 409 and error_code(r) == "not_an_organizer_here"
    assert error_code(bora.post(f"/api/leagues/{lid}/close")) == "not_the_organizer"
    assert bora.get(f"/api/leagues/{lid}").json()["status"] == "active"


def test_an_organizer_moves_an_evening_and_its_tournament(app, clock, settings):
    admin = admin_client(app)
    ana = register(app, "ana")
    lid = admin.post("/api/leagues", json=body(clock)).json()["id"]
    before = calendar(admin, lid)
    starts = [at(e["starts_at"]) for e in before]

    def move(c, no: int, when) -> object:
        return c.post(f"/api/leagues/{lid}/evenings/{no}/move",
                      json={"starts_at": when if isinstance(when, str) else when.isoformat()})

    refused = [
        (ana, 2, starts[1] - timedelta(days=1), 403, "not_the_organizer"),
        (admin, 9, starts[1], 404, "no_such_evening"),
        (admin, 2, "2026-12-24T20:00:00", 422, "invalid_start"),  # no zone
        (admin, 2, "Thursday evening", 422, "invalid_request"),
        (admin, 1, clock.now() - timedelta(hours=1), 422, "invalid_start"),
        (admin, 2, starts[2], 422, "invalid_move"),  # on the next evening
        (admin, 2, starts[2] + timedelta(hours=1), 422, "invalid_move"),  # past it
        (admin, 2, starts[0] - timedelta(hours=1), 422, "invalid_move"),  # before the previous one
    ]
    for who, no, when, status, code in refused:
        r = move(who, no, when)
        assert r.status_code == status and r.json()["error"]["message"], (no, when, r.text)
        if code != "invalid_request":
            assert error_code(r) == code, (no, when, r.text)
        assert calendar(admin, lid) == before  # nothing changed
    # evening 2 a day earlier: only it moves, marked; back to the calendar's time: no move
    day_earlier = starts[1] - timedelta(days=1)
    assert move(admin, 2, day_earlier).json() == {"evening": 2, "starts_at": day_earlier.isoformat(),
                                                  "tournament": None}
    now = calendar(admin, lid)
    assert [at(e["starts_at"]) for e in now] == [starts[0], day_earlier, *starts[2:]]
    assert [e["moved"] for e in now] == [False, True, False, False]
    assert move(admin, 2, starts[1]).status_code == 200 and calendar(admin, lid) == before
    # evening 1 into its registration's window: created at once, at its new time
    soon = clock.now().replace(microsecond=0) + timedelta(hours=3)
    tid = move(admin, 1, soon).json()["tournament"] or calendar(admin, lid)[0]["tournament"]
    assert tid is not None and at(admin.get(f"/api/tournaments/{tid}").json()["start_at"]) == soon
    # a created evening moves with its tournament
    later = soon + timedelta(hours=1)
    assert move(admin, 1, later).json()["tournament"] == tid
    t = admin.get(f"/api/tournaments/{tid}").json()
    assert at(t["start_at"]) == later and at(t["next_round_at"]) == later
    # evening 2 moved to just before its registration opens; when it opens, two instances
    # racing create it once, at its new time
    evening2 = clock.now().replace(microsecond=0) + timedelta(hours=24, minutes=30)
    assert move(admin, 2, evening2).json()["tournament"] is None
    clock.advance(minutes=31)
    others = other_clubs(settings, clock, 2)
    try:
        outcomes = race(others, lambda club: evenings.step(club, lid))
    finally:
        for c in others:
            c.db.dispose()
    assert outcomes.count(None) == 1 and len(outcomes) == 2
    with app.state.club.db.read() as s:
        assert s.scalar(select(func.count()).select_from(LeagueEvening).where(LeagueEvening.league_id == lid)) == 2
        assert s.scalar(select(func.count()).select_from(Tournament)) == 2
    tid2 = calendar(admin, lid)[1]["tournament"]
    assert at(admin.get(f"/api/tournaments/{tid2}").json()["start_at"]) == evening2
    # evening 1 starts (nobody registered: cancelled): it no longer moves
    clock.advance((later - clock.now()).total_seconds() + 60)
    evenings.run_due(app.state.club)
    from app.tournaments import rounds
    rounds.advance(app.state.club, tid)
    assert admin.get(f"/api/tournaments/{tid}").json()["status"] == "cancelled"
    r = move(admin, 1, later + timedelta(minutes=30))
    assert r.status_code == 409 and error_code(r) == "evening_started"


def test_a_resume_drops_the_moves_of_the_evenings_not_created(app, clock):
    admin = admin_client(app)
    lid = admin.post("/api/leagues", json=body(clock)).json()["id"]
    before = calendar(admin, lid)
    moved = at(before[2]["starts_at"]) + timedelta(days=1)
    admin.post(f"/api/leagues/{lid}/evenings/3/move", json={"starts_at": moved.isoformat()})
    assert calendar(admin, lid)[2]["moved"]
    admin.post(f"/api/leagues/{lid}/pause")
    assert calendar(admin, lid)[2]["moved"]  # a pause keeps them
    resumed = admin.post(f"/api/leagues/{lid}/resume").json()
    assert resumed["skipped_dates"] == [] and calendar(admin, lid) == before


def test_bots_play_in_a_league_that_allows_them_in_their_own_table(app, clock):
    admin = admin_client(app)
    with_bots = admin.post("/api/leagues", json=body(clock, bots_allowed=True)).json()
    without = admin.post("/api/leagues", json=body(clock, name="Samo ljudi")).json()
    assert with_bots["bots_allowed"] is True and without["bots_allowed"] is False
    lid = with_bots["id"]
    ana, bora, ceca = (register(app, n) for n in ("ana", "bora", "ceca"))
    robi = TestClient(app, headers={**ORIGIN, **bearer(new_bot(ana, "robi", ["bot:tournament"]))})
    r = robi.post(f"/api/bot/leagues/{without['id']}/register")
    assert r.status_code == 403 and error_code(r) == "bots_not_allowed"
    playing_only = TestClient(app, headers={**ORIGIN, **bearer(new_token(ana, "robi", ["bot:play"]))})
    r = playing_only.post(f"/api/bot/leagues/{lid}/register")
    assert r.status_code == 403 and error_code(r) == "missing_scope"
    assert robi.post(f"/api/leagues/{lid}/register").status_code == 401  # the members' route wants a session
    assert ana.post(f"/api/leagues/{lid}/register").status_code == 200
    r = robi.post(f"/api/bot/leagues/{lid}/register")  # fair play: never with its owner
    assert r.status_code == 403 and error_code(r) == "own_bot_at_table"
    ana.post(f"/api/leagues/{lid}/unregister")
    assert robi.post(f"/api/bot/leagues/{lid}/register").json() == {"registered": True, "from_evening": 1}
    for c in (bora, ceca):
        c.post(f"/api/leagues/{lid}/register")
    first = at(with_bots["calendar"][0]["starts_at"])
    clock.advance((first - timedelta(hours=24) - clock.now()).total_seconds())
    evenings.run_due(app.state.club)
    tid = calendar(admin, lid)[0]["tournament"]
    t = admin.get(f"/api/tournaments/{tid}").json()
    assert t["bots_allowed"] is True and {p["name"] for p in t["players"]} == {"robi", "bora", "ceca"}
    # the evening ends with the bot first: the members' table reads it among the members
    with app.state.club.db.write() as s:
        ids = dict(s.execute(select(Member.name, Member.id)).all())
        row = s.get(Tournament, tid)
        row.standings = [{"player": ids["robi"], "rank": 1, "score": 9.0}, {"player": ids["ceca"], "rank": 2, "score": 7.0},
                         {"player": ids["bora"], "rank": 3, "score": 5.0}]
        row.status, row.finished_at = "finished", clock.now()
    data = admin.get(f"/api/leagues/{lid}").json()
    assert [(r["name"], r["rank"], r["total"]) for r in data["table"]] == [("ceca", 1, 10.0), ("bora", 2, 8.0)]
    assert [(r["name"], r["rank"], r["total"], r["evenings"][0]["place"]) for r in data["bots_table"]] == [
        ("robi", 1, 10.0, 1)]
    (mine,) = admin.get("/api/members/robi/leagues").json()["leagues"]
    assert (mine["rank"], mine["total"], mine["of"]) == (1, 10.0, 1)
    assert robi.post(f"/api/bot/leagues/{lid}/unregister").json()["registered"] is False


def test_the_reminder_reaches_each_member_entered_once(app, clock, settings):
    """An hour before the evening, three instances race to remind its players: each member
    entered (a season's, and one registered for that evening only; not one who skips it,
    not a bot) is told once; one entered later is told then; a moved evening is told again;
    nobody is told after the start."""
    admin = admin_client(app)
    lg = admin.post("/api/leagues", json=body(clock)).json()
    lid = lg["id"]
    clients = {n: register(app, n) for n in ("ana", "bora", "ceca", "dule", "ema")}
    for n in ("ana", "bora", "ceca"):
        clients[n].post(f"/api/leagues/{lid}/register")
    clients["ceca"].post(f"/api/leagues/{lid}/evenings/1/skip")
    first = at(lg["calendar"][0]["starts_at"])
    clock.advance((first - timedelta(hours=24) - clock.now()).total_seconds())
    evenings.run_due(app.state.club)
    tid = calendar(admin, lid)[0]["tournament"]
    assert clients["dule"].post(f"/api/tournaments/{tid}/register").status_code == 200  # this evening only
    others = other_clubs(settings, clock, 2)
    clubs = [app.state.club, *others]
    told: list[tuple[list[int], dict]] = []
    for club in clubs:
        club.hub.sinks.append(lambda members, notice: notice["kind"] == "evening" and told.append((members, notice)))
    with app.state.club.db.read() as s:
        names = dict(s.execute(select(Member.id, Member.name)).all())

    def told_names() -> list[str]:
        return sorted(names[m] for members, _ in told for m in members)

    try:
        clock.advance((first - timedelta(minutes=61) - clock.now()).total_seconds())
        assert reminders.send_due(app.state.club) == 0 and told == []  # not yet
        clock.advance(minutes=2)
        assert sorted(race(clubs, reminders.send_due)) == [0, 0, 3]
        assert told_names() == ["ana", "bora", "dule"]
        notice = told[0][1]
        assert (notice["league"], notice["evening"], notice["tournament"], notice["minutes"]) == (lid, 1, tid, 59)
        assert at(notice["starts_at"]) == first and notice["name"] == "Zimska liga, veče 1"
        assert sum(race(clubs, reminders.send_due)) == 0 and len(told) == 1  # once
        # one entered later is told then, once
        assert clients["ema"].post(f"/api/tournaments/{tid}/register").status_code == 200
        assert sum(race(clubs, reminders.send_due)) == 1 and told_names() == ["ana", "bora", "dule", "ema"]
        # the evening moves half an hour on: its players are told the new time
        moved = admin.post(f"/api/leagues/{lid}/evenings/1/move",
                           json={"starts_at": (first + timedelta(minutes=30)).isoformat()})
        assert moved.status_code == 200
        assert sum(race(clubs, reminders.send_due)) == 0  # 89 minutes before it now
        clock.advance(minutes=30)
        assert sum(race(clubs, reminders.send_due)) == 4 and len(told) == 3 and told[-1][1]["minutes"] == 59
        with app.state.club.db.read() as s:
            assert s.scalar(select(func.count()).select_from(LeagueReminder)) == 4
        # the push's text and page
        push = describe("sr-Latn", told[-1][1], "preferans")
        assert push["body"] == "Zimska liga, veče 1 počinje za 59 min" and push["url"] == f"/leagues/{lid}"
        assert describe("en", told[-1][1], "preferans")["body"] == "Zimska liga, veče 1 begins in 59 min"
        # the evening starts: nobody is reminded any more
        clock.advance(hours=1)
        with app.state.club.db.write() as s:
            s.query(LeagueReminder).delete()
        assert sum(race(clubs, reminders.send_due)) == 0
    finally:
        for c in others:
            c.db.dispose()
