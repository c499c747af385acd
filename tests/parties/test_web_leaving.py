"""Leaving a partie and ending it (issue 23, item 5): a member leaves a running partie
for good (a computer player takes his seat at once), ends at once a partie no other member
plays in (abandoned, not rated, gone from his tables and his unread count), and, as the
proposer, gives a declined seat to a computer player or opens it. Every refused request is
a 4xx with a message and changes nothing."""

from __future__ import annotations

from sqlalchemy import func, select

from app.db.models import RatingEvent
from app.members.cookies import form_token
from app.parties.unread import unread
from tests.support.club import member_ids
from tests.support.security import client_for, members_partie, snapshot
from tests.support.web import wait_for


def error(r) -> tuple[int, str]:
    body = r.json()["error"]
    assert body["message"], body
    return r.status_code, body["code"]


def csrf(c) -> str:
    return form_token(c.cookies.get("klub_session"))


def db_of(app):
    return app.state.club.db


def seat_row(c, pid: int, seat: int) -> dict:
    return c.get(f"/api/parties/{pid}").json()["seats"][seat]


def test_a_member_leaves_for_good_and_a_computer_plays_his_seat(app, client):  # client: the computer players run
    pid, (ana, boki, ceca, dule) = members_partie(app)
    assert [p["id"] for p in boki.get("/api/lobby").json()["playing"]] == [pid]
    # seat 1 (boki) leads the first trick of Lora: a computer player plays it once he leaves
    r = boki.post(f"/api/parties/{pid}/hand-over")
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][1]
    assert seat["name"] == "boki" and seat["computer"] and seat["taken_over"]
    wait_for(lambda: ana.get(f"/api/parties/{pid}/view").json()["version"] > 0)
    assert boki.get("/api/lobby").json()["playing"] == []
    assert pid in [p["id"] for p in boki.get("/api/lobby").json()["running"]]  # he may watch it
    assert unread(app.state.club, member_ids(db_of(app), "boki")[0])["turns"] == []
    assert ana.get(f"/api/parties/{pid}").json()["status"] == "running"
    # leaving twice is refused
    assert error(boki.post(f"/api/parties/{pid}/hand-over")) == (409, "already_left")


def test_ending_a_partie_with_other_members_is_refused_and_changes_nothing(app):
    db = app.state.club.db
    pid, (ana, boki, ceca, dule) = members_partie(app)
    eva = client_for(app, "eva")
    before = snapshot(db)
    assert error(ana.post(f"/api/parties/{pid}/end")) == (409, "other_members")
    assert error(eva.post(f"/api/parties/{pid}/end")) == (403, "not_at_table")
    assert error(eva.post(f"/api/parties/{pid}/hand-over")) == (403, "not_at_table")
    assert error(ana.post("/api/parties/999/end")) == (404, "no_such_partie")
    assert error(ana.post("/api/parties/999/hand-over")) == (404, "no_such_partie")
    # the page's forms: the error page, nothing changed
    r = ana.post(f"/table/{pid}/end", data={"csrf": csrf(ana)})
    assert r.status_code == 409 and 'class="error"' in r.text
    assert ana.post(f"/table/{pid}/end", data={}).status_code == 403  # no form token
    assert ana.post(f"/table/{pid}/resign", data={"csrf": csrf(ana)}).status_code == 404
    assert snapshot(db) == before
    # once the three others have left, ana alone may end it
    for c in (boki, ceca, dule):
        assert c.post(f"/api/parties/{pid}/hand-over").status_code == 200
    r = ana.post(f"/table/{pid}/end", data={"csrf": csrf(ana)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/lobby"
    assert ana.get(f"/api/parties/{pid}").json()["status"] == "abandoned"


def test_a_partie_with_computer_players_only_ends_at_once_without_a_rating(app):
    db = app.state.club.db
    ana = client_for(app, "ana")
    r = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3, "timer": 60})
    pid = r.json()["id"]
    assert r.json()["status"] == "running"
    r = ana.post(f"/api/parties/{pid}/end")
    assert r.status_code == 200 and r.json()["status"] == "abandoned"
    summary = ana.get(f"/api/parties/{pid}").json()
    assert summary["status"] == "abandoned" and summary["finished_at"]
    assert unread(app.state.club, member_ids(db, "ana")[0]) == {"count": 0, "invitations": [], "turns": []}
    lobby = ana.get("/api/lobby").json()
    assert pid not in [p["id"] for p in lobby["playing"] + lobby["running"]]
    with db.read() as s:
        assert s.scalar(select(func.count(RatingEvent.id))) == 0
    version = ana.get(f"/api/parties/{pid}").json()["version"]
    # nothing more is played: no word, no computer player; a second end is refused
    assert error(ana.post(f"/api/parties/{pid}/end")) == (409, "not_running")
    assert error(ana.post(f"/api/parties/{pid}/hand-over")) == (409, "not_running")
    assert ana.get(f"/api/parties/{pid}").json()["version"] == version
    # the archive keeps it among the unfinished parties, with its replay
    unfinished = ana.get("/api/archive", params={"status": "unfinished"}).json()["parties"]
    assert [p["id"] for p in unfinished] == [pid]
    assert ana.get("/api/archive", params={"status": "finished"}).json()["parties"] == []
    assert ana.get(f"/archive/{pid}").status_code == 200
    assert ana.get(f"/ui/api/parties/{pid}/replay").status_code == 200


def test_the_proposer_gives_a_declined_seat_to_a_computer_player_or_opens_it(app):
    db = app.state.club.db
    ana, boki, ceca = (client_for(app, n) for n in ("ana", "boki", "ceca"))
    seats = [{"kind": "member", "name": "boki"}, {"kind": "member", "name": "ceca"}, {"kind": "bot"}]
    pid = ana.post("/api/parties", json={"game": "lora", "seats": seats}).json()["id"]
    assert boki.post(f"/api/parties/{pid}/decline").status_code == 200
    live = ana.get("/lobby/live").text
    assert f'action="/lobby/{pid}/seats/1/bot"' in live and f'action="/lobby/{pid}/seats/1/open"' in live
    assert f'action="/lobby/{pid}/seats/2/bot"' not in live  # ceca has not answered
    before = snapshot(db)
    assert boki.post(f"/lobby/{pid}/seats/1/bot", data={"csrf": csrf(boki)}).status_code == 403  # not the proposer
    assert ana.post(f"/lobby/{pid}/seats/1/bot", data={}).status_code == 403  # no form token
    assert ana.post(f"/lobby/{pid}/seats/1/member", data={"csrf": csrf(ana)}).status_code == 404
    assert ana.post(f"/lobby/{pid}/seats/9/bot", data={"csrf": csrf(ana)}).status_code == 422
    assert snapshot(db) == before
    r = ana.post(f"/lobby/{pid}/seats/1/bot", data={"csrf": csrf(ana)}, follow_redirects=False)
    assert r.status_code == 303
    assert seat_row(ana, pid, 1)["kind"] == "bot" and seat_row(ana, pid, 1)["answer"] == "accepted"
    assert ceca.post(f"/api/parties/{pid}/decline").status_code == 200
    assert ana.post(f"/lobby/{pid}/seats/2/open", data={"csrf": csrf(ana)}, follow_redirects=False).status_code == 303
    assert seat_row(ana, pid, 2)["kind"] == "open"
    assert pid in [p["id"] for p in boki.get("/api/lobby").json()["open"]]
    assert ana.get(f"/api/parties/{pid}").json()["status"] == "proposed"
