"""Leagues (issue 40): the season table's arithmetic (best K of N, the ties: the next best
evening, then head-to-head), the calendar's dates, and the API's refusals of bad input."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from app.leagues import calendar, evenings, season
from app.tournaments import rounds
from tests.support.api import error_code, register
from tests.support.tournaments import admin_client, body
from tests.support.web import wait_for


def st(*players, ranks=None):
    """Final standings, best first: each player's rank his position unless given."""
    ranks = ranks or list(range(1, len(players) + 1))
    return [{"player": p, "rank": r, "score": 0.0} for p, r in zip(players, ranks)]


def test_best_k_of_n_and_missed_evenings():
    scale = [10, 8, 6, 5]
    rows = season.table([(1, st(1, 2, 3)), (2, st(2, 1, 3, 4)), (3, st(3, 2, 4))], [1, 2, 3, 4, 5], "places",
                        scale, best_of=2, total_evenings=4)
    by = {r.player: r for r in rows}
    assert by[2].points == {1: 8.0, 2: 10.0, 3: 8.0} and by[2].counted == [1, 2] and by[2].total == 18.0
    assert by[1].points == {1: 10.0, 2: 8.0} and by[1].total == 18.0
    assert by[5].points == {} and by[5].total == 0.0  # registered, nothing played (L1)
    # 1 and 2 tie on 18: 2's next best evening (8) beats 1's (none: 0), L3
    assert [r.player for r in rows][:2] == [2, 1] and by[2].rank == 1 and by[1].rank == 2
    assert by[3].points == {1: 6.0, 2: 6.0, 3: 10.0} and by[3].total == 16.0
    assert by[4].points == {2: 5.0, 3: 6.0} and by[4].rank == 4 and by[5].rank == 5


def test_one_who_plays_an_evening_without_the_season_is_in_the_table():
    # registered for evening 2 only (the tournament's own registration): his evening counts
    rows = season.table([(1, st(1, 2, 3)), (2, st(4, 1, 2, 3))], [1, 2, 3], "places", [10, 8, 6], 2, 4)
    assert {r.player: (r.total, len(r.points)) for r in rows} == {
        1: (18.0, 2), 2: (14.0, 2), 3: (6.0, 2), 4: (10.0, 1)}


def test_ties_go_to_head_to_head_then_share_the_rank():
    # 1 and 2: 10 + 8 each, nothing left over, one evening ahead each: a shared rank; with a
    # third evening where both are past the scale (0 points) and 1 is ahead of 2, 1 is first
    two = season.table([(1, st(1, 2)), (2, st(2, 1))], [1, 2], "places", [10, 8], 2, 2)
    assert [(r.player, r.rank) for r in two] == [(1, 1), (2, 1)]
    three = season.table([(1, st(1, 2)), (2, st(2, 1)), (3, st(9, 8, 7, 1, 2))], [1, 2], "places", [10, 8], 2, 3)
    ranks = {r.player: r.rank for r in three}
    assert ranks[1] < ranks[2] and next(r for r in three if r.player == 1).head_to_head == 2


def test_unranked_and_tied_places_and_percentages():
    rows = [{"player": 1, "rank": 1, "score": 61.5}, {"player": 2, "rank": 1, "score": 61.5},
            {"player": 3, "rank": 3, "score": 40.0}, {"player": 4, "rank": None, "score": 70.0}]
    assert season.places_of(rows) == {1: 1, 2: 1, 3: 3, 4: 4}  # withdrawn: his position (L2)
    assert season.evening_points(rows, "places", [5, 3, 2, 1]) == {1: 5.0, 2: 5.0, 3: 2.0, 4: 1.0}
    assert season.evening_points(rows, "percentage", None)[3] == 40.0


def test_an_evening_read_among_one_kind_of_players():
    # L9: the bots (7, 8) left out of the members' table and the members out of the bots'
    rows = [{"player": 7, "rank": 1}, {"player": 1, "rank": 2}, {"player": 2, "rank": 2}, {"player": 8, "rank": 4},
            {"player": 3, "rank": 5}, {"player": 4, "rank": None}]
    assert [(r["player"], r["rank"]) for r in season.among(rows, {1, 2, 3, 4})] == [(1, 1), (2, 1), (3, 3), (4, None)]
    assert season.places_of(season.among(rows, {1, 2, 3, 4})) == {1: 1, 2: 1, 3: 3, 4: 4}
    assert [(r["player"], r["rank"]) for r in season.among(rows, {7, 8})] == [(7, 1), (8, 2)]
    assert rows[1]["rank"] == 2  # the evening's own standings untouched


