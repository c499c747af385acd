"""Outages for the tests: a relay in front of PostgreSQL or Redis that goes away and comes
back, and socket players that keep playing across it (tests/faults/test_faults_outages.py).

:class:`OutageRelay` is the bot tests' :class:`CuttableRelay` that can also refuse: while
it is ``down()`` every connection through it is cut and every new one is reset at once,
as a stopped server's port would answer; ``up()`` accepts again. The services behind it
(the shared PostgreSQL and Redis) never stop.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import struct
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from tests.support.bots import CuttableRelay


class OutageRelay(CuttableRelay):
    def __init__(self, target_port: int):
        self.refusing = False
        super().__init__(target_port)

    def through(self, url: str) -> str:
        """``url`` (postgresql://..., redis://...) with this relay's address instead of the server's."""
        parts = urlsplit(url)
        user = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.port}"))

    def down(self) -> None:
        self.refusing = True
        self.cut()

    def up(self) -> None:
        self.refusing = False

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing:
                _reset(client)
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
                server.settimeout(None)
            except OSError:
                _reset(client)
                continue
            for s in (client, server):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                self.pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client), daemon=True).start()


def _reset(sock: socket.socket) -> None:
    """Close with a reset (RST), as a port nobody listens on answers."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


def port_of(url: str) -> int:
    return urlsplit(url).port or {"redis": 6379}.get(urlsplit(url).scheme, 5432)


# -- socket players --------------------------------------------------------------------


@dataclass
class Seen:
    """What the harness saw: the words acknowledged, and every socket's frames."""

    acked: dict[str, tuple[int, int, str, int]] = field(default_factory=dict)  # id -> (partie, seat, word, version)
    versions: dict[tuple[int, int], int] = field(default_factory=dict)  # (partie, seat) -> the last version
    unavailable: int = 0  # words answered "unavailable" (then resent with the same id)
    unnamed: list[dict[str, Any]] = field(default_factory=list)  # error frames that did not name the word pending
    reconnects: dict[tuple[int, int], int] = field(default_factory=dict)
    stop: bool = False  # the players end
    stop_words: bool = False  # the players send no new word (they still read)
    acks_at: dict[str, list[float]] = field(default_factory=dict)  # instance label -> when its acks came


async def player(server, label: str, pid: int, client, seat_hint: int, rng: random.Random, seen: Seen,
                 think: tuple[float, float] = (0.05, 0.2)) -> None:
    """One member's socket at a table: plays a legal word now and then (each with an id);
    a word answered ``unavailable`` is sent again with the same id after ``retry_after``.

    The socket never pings (the browser's ping is every 25 s): an event reaches it only
    through the notices. A closed socket reconnects with ``?since=``."""
    from websockets.exceptions import WebSocketException

    from tests.support.web import recv, with_view, ws_connect

    key = (pid, seat_hint)
    last: int | None = None
    table: dict[str, Any] = {}
    pending: dict[str, Any] | None = None
    while not seen.stop:
        try:
            async with await ws_connect(server, pid, client, since=last) as ws:
                if pending is not None:
                    await ws.send(json.dumps({"type": "action", **pending}))
                while not seen.stop:
                    if table.get("finished"):
                        return
                    if pending is None and not seen.stop_words and table.get("legal") and table.get("version") == last:
                        await asyncio.sleep(rng.uniform(*think))
                        pending = {"word": rng.choice(table["legal"]), "version": last, "id": uuid.uuid4().hex}
                        await ws.send(json.dumps({"type": "action", **pending}))
                    try:
                        frame = await recv(ws, timeout=0.5)
                    except asyncio.TimeoutError:
                        continue
                    kind = frame["type"]
                    if kind == "event":
                        frame = with_view(table, frame)
                    if kind == "state":
                        last, table = frame["version"], frame
                    elif kind == "event":
                        assert last is None or frame["version"] == last + 1, f"gap from {last} to {frame['version']}"
                        last, table = frame["version"], frame
                    elif kind == "ack" and pending is not None and frame["id"] == pending["id"]:
                        seen.acked[pending["id"]] = (pid, seat_hint, pending["word"], frame["version"])
                        seen.acks_at.setdefault(label, []).append(time.monotonic())
                        pending = None
                    elif kind == "error":
                        if pending is not None and frame.get("id") != pending["id"]:
                            seen.unnamed.append(frame)
                        elif pending is not None and frame["code"] == "unavailable":
                            seen.unavailable += 1
                            await asyncio.sleep(frame["retry_after"] * rng.uniform(0.5, 1))
                            await ws.send(json.dumps({"type": "action", **pending}))
                        elif pending is not None:
                            assert frame["code"] in ("stale_version", "not_your_turn", "illegal_action",
                                                     "rate_limited"), frame
                            pending = None
                    if last is not None:
                        seen.versions[key] = last
        except (WebSocketException, OSError, asyncio.TimeoutError, EOFError):
            seen.reconnects[key] = seen.reconnects.get(key, 0) + 1
            await asyncio.sleep(0.2 + rng.random() * 0.3)


# -- two instances, their tables, and the checks ----------------------------------------


@dataclass
class Seat:
    pid: int
    seat: int
    client: Any  # httpx.Client of the member
    server: Any  # the ServerProcess his socket uses
    label: str  # "one" or "two"


