"""REST API: members, proposals, playing, archive; every bad input a clear 4xx that changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import Action, Partie
from app.db.types import utcnow
from app.members.service import ensure_admin
from tests.support.api import (
    ORIGIN,
    PASSWORD,
    error_code,
    my_turn_state,
    play_to_end,
    register,
)


def action_count(app, partie_id: int) -> int:
    with app.state.club.db.read() as s:
        return s.scalar(select(func.count()).select_from(Action).where(Action.partie_id == partie_id))


def test_health_and_docs(client):
    assert client.get("/healthz").json()["database"] == "ok"
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/parties/{partie_id}/actions" in paths
    # the pages (and the routers they include) stay out of the API's schema
    assert not {"/", "/lobby", "/account", "/ui/api/parties/{partie_id}/replay"} & set(paths)


def test_routes_are_matched_in_one_flat_list(app, client):
    from fastapi.routing import APIRoute, _IncludedRouter

    # an included router would match each request against all its routes, twice (app/web/main.py)
    assert not any(isinstance(r, _IncludedRouter) for r in app.routes)
    tables = [r for r in app.routes if isinstance(r, APIRoute) and r.path.startswith("/api/parties/{partie_id}")]
    assert tables and all("tables" in r.tags for r in tables if r.path == "/api/parties/{partie_id}/actions")
    assert client.get("/no/such/page").status_code == 404


def test_register_login_logout_and_password(client, app):
    r = client.post("/api/auth/register", json={"name": "ana", "password": PASSWORD})
    assert r.status_code == 201
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert client.get("/api/me").json()["name"] == "ana"

    assert error_code(client.post("/api/auth/register", json={"name": "ANA", "password": PASSWORD})) == "name_taken"
    assert error_code(client.post("/api/auth/register", json={"name": "bo", "password": PASSWORD})) == "invalid_name"
    assert error_code(client.post("/api/auth/register", json={"name": "boki", "password": "short"})) == "invalid_password"
    assert client.post("/api/auth/register", json={"name": "boki"}).status_code == 422

    wrong = client.post("/api/auth/login", json={"name": "ana", "password": "pogresna1"})
    unknown = client.post("/api/auth/login", json={"name": "nema", "password": "pogresna1"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()

    # A new session id at login; the old cookie stops working.
    old = client.cookies.get("klub_session")
    assert client.post("/api/auth/login", json={"name": "ana", "password": PASSWORD}).status_code == 200
    new = client.cookies.get("klub_session")
    assert new != old
    stale = TestClient(app, cookies={"klub_session": old})
    assert stale.get("/api/me").status_code == 401

    r = client.post("/api/auth/password", json={"old_password": "pogresna1", "new_password": "nova-lozinka"})
    assert r.status_code == 403
    r = client.post("/api/auth/password", json={"old_password": PASSWORD, "new_password": "nova-lozinka"})
    assert r.status_code == 200
    assert client.post("/api/auth/logout").status_code == 200
    assert client.get("/api/me").status_code == 401
    after_logout = TestClient(app, cookies={"klub_session": new})
    assert error_code(after_logout.get("/api/me")) == "session_ended"
    assert client.post("/api/auth/login", json={"name": "ana", "password": "nova-lozinka"}).status_code == 200


def test_admin_disables_member_and_member_list(client, app):
    ensure_admin(app.state.club.db, "admin", "admin-lozinka")
    assert client.post("/api/auth/login", json={"name": "admin", "password": "admin-lozinka"}).status_code == 200
    ceca = register(app, "ceca")
    assert error_code(ceca.post("/api/members/admin/disable")) == "admin_only"
    members = {m["name"]: m for m in client.get("/api/members").json()["members"]}
    assert members["ceca"]["online"] and members["admin"]["role"] == "admin"

    assert client.post("/api/members/ceca/disable").status_code == 200
    assert ceca.get("/api/me").status_code == 401
    r = ceca.post("/api/auth/login", json={"name": "ceca", "password": PASSWORD})
    assert error_code(r) == "account_disabled"
    assert client.post("/api/members/ceca/enable").status_code == 200
    assert ceca.post("/api/auth/login", json={"name": "ceca", "password": PASSWORD}).status_code == 200


def test_foreign_origin_cannot_write(client):
    r = client.post(
        "/api/auth/register", json={"name": "ana", "password": PASSWORD}, headers={"Origin": "https://evil.example"}
    )
    assert r.status_code == 403 and error_code(r) == "bad_origin"
    assert client.post("/api/auth/login", json={"name": "ana", "password": PASSWORD}).status_code == 401
    r = client.post(
        "/api/auth/register", json={"name": "ana", "password": PASSWORD}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert r.status_code == 403


def test_expired_sessions_end(client, app):
    from app.db.models import LoginSession
    from app.members.service import delete_expired_sessions

    client.post("/api/auth/register", json={"name": "ana", "password": PASSWORD})
    db = app.state.club.db
    with db.write() as s:
        for row in s.scalars(select(LoginSession)):
            row.expires_at = utcnow() - timedelta(seconds=1)
    assert error_code(client.get("/api/me")) == "session_ended"
    client.post("/api/auth/login", json={"name": "ana", "password": PASSWORD})
    with db.write() as s:
        for row in s.scalars(select(LoginSession)):
            row.last_seen_at = utcnow() - timedelta(days=30)
    assert delete_expired_sessions(db, app.state.club.settings) == 1
    assert client.get("/api/me").status_code == 401


def test_proposal_invite_accept_decline_join_withdraw(client, app):
    ana, boki, ceca, dule = (register(app, n) for n in ("ana", "boki", "ceca", "dule"))
    r = ana.post(
        "/api/parties",
        json={
            "game": "preferans",
            "settings": {"bule": 30, "refe": 1},
            "timer": 30,
            "seats": [{"kind": "member", "name": "boki"}, {"kind": "member", "name": "ceca"}],
        },
    )
    assert r.status_code == 201, r.text
    partie = r.json()
    pid = partie["id"]
    assert partie["status"] == "proposed" and partie["seats"][0]["name"] == "ana"

    # Boki sees the settings before he accepts.
    invitation = boki.get("/api/lobby").json()["invitations"][0]
    assert invitation["settings"]["bule"] == 30 and invitation["settings"]["refe"] == 1 and invitation["timer"] == 30
    assert error_code(dule.post(f"/api/parties/{pid}/accept")) == "not_invited"
    assert boki.post(f"/api/parties/{pid}/accept").json()["status"] == "proposed"
    assert ceca.post(f"/api/parties/{pid}/decline").json()["seats"][2]["answer"] == "declined"
    assert error_code(boki.put(f"/api/parties/{pid}/seats/2", json={"kind": "open"})) == "not_proposer"
    assert ana.put(f"/api/parties/{pid}/seats/2", json={"kind": "open"}).status_code == 200
    assert dule.get("/api/lobby").json()["open"][0]["id"] == pid
    joined = dule.post(f"/api/parties/{pid}/join").json()
    assert joined["status"] == "running" and joined["my_seat"] == 2
    assert error_code(ceca.post(f"/api/parties/{pid}/join")) == "not_proposed"
    playing = boki.get("/api/lobby").json()["playing"][0]
    assert playing["id"] == pid and playing["your_turn"] is True  # seat 1 bids first

    r = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "open"}] * 3})
    lora_id = r.json()["id"]
    assert error_code(boki.post(f"/api/parties/{lora_id}/withdraw")) == "not_proposer"
    assert ana.post(f"/api/parties/{lora_id}/withdraw").json()["status"] == "withdrawn"
    assert error_code(boki.post(f"/api/parties/{lora_id}/join")) == "not_proposed"


@pytest.mark.parametrize(
    "body, code",
    [
        ({"game": "lora", "seats": [{"kind": "bot"}] * 2}, "invalid_seats"),
        ({"game": "lora", "seats": [{"kind": "member", "name": "nobody"}] + [{"kind": "bot"}] * 2}, "no_such_member"),
        ({"game": "lora", "seats": [{"kind": "member", "name": "ana"}] + [{"kind": "bot"}] * 2}, "invalid_seats"),
        ({"game": "preferans", "settings": {"bule": 33}, "seats": [{"kind": "bot"}] * 2}, "invalid_settings"),
        ({"game": "preferans", "settings": {"refe": 9}, "seats": [{"kind": "bot"}] * 2}, "invalid_settings"),
        ({"game": "lora", "timer": 5, "seats": [{"kind": "bot"}] * 3}, "invalid_timer"),
        ({"game": "tablic", "seats": []}, "unknown_game"),
        ({"game": "lora", "seats": [{"kind": "bot", "bot": "genije"}] * 3}, "invalid_bot"),
        ({"game": "lora", "seats": [{"kind": "alien"}] * 3}, "invalid_request"),
    ],
)
def test_bad_proposals_are_refused(client, app, body, code):
    ana = register(app, "ana")
    r = ana.post("/api/parties", json=body)
    assert r.status_code == 422 and error_code(r) == code, r.text
    assert ana.get("/api/lobby").json()["mine"] == []


def test_play_against_bots_stale_illegal_resend(client, app):
    ana = register(app, "ana")
    r = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3})
    pid = r.json()["id"]
    assert r.json()["status"] == "running"  # against computer players only: at once
    state = my_turn_state(ana, pid)
    version, legal = state["version"], state["legal"]
    assert state["seat"] == 0 and "hand" in state["view"]["deal"]

    r = ana.post(f"/api/parties/{pid}/actions", json={"word": "XX", "version": version, "action_id": "a1"})
    assert r.status_code == 422 and error_code(r) == "illegal_action" and "not legal" in r.json()["error"]["message"]
    illegal = next(c for c in ("7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "7H", "AH") if c not in legal)
    r = ana.post(f"/api/parties/{pid}/actions", json={"word": illegal, "version": version, "action_id": "a1"})
    assert r.status_code == 422
    message = r.json()["error"]["message"]
    assert "not in seat 0's hand" in message or "does not follow" in message  # the engine's reason
    r = ana.post(f"/api/parties/{pid}/actions", json={"word": legal[0], "version": version - 1, "action_id": "a1"})
    assert r.status_code == 409 and error_code(r) == "stale_version"
    assert r.json()["error"]["current"]["version"] == version
    assert action_count(app, pid) == version

    r = ana.post(f"/api/parties/{pid}/actions", json={"word": legal[0], "version": version, "action_id": "a1"})
    assert r.status_code == 200 and r.json()["applied"] == {"version": version + 1, "word": legal[0], "duplicate": False}
    again = ana.post(f"/api/parties/{pid}/actions", json={"word": legal[0], "version": version, "action_id": "a1"})
    assert again.status_code == 200 and again.json()["applied"]["version"] == version + 1
    assert again.json()["applied"]["duplicate"] is True
    other = ana.post(f"/api/parties/{pid}/actions", json={"word": "dalje", "version": version, "action_id": "a1"})
    assert error_code(other) == "action_id_reused"

    # Computer seats answer by themselves; it is my turn again later.
    state = my_turn_state(ana, pid)
    assert state["version"] >= version + 1
    with app.state.club.db.read() as s:
        sources = {a.source for a in s.scalars(select(Action).where(Action.partie_id == pid))}
    assert sources == {"member", "bot"}

    bystander = register(app, "boki")
    r = bystander.post(f"/api/parties/{pid}/actions", json={"word": state["legal"][0], "version": state["version"]})
    assert r.status_code == 403 and error_code(r) == "not_a_player"
    spectator = bystander.get(f"/api/parties/{pid}/view").json()
    assert spectator["seat"] is None and spectator["legal"] == [] and "hand" not in spectator["view"]["deal"]


def test_not_your_turn(client, app):
    ana, boki = register(app, "ana"), register(app, "boki")
    pid = ana.post(
        "/api/parties", json={"game": "lora", "seats": [{"kind": "member", "name": "boki"}] + [{"kind": "bot"}] * 2}
    ).json()["id"]
    boki.post(f"/api/parties/{pid}/accept")
    state = my_turn_state(boki, pid)  # seat 1 leads the first deal
    ana_state = ana.get(f"/api/parties/{pid}/view").json()
    assert ana_state["legal"] == []
    r = ana.post(f"/api/parties/{pid}/actions", json={"word": state["legal"][0], "version": state["version"]})
    assert r.status_code == 422 and error_code(r) == "not_your_turn"


def test_archive_score_sheet_record_and_import(client, app):
    ana = register(app, "ana")
    body = {"game": "preferans", "settings": {"bule": 30, "refe": 0}, "seats": [{"kind": "bot"}] * 2}
    pid = ana.post("/api/parties", json=body).json()["id"]
    state = my_turn_state(ana, pid)

    # Unfinished: no seed; the running deal shows only my own hand, no talon.
    rec = ana.get(f"/api/parties/{pid}/record").json()
    assert rec["unfinished"] is True and "seed" not in rec
    running = rec["deals"][rec["redacted_deal"]]
    assert sorted(running["hands"][0]) == sorted(state["view"]["hand"]["cards"])
    assert running["hands"][1:] == [None, None] and running["talon"] is None
    assert ana.get("/api/archive?status=unfinished").json()["parties"][0]["id"] == pid
    kibic = register(app, "kibic")
    assert kibic.get(f"/api/parties/{pid}/record").json()["deals"][-1]["hands"] == [None, None, None]

    play_to_end(ana, pid, client)
    sheet = ana.get(f"/api/parties/{pid}/score-sheet").json()
    assert sheet["status"] == "finished" and sheet["result"]["finished"] is True and "lines" in sheet["papir"]
    rec = ana.get(f"/api/parties/{pid}/record").json()
    assert rec["format"] == "klub-record/1" and "unfinished" not in rec
    assert rec["players"] == ["ana", "AI 2", "AI 3"]
    finished = ana.get("/api/archive?status=finished&of=ana").json()["parties"]
    assert [p["id"] for p in finished] == [pid] and finished[0]["result"]["bule"] == sheet["result"]["bule"]
    assert ana.get("/api/archive?of=kibic").json()["parties"] == []

    imported = ana.post("/api/records", json=rec)
    assert imported.status_code == 201 and imported.json()["record"]["result"]["bule"] == sheet["result"]["bule"]
    rid = imported.json()["id"]
    assert ana.get(f"/api/records/{rid}").json()["players"] == rec["players"]
    assert ana.get("/api/records").json()["records"][0]["id"] == rid

    broken = dict(rec, deals=[dict(rec["deals"][0], actions=[[1, "7S"], [1, "7S"]])])
    r = ana.post("/api/records", json=broken)
    assert r.status_code == 422 and error_code(r) == "invalid_record"
    assert error_code(ana.post("/api/records", json=[1, 2])) == "invalid_request"


def test_restart_rebuilds_the_table_from_the_log(settings, app):
    from app.web.main import create_app

    with TestClient(app, headers=ORIGIN) as ana:
        ana.post("/api/auth/register", json={"name": "ana", "password": PASSWORD})
        pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
        state = my_turn_state(ana, pid)
        ana.post(f"/api/parties/{pid}/actions", json={"word": state["legal"][0], "version": state["version"]})
        before = my_turn_state(ana, pid)
        cookies = dict(ana.cookies)
    with TestClient(create_app(settings), cookies=cookies) as again:
        after = again.get(f"/api/parties/{pid}/view").json()
    assert after["version"] == before["version"] and after["view"] == before["view"]


def test_chat_leave_back_and_takeover(client, app):
    ana, boki = register(app, "ana"), register(app, "boki")
    pid = ana.post(
        "/api/parties", json={"game": "lora", "seats": [{"kind": "member", "name": "boki"}] + [{"kind": "bot"}] * 2}
    ).json()["id"]
    boki.post(f"/api/parties/{pid}/accept")

    assert ana.post(f"/api/parties/{pid}/chat", json={"text": "  Srećno!  "}).status_code == 201
    assert error_code(ana.post(f"/api/parties/{pid}/chat", json={"text": "x" * 501})) == "invalid_chat"
    assert error_code(ana.post(f"/api/parties/{pid}/chat", json={"text": "   "})) == "invalid_chat"
    assert error_code(register(app, "ceca").post(f"/api/parties/{pid}/chat", json={"text": "hi"})) == "not_a_player"
    assert [m["text"] for m in boki.get(f"/api/parties/{pid}/chat").json()["messages"]] == ["Srećno!"]

    assert error_code(ana.post(f"/api/parties/{pid}/takeover", json={"seat": 1})) == "not_away"
    seats = boki.post(f"/api/parties/{pid}/leave").json()["seats"]
    assert seats[1]["away"] is True
    assert boki.post(f"/api/parties/{pid}/back").json()["seats"][1]["away"] is False
    boki.post(f"/api/parties/{pid}/leave")
    assert error_code(ana.post(f"/api/parties/{pid}/takeover", json={"seat": 2})) == "already_computer"
    seats = ana.post(f"/api/parties/{pid}/takeover", json={"seat": 1}).json()["seats"]
    assert seats[1]["taken_over"] and seats[1]["computer"]  # ana is the only other person
    state = ana.get(f"/api/parties/{pid}/view").json()
    # Boki's seat plays by itself now; he cannot act for it any more.
    r = boki.post(f"/api/parties/{pid}/actions", json={"word": "7S", "version": state["version"]})
    assert error_code(r) in ("seat_taken_over", "stale_version", "not_your_turn")
    my_turn_state(ana, pid)


def test_timer_runs_out_and_the_computer_decides(client, app, clock):
    ana = register(app, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "timer": 15, "seats": [{"kind": "bot"}] * 3}).json()["id"]
    state = my_turn_state(ana, pid)
    db = app.state.club.db
    with db.read() as s:
        assert s.get(Partie, pid).deadline_at == clock.now() + timedelta(seconds=15)
    from tests.support.web import wait_for

    def timer_acted():
        with db.read() as s:
            return s.scalar(select(Action).where(Action.partie_id == pid, Action.source == "timer"))

    clock.advance(14)
    assert ana.get(f"/api/parties/{pid}/view").json()["version"] == state["version"]  # 1 s left: nothing yet
    clock.advance(2)
    action = wait_for(timer_acted, timeout=10)
    assert action.seat == 0 and action.seq == state["version"] + 1


def test_exhibition_of_computer_players_is_watched(client, app):
    ana = register(app, "ana")
    r = ana.post("/api/parties", json={"game": "preferans", "exhibition": True})
    assert r.status_code == 201 and r.json()["status"] == "running" and r.json()["my_seat"] is None
    pid = r.json()["id"]
    from tests.support.web import wait_for

    state = wait_for(lambda: (v := ana.get(f"/api/parties/{pid}/view").json())["version"] > 3 and v)
    assert state["seat"] is None and state["legal"] == []
    assert "cards" not in state["view"]["hand"]  # a spectator sees no hand
    r = ana.post(f"/api/parties/{pid}/actions", json={"word": "dalje", "version": state["version"]})
    assert r.status_code == 403
    r = ana.post("/api/parties", json={"game": "lora", "exhibition": True, "seats": [{"kind": "open"}] * 4})
    assert r.status_code == 422 and error_code(r) == "invalid_seats"


def test_a_failing_computer_player_does_not_stall_the_table(client, app, monkeypatch):
    import app.bots.runner as runner

    class Broken:
        def choose(self, view, legal):
            raise RuntimeError("thinking too hard")

    monkeypatch.setattr(runner, "make_bot", lambda name, game, seed=None: Broken())
    ana = register(app, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
    state = my_turn_state(ana, pid)
    ana.post(f"/api/parties/{pid}/actions", json={"word": state["legal"][0], "version": state["version"]})
    assert my_turn_state(ana, pid)["version"] > state["version"]


def test_a_restarted_server_honours_a_deadline(settings, app):
    from app.web.main import create_app
    from tests.support.web import wait_for

    with TestClient(app, headers=ORIGIN) as ana:
        ana.post("/api/auth/register", json={"name": "ana", "password": PASSWORD})
        pid = ana.post("/api/parties", json={"game": "lora", "timer": 15, "seats": [{"kind": "bot"}] * 3}).json()["id"]
        state = my_turn_state(ana, pid)
    db = app.state.club.db
    with db.write() as s:
        s.get(Partie, pid).deadline_at = utcnow() - timedelta(seconds=1)  # time ran out while the server was down
    fresh = create_app(settings)
    with TestClient(fresh):

        def timer_acted():
            with fresh.state.club.db.read() as s:
                return s.scalar(select(Action).where(Action.partie_id == pid, Action.source == "timer"))

        assert wait_for(timer_acted, timeout=10).seq == state["version"] + 1


def test_words_out_of_turn_reach_every_seat_and_are_accepted(client, app):
    """Preferans lets a player speak out of turn (here an otpis between hands): the
    server offers the word to him and applies it, although the game waits for another seat."""
    ana, boki, ceca = (register(app, n) for n in ("ana", "boki", "ceca"))
    seats = [{"kind": "member", "name": "boki"}, {"kind": "member", "name": "ceca"}]
    pid = ana.post("/api/parties", json={"game": "preferans", "settings": {"bule": 30, "refe": 1}, "seats": seats}).json()["id"]
    boki.post(f"/api/parties/{pid}/accept")
    ceca.post(f"/api/parties/{pid}/accept")
    players = {0: ana, 1: boki, 2: ceca}
    for seat in (1, 2, 0):  # all pass: a refe each, and the next hand is dealt (seat 2 bids first)
        state = players[seat].get(f"/api/parties/{pid}/view").json()
        r = players[seat].post(f"/api/parties/{pid}/actions", json={"word": "dalje", "version": state["version"]})
        assert r.status_code == 200, r.text
    state = ana.get(f"/api/parties/{pid}/view").json()
    assert state["to_act"] == [2] and "otpis" in state["legal"] and "2" not in state["legal"]
    # the turn is seat 2's alone; ana and boki may speak out of turn
    assert state["may_speak"] == [0, 1]
    r = ana.post(f"/api/parties/{pid}/actions", json={"word": "otpis", "version": state["version"]})
    assert r.status_code == 200, r.text
    for seat in (1, 2):
        answer = players[seat].get(f"/api/parties/{pid}/view").json()
        assert answer["legal"] == ["prihvatam", "odbijam"]
    r = boki.post(f"/api/parties/{pid}/actions", json={"word": "odbijam", "version": answer["version"]})
    assert r.status_code == 200, r.text
    assert ana.get(f"/api/parties/{pid}/view").json()["legal"] == []  # P12: again only after the next hand
