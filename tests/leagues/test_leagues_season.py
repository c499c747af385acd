"""A league runs itself on the Club's clock (the test moves it): four weekly evenings of
preferans, each created by the calendar a day ahead with the season's members entered,
started, played by the members and computer players through the API, and ended; a member
skips evening 2 in advance, another joins in week 2; the season table equals a
recomputation from the evenings' standings (best 3 of 4). And two instances racing to
create the same evening create it once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from app.db.models import LeagueEvening, Tournament
from app.leagues import evenings
from tests.support.api import PASSWORD, register
from tests.support.tournaments import admin_client, body, play_round
from tests.support.web import wait_for

SCALE = [10.0, 8.0, 6.0, 5.0, 4.0]


def evening(c, lid: int, no: int) -> dict:
    return c.get(f"/api/leagues/{lid}").json()["calendar"][no - 1]


def expected_table(admin, tids: dict[int, int], members: list[str]) -> dict[str, tuple[float, list[int], dict]]:
    """name -> (total, counted evenings, points by evening), from the tournaments' standings."""
    points: dict[str, dict[int, float]] = {m: {} for m in members}
    for no, tid in tids.items():
        standings = admin.get(f"/api/tournaments/{tid}").json()["standings"]
        for i, row in enumerate(standings):
            place = row["rank"] if row["rank"] is not None else i + 1
            points[row["name"]][no] = SCALE[place - 1] if place <= len(SCALE) else 0.0
    out = {}
    for name, pts in points.items():
        best = sorted(pts, key=lambda no: (-pts[no], no))[:3]
        out[name] = (sum(pts[no] for no in best), sorted(best), pts)
    return out