def test_calendar_weekly_with_skipped_dates_in_the_league_s_zone():
    # Thursdays at 20:00 in Belgrade from Monday 2026-03-23: the 26th, (2 April skipped), 9th, 16th;
    # the clocks change on 29 March: 19:00 UTC before, 18:00 after
    got = calendar.starts(3, date(2026, 3, 23), 3, {date(2026, 4, 2)}, "20:00", "Europe/Belgrade")
    assert [x.isoformat() for x in got] == ["2026-03-26T19:00:00+00:00", "2026-04-09T18:00:00+00:00",
                                            "2026-04-16T18:00:00+00:00"]


@pytest.mark.parametrize("change, code", [
    ({"weekday": 7}, "invalid_weekday"), ({"evenings": 0}, "invalid_evenings"), ({"best_of": 5}, "invalid_best_of"),
    ({"start_time": "25:00"}, "invalid_time"), ({"start_time": "8pm"}, "invalid_time"),
    ({"zone": "Mars/Olympus"}, "invalid_zone"), ({"scale": [5, 8]}, "invalid_scale"), ({"scale": []}, "invalid_scale"),
    ({"scale": None}, "invalid_scale"), ({"scoring": "percentage"}, "invalid_scoring"),
    ({"game": "sah"}, "unknown_game"), ({"rounds": 0}, "invalid_rounds"), ({"name": "x"}, "invalid_name"),
    ({"first_date": "2020-01-02"}, "invalid_start"), ({"open_hours": 0}, "invalid_open_hours"),
    ({"final_top": 1}, "invalid_final"), ({"hands": 4}, "invalid_settings"),
    ({"first_date": "9999-12-30"}, "invalid_calendar"), ({"first_date": "0001-01-01"}, "invalid_start"),
])
def test_bad_input_is_a_clear_422(client, app, clock, change, code):
    admin = admin_client(app)
    r = admin.post("/api/leagues", json=body(clock, **change))
    assert r.status_code == 422 and error_code(r) == code, r.text
    assert r.json()["error"]["message"]


def test_who_may_do_what(client, app, clock):
    admin = admin_client(app)
    ana = register(app, "ana")
    r = ana.post("/api/leagues", json=body(clock))
    assert r.status_code == 403 and error_code(r) == "not_an_organizer"
    lg = admin.post("/api/leagues", json=body(clock)).json()
    lid = lg["id"]
    assert [e["status"] for e in lg["calendar"]] == ["scheduled"] * 4 and lg["next_evening"] == 1
    assert error_code(ana.post(f"/api/leagues/{lid}/unregister")) == "not_registered"
    assert error_code(ana.post(f"/api/leagues/{lid}/evenings/2/skip")) == "not_registered"
    assert ana.post(f"/api/leagues/{lid}/register").json() == {"registered": True, "from_evening": 1}
    assert error_code(ana.post(f"/api/leagues/{lid}/register")) == "already_registered"
    assert ana.post(f"/api/leagues/{lid}/evenings/2/skip").json() == {"evening": 2, "skipped": True}
    assert error_code(ana.post(f"/api/leagues/{lid}/evenings/2/skip")) == "already_skipped"
    assert error_code(ana.delete(f"/api/leagues/{lid}/evenings/3/skip")) == "not_skipped"
    assert ana.get(f"/api/leagues/{lid}/evenings/9/skip").status_code == 405
    r = ana.post(f"/api/leagues/{lid}/evenings/9/skip")
    assert r.status_code == 404 and error_code(r) == "no_such_evening"
    mine = ana.get(f"/api/leagues/{lid}").json()
    assert [e["entered"] for e in mine["calendar"]] == [True, False, True, True]
    assert [row["name"] for row in mine["table"]] == ["ana"] and mine["registered"]
    listed = ana.get("/api/leagues").json()
    assert listed["running"] == listed["finished"] == [] and listed["upcoming"][0]["mine"] is True
    assert listed["upcoming"][0]["next_evening"] == 1
    assert listed["upcoming"][0]["next_starts_at"] == mine["calendar"][0]["starts_at"]
    assert error_code(ana.get("/api/leagues/999")) == "no_such_league"
    assert ana.get("/api/members/ana/leagues").json()["leagues"] == [
        {"id": lid, "name": "Zimska liga", "game": "preferans", "status": "active", "rank": None, "total": 0.0,
         "played": 0, "of": 1}]
    assert error_code(ana.get("/api/members/nobody/leagues")) == "no_such_member"
    assert ana.post(f"/api/leagues/{lid}/unregister").json()["registered"] is False
    assert ana.get(f"/api/leagues/{lid}").json()["table"] == []  # left before his first evening: gone


