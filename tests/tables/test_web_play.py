"""Whole parties through the WebSocket API, on a live uvicorn.

Every frame any seat (or a spectator) receives is checked against the finished
partie's record: no frame may name another seat's card before the rules reveal it.
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid

import pytest

from tests.support.web import LeakCheck, member, recv, wait_for, with_view, ws_connect

NAMES = ["ana", "boki", "ceca", "dule"]


def start_partie(server, game: str, settings: dict | None = None):
    n = 4 if game == "lora" else 3
    clients = [member(server.url, name) for name in NAMES[:n]]
    seats = [{"kind": "member", "name": name} for name in NAMES[1:n]]
    r = clients[0].post("/api/parties", json={"game": game, "settings": settings or {}, "seats": seats})
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    for c in clients[1:]:
        assert c.post(f"/api/parties/{pid}/accept").status_code == 200
    assert clients[0].get(f"/api/parties/{pid}").json()["status"] == "running"
    return pid, clients


async def play_seat(server, pid: int, client, rng: random.Random, log: list):
    """Play random legal words for one seat until the partie ends; keep every frame."""
    async with await ws_connect(server, pid, client) as ws:
        frame = await recv(ws)
        assert frame["type"] == "state"
        seat, last, table = frame["seat"], frame["version"], frame
        log.append((seat, frame))
        pending = None
        while True:
            if table.get("finished"):
                return seat
            if pending is None and table["legal"] and table["version"] == last:
                pending = uuid.uuid4().hex
                word = rng.choice(table["legal"])
                await ws.send(json.dumps({"type": "action", "word": word, "version": last, "id": pending}))
            frame = with_view(table, await recv(ws, timeout=30))
            log.append((seat, frame))
            kind = frame["type"]
            if kind == "event":
                assert frame["version"] == last + 1, f"seat {seat}: gap from {last} to {frame['version']}"
                last, table = frame["version"], frame
            elif kind == "state":
                last, table = frame["version"], frame
            elif kind == "ack":
                assert frame["id"] == pending
                pending = None
            elif kind == "error":
                # at full speed a seat may outrun its socket's frame budget: back off, resend
                assert frame["code"] in ("stale_version", "rate_limited"), frame
                if frame["code"] == "rate_limited":
                    await asyncio.sleep(0.2)
                pending = None


async def watch(server, pid: int, client, log: list):
    async with await ws_connect(server, pid, client) as ws:
        table = None
        while True:
            frame = with_view(table, await recv(ws, timeout=30))
            if frame["type"] in ("state", "event"):
                table = frame
            log.append((None, frame))
            if frame.get("finished"):
                return


def play_whole_partie(server, game: str, settings: dict | None = None):
    pid, clients = start_partie(server, game, settings)
    spectator = member(server.url, "kibic")
    log: list = []

    async def main():
        tasks = [play_seat(server, pid, c, random.Random(i), log) for i, c in enumerate(clients)]
        tasks.append(watch(server, pid, spectator, log))
        return await asyncio.gather(*tasks)

    seats = asyncio.run(main())
    assert sorted(s for s in seats if s is not None) == list(range(len(clients)))
    record = clients[0].get(f"/api/parties/{pid}/record").json()
    assert "unfinished" not in record
    check = LeakCheck(record)
    for seat, frame in log:
        check.check(seat, frame)
    events = [f for s, f in log if f["type"] == "event"]
    assert len(events) >= check.total  # every action reached every connection
    for seat, frame in log:
        if frame["type"] in ("event", "state") and "to_act" in frame:
            # the turn and the seats that may speak out of turn never overlap
            assert not set(frame["to_act"]) & set(frame["may_speak"]), frame
            if seat is not None and frame["legal"]:
                assert seat in frame["to_act"] or seat in frame["may_speak"], frame
    sheet = clients[1].get(f"/api/parties/{pid}/score-sheet").json()
    assert sheet["status"] == "finished"
    return pid, clients, record, sheet, log


def test_whole_lora_partie_over_websocket(live_server):
    pid, clients, record, sheet, log = play_whole_partie(live_server, "lora")
    assert len(record["deals"]) == 28 and len(sheet["result"]["deals"]) == 28
    assert sheet["players"] == NAMES
    imported = clients[3].post("/api/records", json=record)
    assert imported.status_code == 201 and imported.json()["record"]["result"]["totals"] == sheet["result"]["totals"]
    # Each of the four players saw his own cards in every deal.
    seen_hands = {(s, f["view"]["deal"]["index"]) for s, f in log if s is not None and f.get("view", {}).get("deal", {}).get("hand")}
    assert len(seen_hands) == 4 * 28


def test_whole_preferans_partie_over_websocket(live_server):
    pid, clients, record, sheet, log = play_whole_partie(live_server, "preferans", {"bule": 30, "refe": 1})
    assert sheet["result"]["finished"] is True and "lines" in sheet["papir"]
    assert record["settings"]["bule"] == 30
    imported = clients[2].post("/api/records", json=record)
    assert imported.status_code == 201 and imported.json()["record"]["result"]["bule"] == sheet["result"]["bule"]


@pytest.fixture
def lora_table(live_server):
    """Ana against three computer players, her turn."""
    ana = member(live_server.url, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
    wait_for(lambda: ana.get(f"/api/parties/{pid}/view").json()["legal"])
    return live_server, ana, pid


def test_ack_resend_stale_and_illegal_over_websocket(lora_table):
    import json

    server, ana, pid = lora_table

    async def main():
        async with await ws_connect(server, pid, ana) as ws:
            state = await recv(ws)
            version, word = state["version"], state["legal"][0]
            await ws.send(json.dumps({"type": "action", "word": "ZZ", "version": version, "id": "x1"}))
            err = await recv(ws)
            assert err["type"] == "error" and err["code"] == "illegal_action" and err["id"] == "x1"
            await ws.send(json.dumps({"type": "action", "word": word, "version": version - 1, "id": "x2"}))
            err = await recv(ws)
            assert err["code"] == "stale_version"
            await ws.send("not json")
            assert (await recv(ws))["code"] == "bad_json"
            await ws.send(json.dumps({"type": "action", "word": 7, "version": "x"}))
            assert (await recv(ws))["code"] == "bad_frame"
            await ws.send(json.dumps({"type": "dance"}))
            assert (await recv(ws))["code"] == "unknown_type"
            await ws.send(json.dumps({"type": "chat", "text": "x" * 17000}))
            assert (await recv(ws))["code"] == "frame_too_large"

            await ws.send(json.dumps({"type": "action", "word": word, "version": version, "id": "x3"}))
            frames = []
            while True:
                frame = await recv(ws)
                frames.append(frame)
                if frame["type"] == "ack":
                    break
            assert frames[0]["type"] == "event" and frames[0]["version"] == version + 1
            assert frames[0]["action"] == {"seat": 0, "word": word}
            assert frames[-1] == {"type": "ack", "id": "x3", "version": version + 1, "duplicate": False}
            # The same id again: the first outcome, nothing applied twice.
            await ws.send(json.dumps({"type": "action", "word": word, "version": version, "id": "x3"}))
            while (frame := await recv(ws))["type"] != "ack":
                pass
            assert frame["version"] == version + 1 and frame["duplicate"] is True

    asyncio.run(main())
    rec = ana.get(f"/api/parties/{pid}/record").json()
    assert sum(len(d["actions"]) for d in rec["deals"]) >= 1


def test_reconnect_gets_the_missed_events(lora_table):
    server, ana, pid = lora_table

    async def main():
        async with await ws_connect(server, pid, ana) as ws:
            state = await recv(ws)
            version = state["version"]
        # Offline now: a word of ana's (through REST) and the computer players' answers.
        r = ana.post(f"/api/parties/{pid}/actions", json={"word": state["legal"][0], "version": version})
        assert r.status_code == 200
        now = wait_for(lambda: (v := ana.get(f"/api/parties/{pid}/view").json())["legal"] and v["version"])
        async with await ws_connect(server, pid, ana, since=version) as ws:
            frames = [await recv(ws) for _ in range(now - version)]
        assert [f["type"] for f in frames] == ["event"] * (now - version)
        assert [f["version"] for f in frames] == list(range(version + 1, now + 1))
        assert frames[0]["action"] == {"seat": 0, "word": state["legal"][0]}
        assert frames[-1]["legal"]  # ana's turn again
        # A version the server no longer keeps events for: a full state instead.
        server.club.tables.history = 2
        server.club.tables.invalidate(pid)
        async with await ws_connect(server, pid, ana, since=0) as ws:
            first = await recv(ws)
            assert first["type"] == "state" and first["version"] == now

    asyncio.run(main())


def test_websocket_refuses_foreign_origin_and_strangers(lora_table):
    from websockets.exceptions import InvalidStatus

    server, ana, pid = lora_table

    async def main():
        with pytest.raises(InvalidStatus):
            await ws_connect(server, pid, ana, origin="https://evil.example")
        stranger = member(server.url, "stranger")
        stranger.cookies.clear()
        with pytest.raises(InvalidStatus):
            await ws_connect(server, pid, stranger)

    asyncio.run(main())


def test_logout_closes_open_websockets_and_chat_reaches_the_table(lora_table):
    import json

    from websockets.exceptions import ConnectionClosed

    server, ana, pid = lora_table
    kibic = member(server.url, "kibic")

    async def main():
        async with await ws_connect(server, pid, kibic) as watcher, await ws_connect(server, pid, ana) as ws:
            assert (await recv(watcher))["seat"] is None
            await recv(ws)
            await ws.send(json.dumps({"type": "chat", "text": "Dobro veče"}))
            while (frame := await recv(watcher))["type"] != "chat":
                pass
            assert frame["message"]["from"] == "ana" and frame["message"]["text"] == "Dobro veče"
            await asyncio.to_thread(ana.post, "/api/auth/logout")
            with pytest.raises(ConnectionClosed):
                while True:
                    frame = await recv(ws, timeout=10)
                    if frame["type"] == "error":
                        assert frame["code"] == "session_ended"

    asyncio.run(main())


def test_a_flood_of_frames_is_slowed_down(lora_table):
    server, ana, pid = lora_table

    async def main():
        async with await ws_connect(server, pid, ana) as ws:
            await recv(ws)
            # Frames the server answers at once (a ping's answer waits for the database, and
            # the bucket refills meanwhile on a busy machine: the flood would not be one).
            for _ in range(100):
                await ws.send(json.dumps({"type": "nonsense"}))
            codes = [(await recv(ws)).get("code") for _ in range(100)]
            assert "rate_limited" in codes and codes.count("unknown_type") >= 50  # the first burst is answered

    asyncio.run(main())


def test_closing_the_socket_shows_the_player_away_until_he_returns(live_server):
    ana, boki = member(live_server.url, "ana"), member(live_server.url, "boki")
    pid = ana.post(
        "/api/parties", json={"game": "lora", "seats": [{"kind": "member", "name": "boki"}] + [{"kind": "bot"}] * 2}
    ).json()["id"]
    boki.post(f"/api/parties/{pid}/accept")

    def boki_away() -> bool:
        return ana.get(f"/api/parties/{pid}").json()["seats"][1]["away"]

    async def main():
        async with await ws_connect(live_server, pid, ana) as watcher:
            assert (await recv(watcher))["type"] == "state"
            async with await ws_connect(live_server, pid, boki) as ws:
                await recv(ws)
            # Ana's socket is told that boki is away.
            while not ((frame := await recv(watcher))["type"] == "seats" and frame["seats"][1]["away"]):
                pass
            assert await asyncio.to_thread(boki_away)
            async with await ws_connect(live_server, pid, boki) as ws:
                await recv(ws)
                while not ((frame := await recv(watcher))["type"] == "seats" and not frame["seats"][1]["away"]):
                    pass
                assert not await asyncio.to_thread(boki_away)

    asyncio.run(main())
