"""The crash harness: WebSocket players that survive a server killed under them.

Each player keeps the last version it saw and its one pending action (word, version,
id). When the socket dies it waits for the server, reconnects with ``?since=`` and
resends the pending action with the same id: the server answers with the first outcome
(a ``duplicate`` ack) if it had committed it, so nothing is lost or applied twice.
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from tests.support.audit import OPTIONAL, choose

GONE = (OSError, asyncio.TimeoutError, EOFError)


@dataclass
class Acked:
    partie: int
    seat: int
    word: str
    version: int


@dataclass
class Shared:
    acked: dict[str, Acked] = field(default_factory=dict)
    latest: dict[int, dict[str, Any]] = field(default_factory=dict)  # partie -> the last view seen
    final: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)  # (partie, seat) -> last frame
    reconnects: int = 0
    enough: bool = False  # the harness has stopped the server often enough: wind the parties up


def situation(frame: dict[str, Any]) -> str:
    """bidding, mid-trick or other: what the table was doing (for the kill statistics)."""
    hand = (frame.get("view") or {}).get("hand") or {}
    if hand.get("phase") == "licitacija":
        return "bidding"
    if hand.get("trick"):
        return "mid-trick"
    return "other"


async def resilient_player(server, pid: int, client, rng: random.Random, shared: Shared, target: int) -> None:
    from websockets.exceptions import WebSocketException

    from tests.support.web import recv, with_view, ws_connect

    last: int | None = None
    table: dict[str, Any] = {}
    pending: dict[str, Any] | None = None
    seat = None
    while True:
        try:
            async with await ws_connect(server, pid, client, since=last) as ws:
                if pending is not None:  # resend: the same id, the same version
                    await ws.send(json.dumps({"type": "action", **pending}))
                while True:
                    if table.get("finished"):
                        shared.final[(pid, seat)] = table
                        return
                    if pending is None and table.get("legal") and table.get("version") == last:
                        # Keep the parties going until the harness has stopped the server often
                        # enough, however fast this machine plays.
                        wind_up = target if shared.enough else 10**9
                        if not shared.enough:
                            # A moment of thought: a partie can also end by itself (bule paid
                            # off), and on a fast server it did before the kills were done.
                            await asyncio.sleep(rng.uniform(0.02, 0.1))
                        word = choose(rng, "preferans", table["legal"], table.get("deal_index", 0), wind_up)
                        if seat not in table.get("to_act", ()) and word in OPTIONAL and rng.random() < 0.9:
                            # Not this player's turn, only a word he may say out of turn: mostly
                            # let the others play on (two players taking a fall over and back
                            # at full speed kept the computer seat's word stale for ever).
                            word = None
                        if word is not None:
                            pending = {"word": word, "version": last, "id": uuid.uuid4().hex}
                            await ws.send(json.dumps({"type": "action", **pending}))
                    frame = await recv(ws, timeout=60)
                    if frame["type"] == "event":
                        frame = with_view(table, frame)  # the view of the version before, changed
                    kind = frame["type"]
                    if kind == "state":
                        seat, last, table = frame["seat"], frame["version"], frame
                    elif kind == "event":
                        assert frame["version"] == last + 1, f"gap from {last} to {frame['version']}"
                        last, table = frame["version"], frame
                        shared.latest[pid] = frame
                    elif kind == "ack" and pending is not None and frame["id"] == pending["id"]:
                        shared.acked[pending["id"]] = Acked(pid, seat, pending["word"], frame["version"])
                        pending = None
                    elif kind == "error" and frame["code"] == "rate_limited":  # it names the word it refused
                        await asyncio.sleep(0.2)  # the frame was dropped unread: back off, then resend it
                        if pending is not None:
                            await ws.send(json.dumps({"type": "action", **pending}))
                    elif kind == "error" and pending is not None and frame.get("id") == pending["id"]:
                        assert frame["code"] in ("stale_version", "not_your_turn", "illegal_action"), frame
                        pending = None
        except (WebSocketException, *GONE):
            shared.reconnects += 1
            await asyncio.sleep(0.2 + rng.random() * 0.3)


def _query(database_url: str, sql: str, params: dict[str, Any] | None = None) -> list[tuple]:
    """Rows read straight from the database (SQLite file or PostgreSQL), outside the server."""
    from sqlalchemy import create_engine, text

    from app.db.database import normalize_url

    engine = create_engine(normalize_url(database_url))
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(sql), params or {})]
    finally:
        engine.dispose()


def check_log(database_url: str, shared: Shared, parties: list[int]) -> dict[str, int]:
    """Every acknowledged action is in the log at its version, none twice, no gaps."""
    rows = _query(database_url, "SELECT partie_id, seq, seat, word, client_action_id FROM actions")
    versions = dict(_query(database_url, "SELECT id, version FROM parties"))
    by_id = {}
    doubled = 0
    for pid, seq, seat, word, cid in rows:
        if cid is not None:
            doubled += (pid, cid) in by_id
            by_id[(pid, cid)] = (seq, seat, word)
    lost = sum(1 for cid, a in shared.acked.items() if by_id.get((a.partie, cid)) != (a.version, a.seat, a.word))
    gaps = 0
    for pid in parties:
        seqs = sorted(seq for p, seq, *_ in rows if p == pid)
        gaps += seqs != list(range(1, versions[pid] + 1))
    return {"acked": len(shared.acked), "lost": lost, "doubled": doubled, "gaps": gaps, "actions": len(rows)}


def replayed_views(database_url: str, pid: int) -> tuple[list[dict], bool]:
    """The views of every seat after replaying the log from the seed (outside the server)."""
    from app.parties.engines import new_engine

    [(game, settings, seed)] = _query(database_url, "SELECT game, settings, seed FROM parties WHERE id = :pid", {"pid": pid})
    actions = _query(database_url, "SELECT seat, word FROM actions WHERE partie_id = :pid ORDER BY seq", {"pid": pid})
    engine = new_engine(game, json.loads(settings) if isinstance(settings, str) else settings, seed)
    for seat, word in actions:
        engine.apply(seat, word)
    return [engine.view(s) for s in range(engine.n_seats)], engine.finished
