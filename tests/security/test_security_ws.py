"""Security of the live tables: WebSocket origin, frame cap, rate limit, and who may do what."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.support.security import lora_of_members
from tests.support.web import cards_in, cookie_header, member, recv, ws_connect


@pytest.mark.parametrize("origin", [None, "http://evil.example", "null", "http://127.0.0.1"])
def test_handshake_with_foreign_or_missing_origin_is_refused(live_server, origin):
    ana = member(live_server.url, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "open"}] * 3}).json()["id"]
    headers = {"Cookie": cookie_header(ana)}
    if origin is not None:
        headers["Origin"] = origin

    async def run():
        with pytest.raises(InvalidStatus) as e:
            await connect(f"{live_server.ws_url}/ws/parties/{pid}", additional_headers=headers, open_timeout=10)
        assert e.value.response.status_code == 403
        # The right origin without a session is refused too; with both it works.
        with pytest.raises(InvalidStatus):
            await connect(f"{live_server.ws_url}/ws/parties/{pid}", additional_headers={"Origin": live_server.origin})
        async with await ws_connect(live_server, pid, ana) as ws:
            assert (await recv(ws))["type"] == "state"

    asyncio.run(run())


def test_frames_over_16_kb_are_refused_and_the_rate_is_limited(live_server):
    ana = member(live_server.url, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "open"}] * 3}).json()["id"]

    async def run():
        async with await ws_connect(live_server, pid, ana) as ws:
            await recv(ws)
            big = json.dumps({"type": "chat", "text": "x" * (16 * 1024)})
            await ws.send(big)
            frame = await recv(ws)
            assert frame["type"] == "error" and frame["code"] == "frame_too_large"
            await ws.send(json.dumps({"type": "ping"}))
            assert (await recv(ws))["type"] == "pong"  # the connection stays usable
            with httpx.Client(base_url=live_server.url, cookies=ana.cookies) as c:
                assert all(len(m["text"]) < 16 * 1024 for m in c.get(f"/api/parties/{pid}/chat").json()["messages"])
        async with await ws_connect(live_server, pid, ana) as ws:
            await recv(ws)
            for _ in range(200):
                await ws.send('{"type": "nothing"}')
            codes = [(await recv(ws))["code"] for _ in range(200)]
            assert codes.count("rate_limited") >= 100, Counter(codes)
            assert codes[0] == "unknown_type"

    asyncio.run(run())


def test_every_action_is_authorised(live_server):
    pid, clients = lora_of_members(live_server)
    eva = member(live_server.url, "eva")  # not at the table
    states = [c.get(f"/api/parties/{pid}/view").json() for c in clients]
    to_act = states[0]["to_act"][0]
    hands = {s["seat"]: set(cards_in(s["view"]["deal"].get("hand") or [])) for s in states}
    assert all(len(h) == 8 for h in hands.values())
    version = states[0]["version"]
    actor = next(c for c, s in zip(clients, states) if s["seat"] == to_act)
    other = next(c for c, s in zip(clients, states) if s["seat"] != to_act)
    word = next(s for s in states if s["seat"] == to_act)["legal"][0]

    # A non-member of the partie: public information only, and no word.
    spectator = eva.get(f"/api/parties/{pid}/view").json()
    assert spectator["seat"] is None and not spectator.get("legal")
    assert not cards_in(spectator) & set().union(*hands.values())
    r = eva.post(f"/api/parties/{pid}/actions", json={"word": word, "version": version})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_player", r.text
    rec = eva.get(f"/api/parties/{pid}/record").json()
    assert not cards_in(rec) & set().union(*hands.values())

    # A member acts only for his own seat: another seat's word (even with a "seat" field) is refused.
    r = other.post(f"/api/parties/{pid}/actions", json={"word": word, "version": version, "seat": to_act})
    assert r.status_code == 422 and r.json()["error"]["code"] == "not_your_turn", r.text

    async def run():
        async with await ws_connect(live_server, pid, eva) as ws:
            state = await recv(ws)
            assert state["seat"] is None and not cards_in(state) & set().union(*hands.values())
            await ws.send(json.dumps({"type": "action", "word": word, "version": version, "id": "x1", "seat": to_act}))
            frame = await recv(ws)
            assert (frame["type"], frame["id"], frame["code"]) == ("error", "x1", "not_a_player")
        async with await ws_connect(live_server, pid, other) as ws:
            await recv(ws)
            await ws.send(json.dumps({"type": "action", "word": word, "version": version, "id": "x2", "seat": to_act}))
            frame = await recv(ws)
            assert (frame["type"], frame["id"], frame["code"]) == ("error", "x2", "not_your_turn")

    asyncio.run(run())
    assert clients[0].get(f"/api/parties/{pid}/view").json()["version"] == version  # nothing applied
    # The seat to act can.
    r = actor.post(f"/api/parties/{pid}/actions", json={"word": word, "version": version})
    assert r.status_code == 200, r.text

    # Proposals: only the proposer withdraws or refills seats; admin APIs for admins only.
    assert other.post(f"/api/parties/{pid}/withdraw").status_code in (403, 409)
    for path in ["/api/members/ana/disable", "/api/members/ana/enable"]:
        r = other.post(path)
        assert r.status_code == 403 and r.json()["error"]["code"] == "admin_only"
    assert clients[0].get("/api/me").status_code == 200


def test_a_socket_for_an_id_past_the_database_integers_gets_not_found(live_server):
    # (it raised an unhandled OverflowError in SQLite before)
    ana = member(live_server.url, "ana")

    async def run():
        for pid in ("99999999999999999999", "-99999999999999999999"):
            async with await ws_connect(live_server, pid, ana) as ws:
                frame = await recv(ws)
                assert frame["type"] == "error" and frame["code"] == "not_found" and frame["message"]
                await ws.wait_closed()
                assert ws.close_code == 4404

    asyncio.run(run())
