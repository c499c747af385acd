"""How one instance answers while the database is out of reach, and a socket that missed a
notice (app/db/outage.py, app/tables/connection.py): the failures are made here on
purpose (an OperationalError from the word writer or the session's lookup, a notice
dropped); tests/faults/test_faults_outages.py has real outages of PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
from sqlalchemy import exc as sa_exc

from app.db.outage import RETRY_AFTER_SECONDS, unavailable
from tests.support.security import lora_of_members
from tests.support.web import recv, wait_for, ws_connect


def _refused() -> sa_exc.OperationalError:
    return sa_exc.OperationalError("SELECT 1", {}, Exception("connection refused"))


def test_what_counts_as_the_database_out_of_reach():
    assert unavailable(_refused())
    assert unavailable(sa_exc.TimeoutError("QueuePool limit reached"))
    assert unavailable(sa_exc.InterfaceError("SELECT 1", {}, Exception("connection closed")))
    assert not unavailable(sa_exc.IntegrityError("INSERT", {}, Exception("duplicate key")))
    assert not unavailable(ValueError("a bug"))


def _to_act(clients, pid: int) -> tuple[int, dict]:
    for i, c in enumerate(clients):
        view = c.get(f"/api/parties/{pid}/view").json()
        if view["legal"]:
            return i, view
    raise AssertionError("nobody is to act")


def test_a_word_meeting_the_outage_is_answered_by_its_id_and_taken_when_sent_again(live_server):
    pid, clients = lora_of_members(live_server)
    i, view = _to_act(clients, pid)
    writer = live_server.club.writer
    apply = writer.apply

    def failing(jobs):
        raise _refused()

    async def run():
        async with await ws_connect(live_server, pid, clients[i]) as ws:
            state = await recv(ws)
            word = {"type": "action", "word": view["legal"][0], "version": state["version"], "id": "w-1"}
            writer.apply = failing
            try:
                await ws.send(json.dumps(word))
                frame = await recv(ws)
            finally:
                writer.apply = apply
            assert frame["type"] == "error" and frame["code"] == "unavailable", frame
            assert frame["id"] == "w-1" and frame["retry_after"] == RETRY_AFTER_SECONDS
            await ws.send(json.dumps(word))  # the same id, the same version: taken now
            while (frame := await recv(ws))["type"] != "ack":
                assert frame["type"] == "event"
            assert frame["id"] == "w-1" and frame["version"] == state["version"] + 1 and not frame["duplicate"]
            # A refused frame names its word too (the rate limit answers before it reads the frame).
            for n in range(100):
                await ws.send(json.dumps({"type": "action", "word": "x", "version": 0, "id": f"f-{n}"}))
            answers = [await recv(ws) for _ in range(100)]
            limited = [f for f in answers if f.get("code") == "rate_limited"]
            assert limited and all(f["id"].startswith("f-") for f in limited)

    asyncio.run(run())


def test_a_ping_brings_a_socket_that_missed_a_notice_up_to_date(live_server):
    """The pong carries the table's version; the events before it come first (a client
    behind the pong's version asks for a state: static/js/live.js)."""
    pid, clients = lora_of_members(live_server)
    i, view = _to_act(clients, pid)
    watcher = clients[(i + 1) % 4]
    club = live_server.club
    notify = club.notify_partie

    async def run():
        async with await ws_connect(live_server, pid, watcher) as ws:
            state = await recv(ws)
            club.notify_partie = lambda partie_id, notice: None  # the notice of the next word is lost
            try:
                r = await asyncio.to_thread(clients[i].post, f"/api/parties/{pid}/actions",
                                            json={"word": view["legal"][0], "version": view["version"]})
                assert r.status_code == 200, r.text
            finally:
                club.notify_partie = notify
            with pytest.raises(asyncio.TimeoutError):
                while True:
                    assert (await recv(ws, timeout=0.3))["type"] != "event"
            await ws.send(json.dumps({"type": "ping"}))
            event, pong = await recv(ws), await recv(ws)
            assert event["type"] == "event" and event["version"] == state["version"] + 1
            assert pong == {"type": "pong", "version": state["version"] + 1}

    asyncio.run(run())


def test_http_is_503_with_retry_after_while_the_session_cannot_be_read(live_server, monkeypatch):
    pid, clients = lora_of_members(live_server)
    ana = clients[0]
    import app.deps

    def refused(*args, **kwargs):
        raise _refused()

    monkeypatch.setattr(app.deps, "authenticate", refused)
    r = ana.get(f"/api/parties/{pid}/view")
    assert r.status_code == 503 and r.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    assert r.json()["error"]["code"] == "unavailable"
    page = ana.get("/lobby?lang=en", headers={"accept": "text/html"})
    assert page.status_code == 503 and page.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    assert "text/html" in page.headers["content-type"] and "cannot reach its database" in page.text

    def bug(*args, **kwargs):
        raise sa_exc.IntegrityError("INSERT", {}, Exception("duplicate key"))

    monkeypatch.setattr(app.deps, "authenticate", bug)
    assert ana.get(f"/api/parties/{pid}/view").status_code == 500  # a bug stays a 500
    monkeypatch.undo()
    assert ana.get(f"/api/parties/{pid}/view").status_code == 200


def test_a_computer_player_that_met_the_outage_looks_again(live_server, monkeypatch):
    bots = live_server.club.bots
    calls: list[float] = []

    def play_one(partie_id):
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise _refused()
        return False

    monkeypatch.setattr(bots, "play_one", play_one)
    bots.poke(12345)
    wait_for(lambda: len(calls) >= 2, timeout=RETRY_AFTER_SECONDS + 10)
    assert calls[1] - calls[0] >= RETRY_AFTER_SECONDS * 0.9
    wait_for(bots.idle)


def test_healthz_names_the_database_out_of_reach(live_server, monkeypatch):
    monkeypatch.setattr(live_server.club.db, "ping", lambda: (_ for _ in ()).throw(_refused()))
    r = httpx.get(f"{live_server.url}/healthz", timeout=10)
    assert r.status_code == 503 and r.json()["database"] == "OperationalError"
