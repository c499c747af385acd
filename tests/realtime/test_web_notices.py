"""Live notices (``/ws/notices``): an invitation, an answer to my proposal, a partie that
started and my turn at a table reach my socket as frames with the unread count; on a live
uvicorn (SQLite, and PostgreSQL + Redis when set), and across two server processes."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.support.backends import PG_URL, REDIS_URL
from tests.support.notices import frame_of, notices
from tests.support.web import PASSWORD, ServerProcess, cookie_header, member, recv

LORA, PREFERANS = "lora", "preferans"


def _post(client, path: str, body: dict | None = None) -> dict:
    r = client.post(path, json=body) if body is not None else client.post(path)
    assert r.status_code in (200, 201), r.text
    return r.json()


def test_invitation_answers_and_the_start_reach_the_members(live_server):
    ana, boki, ceca = (member(live_server.url, n) for n in ("ana", "boki", "ceca"))

    async def main():
        async with await notices(live_server, ana) as a, await notices(live_server, boki) as b, \
                await notices(live_server, ceca) as c:
            for ws in (a, b, c):
                first = await recv(ws)
                assert first == {"type": "unread", "count": 0, "invitations": [], "turns": []}
            seats = [{"kind": "member", "name": "boki"}, {"kind": "member", "name": "ceca"}, {"kind": "bot"}]
            pid = (await asyncio.to_thread(_post, ana, "/api/parties", {"game": LORA, "seats": seats}))["id"]
            for ws in (b, c):
                f = await frame_of(ws, "invited")
                assert f["partie"] == pid and f["by"] == "ana" and f["game"] == LORA and f["game_name"] == "Lora"
                assert f["count"] == 1 and f["invitations"] == [pid] and "rematch_of" not in f
            await asyncio.to_thread(_post, boki, f"/api/parties/{pid}/accept")
            f = await frame_of(a, "accepted")
            assert f["by"] == "boki" and f["partie"] == pid and f["count"] == 0
            f = await frame_of(b, ftype="unread")  # boki's other pages: his invitation is answered
            assert f["count"] == 0 and f["invitations"] == []
            await asyncio.to_thread(_post, ceca, f"/api/parties/{pid}/accept")
            for ws in (a, b):
                f = await frame_of(ws, "started")
                assert f["by"] == "ceca" and f["partie"] == pid
            return pid

    asyncio.run(main())


def test_a_declined_or_withdrawn_proposal(live_server):
    ana, boki = member(live_server.url, "ana"), member(live_server.url, "boki")

    async def main():
        async with await notices(live_server, ana) as a, await notices(live_server, boki) as b:
            await recv(a), await recv(b)
            body = {"game": PREFERANS, "seats": [{"kind": "member", "name": "boki"}, {"kind": "bot"}]}
            pid = (await asyncio.to_thread(_post, ana, "/api/parties", body))["id"]
            assert (await frame_of(b, "invited"))["count"] == 1
            await asyncio.to_thread(_post, boki, f"/api/parties/{pid}/decline")
            assert (await frame_of(a, "declined"))["by"] == "boki"
            pid = (await asyncio.to_thread(_post, ana, "/api/parties", body))["id"]
            assert (await frame_of(b, "invited"))["invitations"] == [pid]
            await asyncio.to_thread(_post, ana, f"/api/parties/{pid}/withdraw")
            f = await frame_of(b, ftype="unread")
            assert f["count"] == 0 and f["invitations"] == []

    asyncio.run(main())


def test_my_turn_at_another_table(live_server):
    """Preferans ana (deals), boki, ceca: boki bids first, then ceca, then ana; each hears
    on his notices socket that his turn came, and that it is over once he has spoken."""
    ana, boki, ceca = (member(live_server.url, n) for n in ("ana", "boki", "ceca"))
    body = {"game": PREFERANS, "seats": [{"kind": "member", "name": "boki"}, {"kind": "member", "name": "ceca"}]}
    pid = _post(ana, "/api/parties", body)["id"]
    _post(boki, f"/api/parties/{pid}/accept")

    async def say(client, seat: int) -> None:
        view = (await asyncio.to_thread(client.get, f"/api/parties/{pid}/view")).json()
        assert view["seat"] == seat and view["to_act"] == [seat]
        await asyncio.to_thread(_post, client, f"/api/parties/{pid}/actions",
                                {"word": view["legal"][0], "version": view["version"]})

    async def main():
        async with await notices(live_server, ana) as a, await notices(live_server, boki) as b, \
                await notices(live_server, ceca) as c:
            await recv(a), await recv(b), await recv(c)
            await asyncio.to_thread(_post, ceca, f"/api/parties/{pid}/accept")
            f = await frame_of(a, "started")
            assert f["by"] == "ceca" and f["turns"] == [] and f["count"] == 0
            f = await frame_of(b, "started")
            assert f["turns"] == [pid] and f["count"] == 1  # boki bids first
            await say(boki, 1)
            f = await frame_of(b, ftype="unread")  # his turn is over
            assert f["turns"] == [] and f["count"] == 0
            f = await frame_of(c, "turn")
            assert f["partie"] == pid and f["game"] == PREFERANS and f["turns"] == [pid] and f["count"] == 1
            await say(ceca, 2)
            f = await frame_of(a, "turn")
            assert f["partie"] == pid and f["turns"] == [pid] and f["count"] == 1

    asyncio.run(main())


def test_a_revans_invites_the_other_players(live_server):
    from tests.support.club import Seat, store_finished

    ana, boki = member(live_server.url, "ana"), member(live_server.url, "boki")
    old = store_finished(live_server.club.db, PREFERANS, [Seat("ana"), Seat("boki"), Seat()])

    async def main():
        async with await notices(live_server, boki) as b:
            await recv(b)
            new = (await asyncio.to_thread(_post, ana, f"/api/parties/{old}/rematch"))["id"]
            f = await frame_of(b, "invited")
            assert f["partie"] == new and f["rematch_of"] == old and f["by"] == "ana" and f["count"] == 1

    asyncio.run(main())


def test_the_lobby_page_hears_every_change(live_server):
    ana, boki = member(live_server.url, "ana"), member(live_server.url, "boki")

    async def main():
        async with await notices(live_server, boki, lobby=True) as lobby, await notices(live_server, boki) as other:
            await recv(lobby), await recv(other)
            await asyncio.to_thread(_post, ana, "/api/parties", {"game": LORA, "seats": [{"kind": "bot"}] * 3})
            assert await frame_of(lobby, ftype="lobby") == {"type": "lobby"}
            await other.send(json.dumps({"type": "ping"}))
            assert await recv(other) == {"type": "pong"}  # nothing of the lobby on a page that is not it

    asyncio.run(main())


def test_the_handshake_needs_the_origin_and_a_session_and_a_logout_closes(live_server):
    ana = member(live_server.url, "ana")

    async def main():
        with pytest.raises(InvalidStatus):
            await notices(live_server, ana, origin="http://evil.example")
        with pytest.raises(InvalidStatus):
            await notices(live_server, None)
        async with await notices(live_server, ana) as ws:
            await recv(ws)
            await ws.send("not json")
            assert (await recv(ws))["code"] == "unknown_type"
            await asyncio.to_thread(ana.post, "/api/auth/logout")
            f = await frame_of(ws, ftype="error")
            assert f["code"] == "session_ended"
            with pytest.raises(ConnectionClosed):
                await recv(ws)
            assert ws.close_code == 4401

    asyncio.run(main())


@pytest.mark.skipif(not (PG_URL and REDIS_URL), reason="needs PostgreSQL and Redis")
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_notices_cross_instances(settings):
    """boki listens on instance two; ana proposes and plays on instance one."""
    one, two = ServerProcess(settings), ServerProcess(settings)
    one.start()
    two.start()
    try:
        ana, boki = member(one.url, "ana"), member(two.url, "boki")
        body = {"game": PREFERANS, "seats": [{"kind": "member", "name": "boki"}, {"kind": "bot"}]}

        async def main():
            async with await notices(two, boki) as b:
                await recv(b)
                pid = (await asyncio.to_thread(_post, ana, "/api/parties", body))["id"]
                f = await frame_of(b, "invited")
                assert f["partie"] == pid and f["count"] == 1
            async with await notices(one, ana) as a:
                await recv(a)
                await asyncio.to_thread(_post, boki, f"/api/parties/{pid}/accept")
                assert (await frame_of(a, "started"))["partie"] == pid
                view = (await asyncio.to_thread(boki.get, f"/api/parties/{pid}/view")).json()
                await asyncio.to_thread(_post, boki, f"/api/parties/{pid}/actions",
                                        {"word": view["legal"][0], "version": view["version"]})
                assert (await frame_of(a, "turn"))["turns"] == [pid]

        asyncio.run(main())
    finally:
        one.close()
        two.close()


def test_sitting_at_my_table_leaves_its_turn_out_of_my_count_until_i_leave(live_server):
    """The count drops a table's turn when the member opens his seat there (counted from
    the last count, without a read) and takes it back when he closes it."""
    ana, boki = member(live_server.url, "ana"), member(live_server.url, "boki")
    body = {"game": PREFERANS, "seats": [{"kind": "member", "name": "boki"}, {"kind": "bot"}]}
    pid = _post(ana, "/api/parties", body)["id"]

    async def main():
        async with await notices(live_server, boki) as b:
            assert (await recv(b))["count"] == 1  # the invitation
            await asyncio.to_thread(_post, boki, f"/api/parties/{pid}/accept")
            f = await frame_of(b, ftype="unread")
            assert f == {"type": "unread", "count": 1, "invitations": [], "turns": [pid]}  # boki bids first
            table_url = f"{live_server.ws_url}/ws/parties/{pid}"
            headers = {"Cookie": cookie_header(boki), "Origin": live_server.origin}
            async with connect(table_url, additional_headers=headers, open_timeout=10) as table:
                assert (await recv(table))["type"] == "state"
                f = await frame_of(b, ftype="unread")
                assert f == {"type": "unread", "count": 0, "invitations": [], "turns": []}
            f = await frame_of(b, ftype="unread")
            assert f == {"type": "unread", "count": 1, "invitations": [], "turns": [pid]}

    asyncio.run(main())


def test_a_rounds_start_is_counted_without_a_read_as_a_read_would_count_it(live_server, monkeypatch):
    """A round's notice says whether the member's seat is to act first, so his notices socket
    counts the new table's turn from its last count (a round starts a hundred tables at
    once); the count is the one app/parties/unread.py reads, for the seat to act and the
    others."""
    from datetime import datetime, timedelta, timezone

    from sqlalchemy import select

    from app.db.models import Member
    from app.members.service import ensure_admin
    from app.parties import unread
    from app.web import notices_ws

    ensure_admin(live_server.club.db, "sudija", PASSWORD)
    admin = member(live_server.url, "sudija", register=False)
    players = {name: member(live_server.url, name) for name in ("ana", "boki", "ceca")}
    start = (datetime.now(timezone.utc) + timedelta(hours=1)).isoformat()
    t = _post(admin, "/api/tournaments", {"name": "Veče", "game": PREFERANS, "format": "duplikat", "rounds": 1,
                                          "hands": 3, "timer": 60, "round_minutes": 60, "pause_minutes": 2,
                                          "start_at": start})
    for c in players.values():
        _post(c, f"/api/tournaments/{t['id']}/register")
    reads = []
    monkeypatch.setattr(notices_ws, "unread", lambda club, member_id: reads.append(member_id) or
                        unread.unread(club, member_id))

    async def main():
        sockets = {name: await notices(live_server, c) for name, c in players.items()}
        try:
            for ws in sockets.values():
                assert (await recv(ws))["count"] == 0
            reads.clear()
            await asyncio.to_thread(_post, admin, f"/api/tournaments/{t['id']}/start")
            told = {name: await frame_of(ws, "round") for name, ws in sockets.items()}
        finally:
            for ws in sockets.values():
                await ws.close()
        return told

    told = asyncio.run(main())
    assert reads == []  # no socket read its count
    pid = told["ana"]["partie"]
    assert {f["partie"] for f in told.values()} == {pid}
    counted = {name: {k: f[k] for k in ("count", "invitations", "turns")} for name, f in told.items()}
    with live_server.club.db.read() as s:
        ids = dict(s.execute(select(Member.name, Member.id).where(Member.name.in_(players))).all())
    assert counted == {name: dict(unread.unread(live_server.club, ids[name])) for name in players}
    assert sorted(f["count"] for f in told.values()) == [0, 0, 1]  # one seat bids first