def test_an_evening_open_for_registration_follows_the_season_s_registrations(client, app, clock):
    """Once an evening's tournament exists (registration open), registering for the season
    enters him into it, a skip takes him out, taking the skip back puts him in again, and
    leaving the season takes him out."""
    admin = admin_client(app)
    lg = admin.post("/api/leagues", json=body(clock)).json()
    lid = lg["id"]
    first = clock.now().fromisoformat(lg["calendar"][0]["starts_at"])
    clock.advance((first - timedelta(hours=24) - clock.now()).total_seconds())
    ana = register(app, "ana")  # the app's watcher, or the next request's step, creates evening 1
    tid = evenings.step(app.state.club, lid) or ana.get(f"/api/leagues/{lid}").json()["calendar"][0]["tournament"]
    assert tid is not None

    def players() -> list[str]:
        return [p["name"] for p in admin.get(f"/api/tournaments/{tid}").json()["players"]]

    assert players() == []
    assert ana.post(f"/api/leagues/{lid}/register").json()["from_evening"] == 1
    assert players() == ["ana"]
    ana.post(f"/api/leagues/{lid}/evenings/1/skip")
    assert players() == []
    ana.delete(f"/api/leagues/{lid}/evenings/1/skip")
    assert players() == ["ana"]
    ana.post(f"/api/leagues/{lid}/unregister")
    assert players() == []
    clock.advance(hours=24)  # evening 1 starts: too few players, it is cancelled
    rounds.advance(app.state.club, tid)
    assert admin.get(f"/api/tournaments/{tid}").json()["status"] == "cancelled"
    r = ana.post(f"/api/leagues/{lid}/register")
    assert r.json()["from_evening"] == 2  # evening 1 is over: from evening 2 on
    r = ana.post(f"/api/leagues/{lid}/evenings/1/skip")
    assert r.status_code == 409 and error_code(r) in ("evening_started", "not_registered")


def test_the_organizer_pauses_resumes_and_closes(client, app, clock):
    """Paused, no evening is created; resumed, an evening that would have started during the
    pause moves a week on (its date skipped, L6); closed, the evening waiting is cancelled."""
    admin = admin_client(app)
    ana = register(app, "ana")
    lg = admin.post("/api/leagues", json=body(clock)).json()
    lid = lg["id"]
    starts = [e["starts_at"] for e in lg["calendar"]]
    r = ana.post(f"/api/leagues/{lid}/pause")
    assert r.status_code == 403 and error_code(r) == "not_the_organizer"
    assert error_code(admin.post(f"/api/leagues/{lid}/resume")) == "not_paused"
    assert admin.post(f"/api/leagues/{lid}/pause").json()["status"] == "paused"
    assert error_code(admin.post(f"/api/leagues/{lid}/pause")) == "already_paused"
    assert ana.post(f"/api/leagues/{lid}/register").status_code == 200  # registration stays open
    first = clock.now().fromisoformat(starts[0])
    clock.advance((first - clock.now()).total_seconds() + 60)  # evening 1's start passes, paused
    evenings.run_due(app.state.club)
    assert admin.get(f"/api/leagues/{lid}").json()["calendar"][0]["tournament"] is None
    resumed = admin.post(f"/api/leagues/{lid}/resume").json()
    assert resumed["status"] == "active" and resumed["skipped_dates"] == [lg["calendar"][0]["date"]]
    data = admin.get(f"/api/leagues/{lid}").json()
    assert [e["starts_at"] for e in data["calendar"]] == starts[1:] + [
        (clock.now().fromisoformat(starts[3]) + timedelta(weeks=1)).isoformat()]
    assert data["calendar"][0]["tournament"] is None  # the new evening 1 opens a day before it
    clock.advance((clock.now().fromisoformat(starts[1]) - timedelta(hours=24) - clock.now()).total_seconds())
    evenings.run_due(app.state.club)
    tid = wait_for(lambda: admin.get(f"/api/leagues/{lid}").json()["calendar"][0]["tournament"])
    assert [p["name"] for p in admin.get(f"/api/tournaments/{tid}").json()["players"]] == ["ana"]
    assert admin.post(f"/api/leagues/{lid}/close").json() == {"status": "closed", "cancelled": [tid]}
    assert admin.get(f"/api/tournaments/{tid}").json()["status"] == "cancelled"
    assert [x["id"] for x in admin.get("/api/leagues").json()["finished"]] == [lid]
    assert error_code(admin.post(f"/api/leagues/{lid}/close")) == "season_over"
