"""Leaving a tournament table, withdrawing, being away, and the round's deadline told to the
table (issue 36, items 5 to 7; rulings T3, T7, T10; docs/rulings.md, "Tournaments: how the
Club runs them").

A short preferans duplikat on the Club's clock (the test moves it): six members, two rounds
of three hands, so two tables of three a round. Everyone says his words over the API.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.db.models import Action, Partie
from tests.support.tournaments import admin_client, create, my_table, play_round, round_ended
from tests.support.api import error_code, register
from tests.support.web import wait_for


def evening(app, clock, prefix: str, **body):
    admin = admin_client(app)
    t = create(admin, clock, game="preferans", format="duplikat", rounds=2, hands=3, **body)
    players = {f"{prefix}{i}": register(app, f"{prefix}{i}") for i in range(6)}
    for c in players.values():
        assert c.post(f"/api/tournaments/{t['id']}/register").status_code == 200
    assert admin.post(f"/api/tournaments/{t['id']}/start").json()["current_round"] == 1
    return admin, t["id"], players


def player_row(data: dict, name: str) -> dict:
    return next(p for p in data["players"] if p["name"] == name)


def seated(data: dict, round_no: int) -> set[str]:
    r = next(r for r in data["rounds_played"] if r["round"] == round_no)
    return {s["name"] for tb in r["tables"] for s in tb["seats"] if s["member"]}


def seat_row(app, partie_id: int, name: str):
    with app.state.club.db.read() as s:
        p = s.get(Partie, partie_id)
        return next(row for row in p.seats if row.member is not None and row.member.name == name)


def next_round(admin, clock, tid: int, round_no: int) -> dict:
    clock.advance(minutes=2)  # the pause between rounds
    return wait_for(lambda: (d := admin.get(f"/api/tournaments/{tid}").json())["current_round"] == round_no and d)


@pytest.mark.one_database
def test_leaving_the_table_withdraws_him_and_the_standings_say_so(client, app, clock):
    admin, tid, players = evening(app, clock, "izl")
    leaver = players["izl0"]
    pid = my_table(leaver, tid)
    r = leaver.post(f"/api/parties/{pid}/hand-over")
    assert r.status_code == 200, r.text
    # T10: he is withdrawn at once, before round 2 (as a withdrawal between rounds, T7) ...
    data = admin.get(f"/api/tournaments/{tid}").json()
    assert player_row(data, "izl0") == {"name": "izl0", "joined_round": 1, "left_round": 2, "removed": False,
                                        "withdrawn": True}
    assert "izl0" not in data["registered_players"]
    assert leaver.get(f"/api/tournaments/{tid}").json()["me"]["registered"] is False
    # ... and a computer player plays his seat from now on: his tablemates do not wait for him
    row = seat_row(app, pid, "izl0")
    assert row.taken_over and not row.reclaimable
    play_round(app, {n: c for n, c in players.items() if n != "izl0"}, tid, seed=5)
    ended = round_ended(admin, tid, 1)
    assert not ended["overdue"]
    with app.state.club.db.read() as s:
        sources = set(s.scalars(select(Action.source).where(Action.partie_id == pid, Action.seat == row.seat)))
    assert "timer" not in sources
    # his board stays in the others' comparisons; he is listed as withdrawn, not ranked
    standings = admin.get(f"/api/tournaments/{tid}/standings").json()["standings"]
    assert len(standings) == 6
    mine = next(x for x in standings if x["name"] == "izl0")
    assert mine["withdrawn"] is True and mine["ranked"] is False and mine["rank"] is None and mine["played"] >= 1
    assert not any(x["withdrawn"] for x in standings if x["name"] != "izl0")
    assert standings[-1]["name"] == "izl0"
    page = players["izl1"].get(f"/tournaments/{tid}").text
    assert 'data-player="izl0" class="unranked withdrawn"' in page
    # he is not seated in round 2, and may not come back
    data = next_round(admin, clock, tid, 2)
    assert seated(data, 2) == {"izl1", "izl2", "izl3", "izl4", "izl5"}
    assert error_code(leaver.post(f"/api/tournaments/{tid}/register")) == "withdrawn"
    assert leaver.get(f"/api/tournaments/{tid}").json()["me"]["may_join"] is False
    # the final standings keep the mark
    play_round(app, {n: c for n, c in players.items() if n != "izl0"}, tid, seed=6)
    final = wait_for(lambda: (d := admin.get(f"/api/tournaments/{tid}").json())["status"] == "finished" and d)
    assert [x["name"] for x in final["standings"] if x["withdrawn"]] == ["izl0"]


@pytest.mark.one_database
def test_withdrawing_during_a_round_and_between_rounds(client, app, clock):
    admin, tid, players = evening(app, clock, "pov")
    # "Povuci" during round 1: his seat goes to the computer at once (T10), as leaving the table;
    # its confirmation says so (the page's <details>, no script needed), and so does the
    # table's "Napusti partiju"
    pid = my_table(players["pov0"], tid)
    players["pov0"].get("/lang/en")
    page = players["pov0"].get(f"/tournaments/{tid}").text
    form = page.split('id="tournament-leave-form"', 1)[1].split("</form>", 1)[0]
    assert "the computer player finishes your table of this round at once" in form and "Yes, withdraw" in form
    table = players["pov0"].get(f"/table/{pid}").text
    assert "Leaving withdraws you from the tournament" in table.split('id="leave-form"', 1)[1].split("</form>", 1)[0]
    assert players["pov0"].post(f"/api/tournaments/{tid}/leave").json() == {"registered": False}
    assert seat_row(app, pid, "pov0").taken_over
    play_round(app, {n: c for n, c in players.items() if n != "pov0"}, tid, seed=7)
    round_ended(admin, tid, 1)
    # "Povuci" between rounds (T7): not seated in round 2; both listed as withdrawn, not ranked
    page = players["pov1"].get(f"/tournaments/{tid}").text  # in Serbian, the Club's language
    form = page.split('id="tournament-leave-form"', 1)[1].split("</form>", 1)[0]
    assert "kola koja ste odigrali ostaju" in form and "Da, povlačim se" in form
    assert players["pov1"].post(f"/api/tournaments/{tid}/leave").json() == {"registered": False}
    standings = admin.get(f"/api/tournaments/{tid}/standings").json()["standings"]
    out = {x["name"]: x for x in standings if x["withdrawn"]}
    assert set(out) == {"pov0", "pov1"} and not any(x["ranked"] or x["rank"] for x in out.values())
    assert out["pov1"]["played"] >= 1  # his round stays: listed with his score
    assert {x["name"] for x in standings[-2:]} == {"pov0", "pov1"}
    data = next_round(admin, clock, tid, 2)
    assert seated(data, 2) == {"pov2", "pov3", "pov4", "pov5"}
    for name in ("pov0", "pov1"):
        assert error_code(players[name].post(f"/api/tournaments/{tid}/register")) == "withdrawn"
        assert error_code(players[name].post(f"/api/tournaments/{tid}/leave")) == "not_registered"


def test_a_late_joiner_who_withdraws_before_his_first_round_is_simply_unregistered(client, app, clock):
    admin = admin_client(app)
    t = create(admin, clock, game="preferans", format="duplikat", rounds=4, hands=3)
    tid = t["id"]
    players = {f"kas{i}": register(app, f"kas{i}") for i in range(4)}
    for c in list(players.values())[:3]:
        c.post(f"/api/tournaments/{tid}/register")
    admin.post(f"/api/tournaments/{tid}/start")
    assert players["kas3"].post(f"/api/tournaments/{tid}/register").json()["from_round"] == 2
    page = players["kas3"].get(f"/tournaments/{tid}").text
    assert "Prijava se poništava" in page.split('id="tournament-leave-form"', 1)[1].split("</form>", 1)[0]
    assert players["kas3"].post(f"/api/tournaments/{tid}/leave").json() == {"registered": False}
    assert [p["name"] for p in admin.get(f"/api/tournaments/{tid}").json()["players"]] == ["kas0", "kas1", "kas2"]
    # he never played: he may join again while late joins are open
    assert players["kas3"].post(f"/api/tournaments/{tid}/register").json()["from_round"] == 2


def test_an_away_player_may_be_voted_to_the_computer_and_stays_in_the_tournament(client, app, clock):
    admin, tid, players = evening(app, clock, "odst")
    pid = my_table(players["odst0"], tid)
    with app.state.club.db.read() as s:
        p = s.get(Partie, pid)
        names = {row.seat: row.member.name for row in p.seats}
    away = next(n for n in names.values())  # he never opened his table: he is away
    others = [n for n in names.values() if n != away]
    seat = next(k for k, n in names.items() if n == away)
    info = players[others[0]].get(f"/api/parties/{pid}").json()["seats"][seat]
    assert info["away"] is True and info["computer"] is False
    for name in others:  # his tablemates agree: the computer plays his seat (as at any live table)
        r = players[name].post(f"/api/parties/{pid}/takeover", json={"seat": seat, "agree": True})
        assert r.status_code == 200, r.text
    assert seat_row(app, pid, away).taken_over
    # a takeover is no withdrawal: he stays registered and plays round 2
    data = admin.get(f"/api/tournaments/{tid}").json()
    assert player_row(data, away)["withdrawn"] is False and away in data["registered_players"]
    play_round(app, {n: c for n, c in players.items() if n != away}, tid, seed=8)
    round_ended(admin, tid, 1)
    standings = admin.get(f"/api/tournaments/{tid}/standings").json()["standings"]
    assert not any(x["withdrawn"] for x in standings)
    assert away in seated(next_round(admin, clock, tid, 2), 2)


def test_a_player_who_opens_his_table_is_not_away(client, app, clock):
    admin, tid, players = evening(app, clock, "prs")
    pid = my_table(players["prs0"], tid)
    c = players["prs0"]
    assert seat_row(app, pid, "prs0").away  # he has not come to his table yet
    cookie = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
    with client.websocket_connect(f"/ws/parties/{pid}", headers={"Origin": str(client.base_url), "Cookie": cookie}) as ws:
        assert ws.receive_json()["type"] == "state"
        wait_for(lambda: not seat_row(app, pid, "prs0").away)
    # (away again once the socket closes: as at any table, tests/tables/test_web_play.py; the test
    # client ends its socket's server task by cancelling it, which is no browser's close)


def test_the_round_deadline_is_told_to_the_table(client, app, clock):
    admin, tid, players = evening(app, clock, "rok", round_minutes=30)
    pid = my_table(players["rok0"], tid)
    c = players["rok0"]
    assert c.get(f"/api/parties/{pid}/view").json()["round_time_up"] is False
    cookie = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
    with client.websocket_connect(f"/ws/parties/{pid}", headers={"Origin": str(client.base_url), "Cookie": cookie}) as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["round_time_up"] is False
        clock.advance(minutes=31)
        for _ in range(500):  # the seats frame (every seat to the computer) or, once it ended, the state
            frame = ws.receive_json()
            if frame["type"] in ("seats", "state") and frame.get("round_time_up"):
                break
        else:
            raise AssertionError("the table was not told")
    # a reload (the REST view, a spectator after the round) keeps saying it
    ended = round_ended(admin, tid, 1)
    assert ended["overdue"] is True
    assert c.get(f"/api/parties/{pid}/view").json()["round_time_up"] is True
    assert admin.get(f"/api/parties/{pid}/view").json()["round_time_up"] is True
