"""Tournaments through the API, on the Club's clock (the test moves it): a 9-player
preferans duplikat and a 7-player Lora svajcarski with a computer player filling a seat,
played to their ends by the members' own words; T8's privacy during a round; the
organizer's controls; bad input; the round deadline; a restart in the middle of a round.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import Partie, RatingEvent, Tournament, TournamentRound
from app.tournaments import rounds
from tests.support.api import error_code, register
from tests.support.tournaments import (
    admin_client,
    create,
    my_table,
    play_round,
    round_ended,
)
from tests.support.web import wait_for


def pairs_of(data: dict, round_no: int) -> set[frozenset[str]]:
    r = next(r for r in data["rounds_played"] if r["round"] == round_no)
    out = set()
    for table in r["tables"]:
        names = [s["name"] for s in table["seats"] if s["member"]]
        out |= {frozenset((a, b)) for i, a in enumerate(names) for b in names[i + 1:]}
    return out


def round_results(app, tid: int, round_no: int) -> list[dict]:
    with app.state.club.db.read() as s:
        return s.get(TournamentRound, (tid, round_no)).results


def first_deal_hands(c: TestClient, partie_id: int) -> list:
    return c.get(f"/api/parties/{partie_id}/record").json()["deals"][0]["hands"]


@pytest.mark.one_database
def test_nine_players_of_preferans_duplikat(client, app, clock):
    admin = admin_client(app)
    t = create(admin, clock, game="preferans", format="duplikat", hands=3, settings={"bule": 30}, robot_field=True)
    tid = t["id"]
    assert t["status"] == "registration" and t["secret"] is None and len(t["commitment"]) == 64
    names = [f"igrac{i}" for i in range(9)]
    clients = {n: register(app, n) for n in names}
    for c in clients.values():
        assert c.post(f"/api/tournaments/{tid}/register").json()["from_round"] == 1
    assert error_code(clients["igrac0"].post(f"/api/tournaments/{tid}/register")) == "already_registered"
    listing = clients["igrac0"].get("/api/tournaments").json()
    assert [x["registered"] for x in listing["upcoming"] if x["id"] == tid] == [9]

    clock.advance(minutes=10)  # the start: round 1 seats three tables of three
    data = wait_for(lambda: (d := admin.get(f"/api/tournaments/{tid}").json())["current_round"] == 1 and d)
    r1 = data["rounds_played"][0]
    # three tables of members; the robot field's fourth table is hidden while the round runs
    assert len(r1["tables"]) == 3 and all(len(tb["seats"]) == 3 and all(s["member"] for s in tb["seats"])
                                          for tb in r1["tables"])
    with app.state.club.db.read() as s:
        robots = s.scalar(select(Partie).where(Partie.tournament_id == tid, Partie.table_no == 0))
        assert robots is not None and all(row.bot == "majstor" for row in robots.seats)
        robot_table = robots.id
    r = clients["igrac0"].get(f"/api/parties/{robot_table}/view")
    assert r.status_code == 403 and error_code(r) == "tournament_table_hidden"
    # T8: during the round a player sees only his own table
    mine = my_table(clients["igrac0"], tid)
    # nor the organizer, who does not play (rulings T11): the ids are in the database only
    assert [tb["partie_id"] for tb in admin.get(f"/api/tournaments/{tid}").json()["rounds_played"][0]["tables"]] \
        == [None, None, None]
    with app.state.club.db.read() as s:
        other = s.scalar(select(Partie.id).where(Partie.tournament_id == tid, Partie.table_no > 0, Partie.id != mine)
                         .order_by(Partie.id))
    for path in (f"/api/parties/{other}/view", f"/api/parties/{other}/record", f"/api/parties/{other}/chat"):
        r = clients["igrac0"].get(path)
        assert r.status_code == 403 and error_code(r) == "tournament_table_hidden", path
    seen = clients["igrac0"].get(f"/api/tournaments/{tid}").json()["rounds_played"][0]["tables"]
    assert [tb["partie_id"] for tb in seen if tb["partie_id"]] == [mine]
    assert other not in [p["id"] for p in clients["igrac0"].get("/api/archive?status=all").json()["parties"]]

    play_round(app, clients, tid, seed=1)
    round_ended(admin, tid, 1)
    after1 = admin.get(f"/api/tournaments/{tid}").json()
    tables1 = [tb["partie_id"] for tb in after1["rounds_played"][0]["tables"]]
    assert len(tables1) == 4 and robot_table in tables1  # shown once the round is over
    # the same cards in the same seats at every table (T2): the records' deals agree, each
    # deal that every table played
    records = [clients["igrac0"].get(f"/api/parties/{p}/record").json()["deals"] for p in tables1]
    common = min(len(deals) for deals in records)
    assert common >= 1
    for k in range(common):
        assert len({repr((deals[k]["hands"], deals[k].get("talon"))) for deals in records}) == 1, k
    # the round is over: every table and the travellers are open
    assert clients["igrac0"].get(f"/api/parties/{other}/view").status_code == 200
    st = after1["standings"]
    # each counts the boards his table played (a partie may end before its last hand)
    played = {m: len(tab["boards"]) for tab in round_results(app, tid, 1) for m in tab["players"]}
    assert len(st) == 9 and all(s["played"] == played[s["player"]] >= 1 for s in st)
    # ranked by score; one who played fewer than half of the boards is listed after, unranked (T4)
    ranked = [s for s in st if s["ranked"]]
    assert st[:len(ranked)] == ranked and all(s["rank"] is None for s in st[len(ranked):])
    assert all(s["ranked"] == (2 * s["played"] >= max(played.values())) for s in st)
    assert [s["rank"] for s in ranked] == sorted(s["rank"] for s in ranked)
    assert [s["score"] for s in ranked] == sorted((s["score"] for s in ranked), reverse=True)
    tr = clients["igrac1"].get(f"/api/tournaments/{tid}/rounds/1/boards/1").json()
    assert len(tr["tables"]) == 4 and [row["robots"] for row in tr["tables"]].count(True) == 1
    for seat in range(3):
        mps = [row["seats"][seat]["matchpoints"] for row in tr["tables"]]
        assert sum(mps) == pytest.approx(12.0)  # 4 tables: 2 points shared by each pair of results
        assert all(row["seats"][seat]["possible"] == 6 for row in tr["tables"])
    assert error_code(clients["igrac1"].get(f"/api/tournaments/{tid}/rounds/1/boards/99")) == "no_such_board"

    # round 2 after the pause: nobody meets a table-mate of round 1 again
    assert after1["next_round_at"] is not None
    clock.advance(minutes=2)
    wait_for(lambda: admin.get(f"/api/tournaments/{tid}").json()["current_round"] == 2)
    play_round(app, clients, tid, seed=2)
    round_ended(admin, tid, 2)
    final = wait_for(lambda: (d := admin.get(f"/api/tournaments/{tid}").json())["status"] == "finished" and d)
    assert not pairs_of(final, 1) & pairs_of(final, 2)
    # T2: the secret is shown and verifies; every round's seed is its HMAC
    secret = bytes.fromhex(final["secret"])
    assert hashlib.sha256(secret).hexdigest() == final["commitment"]
    assert final["seeds"] == [hmac.new(secret, f"{tid}:{r}".encode(), hashlib.sha256).hexdigest() for r in (1, 2)]
    with app.state.club.db.read() as s:
        seeds = set(s.scalars(select(Partie.seed).where(Partie.tournament_id == tid)))
    assert seeds == set(final["seeds"])
    played = {}
    for r in (1, 2):
        for tab in round_results(app, tid, r):
            for m in tab["players"]:
                played[m] = played.get(m, 0) + len(tab["boards"])
    assert all(s["played"] == played[s["player"]] for s in final["standings"])
    winner = final["standings"][0]["name"]
    profile = clients[winner].get(f"/api/members/{winner}/profile").json()
    assert [(x["id"], x["place"]) for x in profile["tournaments"]] == [(tid, 1)]
    finished = clients[winner].get("/api/tournaments").json()["finished"]
    assert [x["winners"] for x in finished if x["id"] == tid][0][0] == winner
    # T9: the Club's parties, rated (the Club's rules)
    with app.state.club.db.read() as s:
        events = list(s.scalars(select(RatingEvent).join(Partie, Partie.id == RatingEvent.partie_id)
                                .where(Partie.tournament_id == tid)))
    assert len(events) == 18 and all(e.rated for e in events)
    archive = clients[winner].get(f"/api/archive?of={winner}&tournament=true").json()["parties"]
    assert len(archive) == 2 and all(p["tournament"]["id"] == tid for p in archive)
    assert clients[winner].get(f"/api/archive?of={winner}&tournament=false").json()["parties"] == []


@pytest.mark.one_database
def test_seven_players_of_lora_svajcarski_with_a_computer_player(client, app, clock):
    admin = admin_client(app)
    bez = ["vise", "manje", "dame", "herc", "zandar", "kralj"]  # a short Lora: only the layout is played
    t = create(admin, clock, game="lora", format="svajcarski", rounds=2, settings={"bez": bez})
    tid = t["id"]
    clients = {f"lorista{i}": register(app, f"lorista{i}") for i in range(7)}
    for c in clients.values():
        c.post(f"/api/tournaments/{tid}/register")
    clock.advance(minutes=10)
    data = wait_for(lambda: (d := admin.get(f"/api/tournaments/{tid}").json())["current_round"] == 1 and d)
    seats = [s for tb in data["rounds_played"][0]["tables"] for s in tb["seats"]]
    assert len(data["rounds_played"][0]["tables"]) == 2 and sum(not s["member"] for s in seats) == 1
    for r in (1, 2):
        play_round(app, clients, tid, seed=r)
        round_ended(admin, tid, r)
        if r == 1:
            clock.advance(minutes=2)
            wait_for(lambda: admin.get(f"/api/tournaments/{tid}").json()["current_round"] == 2)
    final = wait_for(lambda: (d := admin.get(f"/api/tournaments/{tid}").json())["status"] == "finished" and d)
    st = final["standings"]
    assert sorted(s["name"] for s in st) == sorted(clients)  # the computer player is not ranked
    assert st[0]["score"] >= st[-1]["score"]
    # place points: each table of four gives 3+2+1+0 = 6 (the bot's share is nobody's)
    with app.state.club.db.read() as s:
        results = [tab for r in s.scalars(select(TournamentRound).where(TournamentRound.tournament_id == tid))
                   for tab in r.results]
    assert all(sum(tab["place_points"]) == pytest.approx(6.0) for tab in results)
    ranked_points = sum(s["score"] for s in st)
    bot_points = sum(p for tab in results for p, m in zip(tab["place_points"], tab["players"]) if m is None)
    assert ranked_points + bot_points == pytest.approx(6.0 * 4)
    # house rules (Mala lora): the parties are the Club's, but not rated (T9)
    with app.state.club.db.read() as s:
        events = list(s.scalars(select(RatingEvent).join(Partie, Partie.id == RatingEvent.partie_id)
                                .where(Partie.tournament_id == tid)))
    assert len(events) == 14 and not any(e.rated for e in events)


def test_organizer_controls_and_bad_input(client, app, clock):
    admin = admin_client(app)
    ana = register(app, "ana")
    body = {"name": "Turnir", "game": "preferans", "format": "duplikat", "rounds": 2,
            "start_at": (clock.now() + timedelta(hours=1)).isoformat()}
    r = ana.post("/api/tournaments", json=body)
    assert r.status_code == 403 and error_code(r) == "not_an_organizer"
    assert error_code(ana.post("/api/members/ana/organizer", json={"organizer": True})) == "not_an_admin"
    assert admin.post("/api/members/ana/organizer", json={"organizer": True}).json()["role"] == "organizer"
    bad = [
        ({"format": "knockout"}, 422), ({"rounds": 0}, 422), ({"timer": 5}, 422), ({"game": "poker"}, 422),
        ({"start_at": (clock.now() - timedelta(hours=1)).isoformat()}, 422), ({"name": "x"}, 422),
        ({"hands": 4}, 422), ({"place_points": [3, 2]}, 422), ({"settings": {"bule": -5}}, 422),
        ({"start_at": "2026-12-24T19:00:00"}, 422),
    ]
    for change, status in bad:
        r = ana.post("/api/tournaments", json={**body, **change})
        assert r.status_code == status, (change, r.text)
        assert "error" in r.json() or "detail" in r.json()
    with app.state.club.db.read() as s:
        assert s.scalar(select(func.count()).select_from(Partie)) == 0
    tid = ana.post("/api/tournaments", json=body).json()["id"]
    bora = register(app, "bora")
    assert error_code(bora.post(f"/api/tournaments/{tid}/start")) == "not_the_organizer"
    assert error_code(bora.post(f"/api/tournaments/{tid}/leave")) == "not_registered"
    assert error_code(bora.get("/api/tournaments/999/standings")) == "no_such_tournament"
    # too few players when it starts: cancelled, nothing seated
    bora.post(f"/api/tournaments/{tid}/register")
    assert ana.post(f"/api/tournaments/{tid}/start").json()["status"] == "cancelled"
    listed = bora.get("/api/tournaments").json()
    assert not listed["upcoming"] and [x["status"] for x in listed["finished"]] == ["cancelled"]
    with app.state.club.db.read() as s:
        assert s.scalar(select(func.count()).select_from(Partie)) == 0


def test_late_join_withdrawal_removal_deadline_and_restart(client, app, clock, settings):
    admin = admin_client(app)
    t = create(admin, clock, game="preferans", format="svajcarski", rounds=3, hands=3, round_minutes=30)
    tid = t["id"]
    players = {f"pp{i}": register(app, f"pp{i}") for i in range(4)}
    for c in list(players.values())[:3]:
        c.post(f"/api/tournaments/{tid}/register")
    assert admin.post(f"/api/tournaments/{tid}/start").json()["current_round"] == 1  # early, by the organizer
    # round 1 of 3 started: a late join is still open (1 < 3/2) and plays from round 2
    assert players["pp3"].post(f"/api/tournaments/{tid}/register").json()["from_round"] == 2
    # the deadline: every seat goes to the computer, the hand in play ends the partie (P13)
    clock.advance(minutes=31)
    ended = wait_for(lambda: (d := admin.get(f"/api/tournaments/{tid}").json())["rounds_played"][0]["ended_at"]
                     and d, timeout=60)
    assert ended["rounds_played"][0]["overdue"] is True
    with app.state.club.db.read() as s:
        p = s.scalar(select(Partie).where(Partie.tournament_id == tid))
        assert p.status == "finished" and all(row.taken_over for row in p.seats)
    # removal: the organizer removes p0; he is in no later round
    assert admin.post(f"/api/tournaments/{tid}/remove", json={"name": "pp0"}).json() == {"removed": "pp0"}
    assert error_code(players["pp0"].post(f"/api/tournaments/{tid}/register")) == "removed"
    # withdrawal between rounds
    assert players["pp1"].post(f"/api/tournaments/{tid}/leave").json() == {"registered": False}
    clock.advance(minutes=2)
    data = wait_for(lambda: (d := admin.get(f"/api/tournaments/{tid}").json())["current_round"] == 2 and d)
    seated = {s["name"] for tb in data["rounds_played"][-1]["tables"] for s in tb["seats"] if s["member"]}
    assert seated == {"pp2", "pp3"}
    # half of the rounds have started: registration is closed
    late = register(app, "kasni")
    assert error_code(late.post(f"/api/tournaments/{tid}/register")) == "registration_closed"
    # a second Club on the same database (another instance, or a restart) starts no round twice
    from app.club import Club

    other = Club.from_settings(settings, clock)
    try:
        for _ in range(3):
            rounds.advance(other, tid)
            rounds.advance(app.state.club, tid)
    finally:
        other.db.dispose()
    with app.state.club.db.read() as s:
        assert s.scalar(select(func.count()).select_from(TournamentRound).where(TournamentRound.tournament_id == tid)) == 2


def test_two_instances_start_a_round_once(app, clock, settings):
    """Two Clubs on one database (two server instances) race to start the same round:
    the round's unique key (and, on PostgreSQL, the tournament's row lock) lets one win.
    (The app serves the requests without its lifespan: no watcher of its own joins the race.)"""
    import threading

    from app.club import Club

    admin = admin_client(app)
    t = create(admin, clock, game="preferans", format="svajcarski", rounds=2, hands=3)
    for i in range(6):
        register(app, f"dvojnik{i}").post(f"/api/tournaments/{t['id']}/register")
    others = [Club.from_settings(settings, clock) for _ in range(2)]
    try:
        with others[0].db.write() as s:
            row = s.get(Tournament, t["id"])
            row.next_round_at = clock.now()  # due now
        barrier = threading.Barrier(2)
        outcomes: list[bool] = []

        def race(club) -> None:
            barrier.wait()
            outcomes.append(rounds.advance(club, t["id"]))

        threads = [threading.Thread(target=race, args=(c,)) for c in others]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
    finally:
        for c in others:
            c.db.dispose()
    assert sorted(outcomes) == [False, True]
    with app.state.club.db.read() as s:
        assert s.scalar(select(func.count()).select_from(TournamentRound)
                        .where(TournamentRound.tournament_id == t["id"])) == 1
        assert s.scalar(select(func.count()).select_from(Partie).where(Partie.tournament_id == t["id"])) == 2
