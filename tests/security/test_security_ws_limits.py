"""The table sockets' frame cap in bytes, the per-member rate budget, the per-member connection cap."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest
from websockets.exceptions import ConnectionClosed

from app.tables import ratelimit
from app.tables.ws import MAX_FRAME
from tests.support.security import lora_of_members
from tests.support.web import member, recv, ws_connect


def test_an_oversized_frame_in_bytes_is_refused_and_changes_nothing(live_server):
    """16 KB is a byte cap: 8,200 two-byte letters (16,400 bytes) around a legal action are refused."""
    pid, clients = lora_of_members(live_server)
    states = [c.get(f"/api/parties/{pid}/view").json() for c in clients]
    to_act = states[0]["to_act"][0]
    actor = next(c for c, s in zip(clients, states) if s["seat"] == to_act)
    word = next(s for s in states if s["seat"] == to_act)["legal"][0]
    version = states[0]["version"]
    padded = json.dumps({"type": "action", "word": word, "version": version, "id": "big", "pad": "ž" * 8200},
                        ensure_ascii=False)
    assert len(padded) < MAX_FRAME < len(padded.encode())

    async def run():
        async with await ws_connect(live_server, pid, actor) as ws:
            assert (await recv(ws))["type"] == "state"
            await ws.send(padded)
            frame = await recv(ws)
            assert frame["type"] == "error" and frame["code"] == "frame_too_large", frame
            await ws.send(b"{" + b" " * (MAX_FRAME + 1) + b"}")  # a binary frame: the raw size counts
            frame = await recv(ws)
            assert frame["type"] == "error" and frame["code"] == "frame_too_large", frame
            assert clients[0].get(f"/api/parties/{pid}/view").json()["version"] == version  # nothing applied
            # The same action in a frame under the cap is applied, on the same socket.
            await ws.send(json.dumps({"type": "action", "word": word, "version": version, "id": "small"}))
            while (frame := await recv(ws))["type"] != "ack":
                assert frame["type"] == "event", frame
            assert frame["id"] == "small" and frame["version"] == version + 1

    asyncio.run(run())


def test_serve_caps_websocket_messages_near_16_kb(monkeypatch, tmp_path):
    """``python -m app serve`` gives uvicorn a message cap a little over the table socket's 16 KB."""
    import uvicorn

    from app import cli
    from app.config import get_settings

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: seen.update(kw))
    monkeypatch.setenv("KLUB_DATABASE_URL", f"sqlite:///{tmp_path / 'klub.db'}")
    get_settings.cache_clear()
    try:
        assert cli.main(["serve", "--port", "8123"]) == 0
    finally:
        get_settings.cache_clear()
    assert MAX_FRAME == 16 * 1024
    assert MAX_FRAME < seen["ws_max_size"] <= MAX_FRAME + 4 * 1024


def test_connections_per_member_are_capped(live_server):
    ana = member(live_server.url, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "open"}] * 3}).json()["id"]
    assert ratelimit.MAX_CONNECTIONS == 8

    async def run():
        sockets = []
        try:
            for _ in range(ratelimit.MAX_CONNECTIONS):
                ws = await ws_connect(live_server, pid, ana)
                assert (await recv(ws))["type"] == "state"
                sockets.append(ws)
            extra = await ws_connect(live_server, pid, ana)
            frame = await recv(extra)
            assert frame["type"] == "error" and frame["code"] == "too_many_connections", frame
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(extra.recv(), 10)
            assert extra.close_code == ratelimit.CLOSE_TOO_MANY and extra.close_reason == "too many connections"
            # Another member is not affected; and when one of ana's sockets closes she may open one again.
            boki = member(live_server.url, "boki")
            async with await ws_connect(live_server, pid, boki) as ws:
                assert (await recv(ws))["type"] == "state"
            await sockets.pop().close()
            for _ in range(100):  # the server notices the close
                again = await ws_connect(live_server, pid, ana)
                frame = await recv(again)
                if frame["type"] == "state":
                    sockets.append(again)
                    break
                await again.close()
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("no new socket after one closed")
        finally:
            for ws in sockets:
                await ws.close()

    asyncio.run(run())


def test_the_frame_budget_is_shared_by_a_members_sockets(live_server):
    """Six sockets of one member: together about one member's budget, not six sockets' bursts."""
    ana = member(live_server.url, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "open"}] * 3}).json()["id"]
    n_sockets, per_socket = 6, 70  # each socket alone stays near its own burst of 60

    async def run():
        sockets = [await ws_connect(live_server, pid, ana) for _ in range(n_sockets)]
        try:
            for ws in sockets:
                await recv(ws)
            for _ in range(per_socket):
                for ws in sockets:
                    await ws.send('{"type": "nothing"}')
            codes = Counter()
            for ws in sockets:
                for _ in range(per_socket):
                    codes[(await recv(ws))["code"]] += 1
            return codes
        finally:
            for ws in sockets:
                await ws.close()

    codes = asyncio.run(run())
    served = codes["unknown_type"]
    assert served + codes["rate_limited"] == n_sockets * per_socket, codes
    # Per socket only, at least 6 x 60 frames would be served.
    assert ratelimit.RATE_BURST <= served < 300, codes


def test_member_limits_unit():
    now = [0.0]
    limits = ratelimit.MemberLimits(max_connections=2, rate=10, burst=3, clock=lambda: now[0])
    assert limits.open(1) and limits.open(1) and not limits.open(1) and limits.open(2)
    assert [limits.allow(1) for _ in range(4)] == [True, True, True, False]
    assert limits.allow(2)  # another member has his own budget
    now[0] += 0.1  # one token back
    assert limits.allow(1) and not limits.allow(1)
    now[0] += 10
    assert [limits.allow(1) for _ in range(4)] == [True, True, True, False]  # never more than the burst
    limits.close(1)
    assert limits.open(1) and not limits.open(1)
    limits.close(1)
    limits.close(1)
    assert 1 not in limits.connections and 1 not in limits.buckets  # nothing kept for a gone member