@pytest.mark.one_database
def test_a_season_of_four_weekly_evenings_runs_itself(client, app, clock):
    admin = admin_client(app)
    lg = admin.post("/api/leagues", json=body(clock, scale=SCALE, settings={"bule": 30}, round_minutes=60,
                                              final_top=3)).json()
    lid = lg["id"]
    starts = [evening(admin, lid, n)["starts_at"] for n in range(1, 5)]
    names = ["ana", "bora", "ceca", "dule"]
    clients = {n: register(app, n) for n in names}
    for c in clients.values():
        assert c.post(f"/api/leagues/{lid}/register").json()["from_evening"] == 1
    assert clients["dule"].post(f"/api/leagues/{lid}/evenings/2/skip").status_code == 200

    def touch():  # a member's session lives a week idle: the members look at the league each week
        for c in clients.values():
            c.get(f"/api/leagues/{lid}")

    tids: dict[int, int] = {}
    previous: list[dict] = []
    for no in range(1, 5):
        if no == 2:  # week 2: ema joins, from the next evening on
            clients["ema"] = register(app, "ema")
            assert clients["ema"].post(f"/api/leagues/{lid}/register").json()["from_evening"] == 2
        start = app.state.club.clock.now().fromisoformat(starts[no - 1])
        assert evening(admin, lid, no)["tournament"] is None
        clock.advance((start - timedelta(hours=24, minutes=1) - clock.now()).total_seconds())
        touch()
        assert evening(admin, lid, no)["tournament"] is None  # not before its registration opens
        clock.advance(minutes=1)
        e = wait_for(lambda: (e := evening(admin, lid, no))["tournament"] and e)
        tid = tids[no] = e["tournament"]
        t = admin.get(f"/api/tournaments/{tid}").json()
        entered = {p["name"] for p in t["players"]}
        playing = {n for n in clients if not (n == "dule" and no == 2) and not (n == "ema" and no == 1)}
        assert t["status"] == "registration" and entered == playing, (no, entered)
        clock.advance(hours=24)
        touch()
        wait_for(lambda: admin.get(f"/api/tournaments/{tid}").json()["current_round"] == 1)
        play_round(app, {n: clients[n] for n in playing}, tid, seed=no)
        wait_for(lambda: admin.get(f"/api/tournaments/{tid}").json()["status"] == "finished")
        assert evening(admin, lid, no)["status"] == "finished"
        table = admin.get(f"/api/leagues/{lid}").json()["table"]
        if no == 1:
            assert all(row["movement"] is None for row in table)
        else:  # the movement: the rank in the table without this evening, less the rank now
            before = {row["name"]: row["rank"] for row in previous if row["played"]}
            assert {row["name"]: row["movement"] for row in table} == {
                row["name"]: before[row["name"]] - row["rank"] if row["name"] in before else None for row in table}
        previous = table
    # the final, a week after evening 4 (its registration a day before): the season's top 3 (L5)
    data = admin.get(f"/api/leagues/{lid}").json()
    assert data["status"] == "active" and data["calendar"][4]["final"] and data["calendar"][4]["tournament"] is None
    top3 = [row["name"] for row in data["table"][:3]]
    final_start = clock.now().fromisoformat(data["calendar"][4]["starts_at"])
    assert final_start - clock.now().fromisoformat(starts[3]) == timedelta(weeks=1)
    clock.advance((final_start - timedelta(hours=24) - clock.now()).total_seconds())
    # a session lasts 30 days at most, and the final is a month after the first logins: again
    admin = admin_client(app)
    for name, c in clients.items():
        assert c.post("/api/auth/login", json={"name": name, "password": PASSWORD}).status_code == 200
    e = wait_for(lambda: (e := evening(admin, lid, 5))["tournament"] and e)
    final = admin.get(f"/api/tournaments/{e['tournament']}").json()
    assert [p["name"] for p in final["players"]] == top3 and final["name"] == "Zimska liga, finale"
    clock.advance(hours=24)
    touch()
    wait_for(lambda: admin.get(f"/api/tournaments/{final['id']}").json()["current_round"] == 1)
    play_round(app, {n: clients[n] for n in top3}, final["id"], seed=5)
    data = wait_for(lambda: (d := admin.get(f"/api/leagues/{lid}").json())["status"] == "finished" and d, timeout=10)
    expected = expected_table(admin, tids, list(clients))
    got = {row["name"]: row for row in data["table"]}
    assert set(got) == set(expected) and [row["name"] for row in data["table"][:3]] == top3  # the final aside
    for name, (total, counted, pts) in expected.items():
        row = got[name]
        assert row["total"] == total and row["counted"] == counted, (name, row, pts)
        assert {e["evening"]: e["points"] for e in row["evenings"] if e["points"] is not None} == pts
    assert got["dule"]["evenings"][1]["points"] is None and got["ema"]["evenings"][0]["points"] is None
    assert got["dule"]["played"] == 3 and got["ema"]["played"] == 3 and got["ana"]["played"] == 4
    totals = [row["total"] for row in data["table"]]
    assert totals == sorted(totals, reverse=True) and data["table"][0]["rank"] == 1
    assert data["next_evening"] is None
    for row in data["table"]:  # each member's leagues (his profile's): his place and total
        (mine,) = clients[row["name"]].get(f"/api/members/{row['name']}/leagues").json()["leagues"]
        assert (mine["id"], mine["rank"], mine["total"], mine["played"], mine["of"], mine["status"]) == (
            lid, row["rank"], row["total"], row["played"], 5, "finished")


def test_two_instances_create_an_evening_once(app, clock, settings):
    """Two Clubs on one database race to create the same evening: the evening's unique key
    (and, on PostgreSQL, the league's row lock) lets one win. (The app serves the requests
    without its lifespan: no watcher of its own joins the race.)"""
    from app.club import Club

    admin = admin_client(app)
    lg = admin.post("/api/leagues", json=body(clock)).json()
    lid = lg["id"]
    for i in range(3):
        register(app, f"dvojnik{i}").post(f"/api/leagues/{lid}/register")
    first = clock.now().fromisoformat(lg["calendar"][0]["starts_at"])
    clock.advance((first - timedelta(hours=24) - clock.now()).total_seconds())  # evening 1 is due
    others = [Club.from_settings(settings, clock) for _ in range(2)]
    try:
        barrier = threading.Barrier(2)
        outcomes: list[int | None] = []

        def race(club) -> None:
            barrier.wait()
            outcomes.append(evenings.step(club, lid))

        threads = [threading.Thread(target=race, args=(c,)) for c in others]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
    finally:
        for c in others:
            c.db.dispose()
    assert len(outcomes) == 2 and outcomes.count(None) == 1
    with app.state.club.db.read() as s:
        assert s.scalar(select(func.count()).select_from(LeagueEvening).where(LeagueEvening.league_id == lid)) == 1
        assert s.scalar(select(func.count()).select_from(Tournament)) == 1
        t = s.scalar(select(Tournament))
        assert len(t.players) == 3