def lora_tables(servers: dict[str, Any], n: int, tag: str) -> list[Seat]:
    """``n`` Lora tables of three members and a computer player; the members' sockets go to
    the instances in turn, so every table has sockets on both."""
    from tests.support.web import member

    labels = list(servers)
    seats: list[Seat] = []
    for t in range(n):
        names = [f"{tag}{t}s{s}" for s in range(3)]
        where = [labels[(t + s) % len(labels)] for s in range(3)]
        clients = [member(servers[w].url, name) for w, name in zip(where, names)]
        spec = [{"kind": "member", "name": names[1]}, {"kind": "member", "name": names[2]}, {"kind": "bot"}]
        r = clients[0].post("/api/parties", json={"game": "lora", "seats": spec})
        assert r.status_code == 201, r.text
        pid = r.json()["id"]
        for c in clients[1:]:
            assert c.post(f"/api/parties/{pid}/accept").status_code == 200
        seats += [Seat(pid, s, clients[s], servers[where[s]], where[s]) for s in range(3)]
    return seats


def play(seats: list[Seat], seen: Seen, rng: random.Random) -> list[asyncio.Task]:
    return [asyncio.create_task(player(s.server, s.label, s.pid, s.client, s.seat, random.Random(rng.random()), seen))
            for s in seats]


def db_versions(database_url: str, pids: list[int]) -> dict[int, int]:
    from tests.support.crash import _query

    return {pid: v for pid, v in _query(database_url, "SELECT id, version FROM parties") if pid in pids}


async def all_reach(seen: Seen, seats: list[Seat], wanted: dict[int, int], timeout: float) -> float:
    """Seconds until every socket has (at least) the version ``wanted`` of its table."""
    started = time.monotonic()
    while True:
        behind = [s for s in seats if seen.versions.get((s.pid, s.seat), -1) < wanted[s.pid]]
        if not behind:
            return time.monotonic() - started
        if time.monotonic() - started > timeout:
            raise AssertionError(f"{len(behind)} sockets still behind after {timeout} s: "
                                 + ", ".join(f"{s.pid}/{s.seat}@{s.label}: {seen.versions.get((s.pid, s.seat))} < "
                                             f"{wanted[s.pid]}" for s in behind[:6]))
        await asyncio.sleep(0.02)


async def moves_on(database_url: str, pids: list[int], words: int, timeout: float,
                   players: list[asyncio.Task] | None = None) -> float:
    """Seconds until every table has ``words`` more versions in the database than now; a
    player's task that failed meanwhile fails this with its own error (its table would
    only stall)."""
    start = await asyncio.to_thread(db_versions, database_url, pids)
    started = time.monotonic()
    while True:
        now = await asyncio.to_thread(db_versions, database_url, pids)
        if all(now[p] >= start[p] + words for p in pids):
            return time.monotonic() - started
        for task in players or ():
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise AssertionError(f"a player failed while the tables were at {now}") from task.exception()
        assert time.monotonic() - started < timeout, f"tables stalled: {start} -> {now}"
        await asyncio.sleep(0.1)


async def wind_down(seen: Seen, seats: list[Seat], tasks: list[asyncio.Task], database_url: str) -> None:
    """Stop the words; every socket gets to its table's last version; the players end."""
    pids = sorted({s.pid for s in seats})
    seen.stop_words = True
    deadline = time.monotonic() + 20
    while True:  # the computer players may still say a word or two
        wanted = await asyncio.to_thread(db_versions, database_url, pids)
        try:
            await all_reach(seen, seats, wanted, timeout=2)
        except AssertionError:
            assert time.monotonic() < deadline, "the sockets never caught up with the log"
            continue
        if wanted == await asyncio.to_thread(db_versions, database_url, pids):
            break
    seen.stop = True
    await asyncio.gather(*tasks)


def check_log(database_url: str, seen: Seen, pids: list[int]) -> dict[str, int]:
    """Every acknowledged word is in its partie's log once, at the version its ack named; the
    log has no gaps."""
    from tests.support.crash import _query

    rows = _query(database_url, "SELECT partie_id, seq, seat, word, client_action_id FROM actions")
    versions = db_versions(database_url, pids)
    by_id: dict[tuple[int, str], tuple[int, int, str]] = {}
    doubled = 0
    for pid, seq, seat, word, cid in rows:
        if cid is not None:
            doubled += (pid, cid) in by_id
            by_id[(pid, cid)] = (seq, seat, word)
    lost = [cid for cid, (pid, seat, word, version) in seen.acked.items() if by_id.get((pid, cid)) != (version, seat, word)]
    gaps = [pid for pid in pids if sorted(seq for p, seq, *_ in rows if p == pid) != list(range(1, versions[pid] + 1))]
    figures = {"acked": len(seen.acked), "lost": len(lost), "doubled": doubled, "gaps": len(gaps)}
    assert not lost and not doubled and not gaps, figures
    assert seen.acked, "no word was acknowledged"
    return figures


def same_state(seats: list[Seat], servers: dict[str, Any]) -> None:
    """Each member reads the same view of his table through either instance."""
    import httpx

    for s in seats:
        views = []
        for server in servers.values():
            r = httpx.get(f"{server.url}/api/parties/{s.pid}/view", cookies=s.client.cookies, timeout=10)
            assert r.status_code == 200, r.text
            views.append(r.json())
        assert views[0]["version"] == views[1]["version"] and views[0]["view"] == views[1]["view"], s
