"""The leak audit's players: random parties through a live server, every frame and body kept.

A partie is played by one WebSocket client per member seat (plus a spectator) choosing
random legal words; some seats may be computer players. Preferans parties end by the
rules (small bule) or by an otpis the seats propose and accept after a few hands; Lora
parties are abandoned after a few deals. While playing, the seats also read the table
over HTTP (view, legal words, events, score sheet, the running partie's record), so the
audit checks HTTP bodies as well as WebSocket frames with the one :class:`LeakCheck`.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import random
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.support.web import LeakCheck, member, recv, with_view, ws_connect

OPTIONAL = {"otpis", "preuzimam pad", "vracam pad", "nosim sve", "nemam pad", "nudim 2", "nudim 3", "nudim 4"}
_names = itertools.count()


@dataclass
class Audit:
    parties: int = 0
    frames: int = 0
    bodies: int = 0
    leaks: list[str] = field(default_factory=list)
    phases: Counter = field(default_factory=Counter)
    finished: int = 0


def phase_of(game: str, view: dict[str, Any]) -> str | None:
    """A coarse phase name of a seat's view (to show what the audit covered)."""
    if game == "lora":
        deal = view.get("deal") or {}
        if not deal.get("actions"):
            return "lora:deal-start"
        return "lora:trick-open" if deal.get("actions") and len(deal["actions"]) % 4 else "lora:trick-start"
    if view.get("offer"):
        return "preferans:offer"
    hand = view.get("hand") or {}
    return f"preferans:{hand.get('phase')}"


def choose(rng: random.Random, game: str, legal: list[str], deal_index: int, target: int) -> str | None:
    """A random legal word; optional preferans words now and then, an otpis (accepted) after ``target`` hands."""
    if game == "preferans" and deal_index >= target:
        if "otpis" in legal:
            return "otpis"
        if "prihvatam" in legal:
            return "prihvatam"
    usual = [w for w in legal if w not in OPTIONAL]
    if not usual or rng.random() < 0.05:
        usual = legal
    return rng.choice(usual) if usual else None


def start_partie(url: str, game: str, rng: random.Random) -> tuple[int, list, list[int]]:
    """A partie of fresh members; some seats (never seat 0) may be computer players."""
    n = 4 if game == "lora" else 3
    k = next(_names)
    bots = {s for s in range(1, n) if rng.random() < 0.25}
    clients = [member(url, f"a{k}x{s}") for s in range(n) if s not in bots]
    it = iter(clients[1:])
    seats = [{"kind": "bot"} if s in bots else {"kind": "member", "name": f"a{k}x{s}"} for s in range(1, n)]
    settings = {"bule": 30, "refe": rng.choice([0, 1, 2])} if game == "preferans" else {}
    r = clients[0].post("/api/parties", json={"game": game, "settings": settings, "seats": seats})
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    for c in it:
        assert c.post(f"/api/parties/{pid}/accept").status_code == 200
    return pid, clients, sorted(set(range(n)) - bots)


def _probe(client, pid: int, since: int) -> list[dict[str, Any]]:
    """HTTP bodies of the table, each as a frame the checker understands (version, deal_index)."""
    view = client.get(f"/api/parties/{pid}/view").json()
    out = [view]
    frame = {"version": view.get("version"), "deal_index": view.get("deal_index")}
    for path in ("/legal", "/score-sheet", ""):
        body = client.get(f"/api/parties/{pid}{path}").json()
        if body.get("version", view.get("version")) == view.get("version"):
            out.append({**frame, "body": body})
    events = client.get(f"/api/parties/{pid}/events", params={"since": max(0, since)}).json()
    out.extend(events["events"])
    if events["state"]:
        out.append(events["state"])
    rec = client.get(f"/api/parties/{pid}/record").json()
    out.append(record_frame(rec))
    return out


def record_frame(rec: dict[str, Any]) -> dict[str, Any]:
    """The export of a partie as a frame at its own version (the last deal is the one running)."""
    assert "seed" not in rec, "a record export carries the seed"
    if not rec.get("unfinished"):
        return {"version": 0, "deal_index": None, "record": rec}  # finished: everything may be shown
    version = sum(len(d["actions"]) for d in rec["deals"])
    # The deals before are over (face up); the running one must keep the others' cards.
    running = rec["deals"][rec["redacted_deal"]]
    return {"version": version, "deal_index": rec["redacted_deal"], "record": running}


async def play_seat(server, pid, client, rng, log, game, target, probe_rate) -> None:
    async with await ws_connect(server, pid, client, compression=None) as ws:
        frame = await recv(ws)
        seat, last, table = frame["seat"], frame["version"], frame
        log.append((seat, frame))
        pending = None
        while not table.get("finished") and table.get("deal_index", 0) < target + (game == "preferans") * 2:
            if rng.random() < probe_rate:
                for body in await asyncio.to_thread(_probe, client, pid, last - 2):
                    log.append((seat, {**body, "_http": True}))
            if pending is None and table["legal"] and table["version"] == last:
                word = choose(rng, game, table["legal"], table["deal_index"], target)
                if word is not None:
                    pending = uuid.uuid4().hex
                    await ws.send(json.dumps({"type": "action", "word": word, "version": last, "id": pending}))
            frame = with_view(table, await recv(ws, timeout=60))
            log.append((seat, frame))
            if frame["type"] in ("event", "state"):
                last, table = frame["version"], frame
            elif frame["type"] in ("ack", "error"):
                if frame.get("code") == "rate_limited":
                    await asyncio.sleep(0.2)  # the frame was dropped unread: back off before the next
                pending = None
        for body in await asyncio.to_thread(_probe, client, pid, last - 3):
            log.append((seat, {**body, "_http": True}))


async def watch(server, pid, client, log, target, game) -> None:
    async with await ws_connect(server, pid, client, compression=None) as ws:
        table = None
        while True:
            frame = with_view(table, await recv(ws, timeout=60))
            if frame["type"] in ("state", "event"):
                table = frame
            log.append((None, frame))
            if frame.get("finished") or frame.get("deal_index", 0) >= target + (game == "preferans") * 2:
                break
    for body in await asyncio.to_thread(_probe, client, pid, 0):
        log.append((None, {**body, "_http": True}))


def full_record(db, pid: int) -> dict[str, Any]:
    """The whole record (every hand), replayed from the seed and the log: the auditor's answer key."""
    from sqlalchemy import select

    from app.db.models import Action, Partie
    from app.parties.engines import new_engine

    with db.read() as s:
        partie = s.get(Partie, pid)
        engine = new_engine(partie.game, partie.settings or {}, partie.seed)
        for seat, word in s.execute(select(Action.seat, Action.word).where(Action.partie_id == pid).order_by(Action.seq)):
            engine.apply(seat, word)
        return engine.to_record([f"p{i}" for i in range(engine.n_seats)])


async def audit_partie(server, db, game: str, rng: random.Random, audit: Audit, probe_rate: float = 0.02) -> None:
    pid, clients, seats = await asyncio.to_thread(start_partie, server.url, game, rng)
    spectator = await asyncio.to_thread(member, server.url, f"kibic{next(_names)}")
    target = rng.randint(1, 2)
    log: list = []
    tasks = [play_seat(server, pid, c, random.Random(rng.random()), log, game, target, probe_rate) for c in clients]
    tasks.append(watch(server, pid, spectator, log, target, game))
    await asyncio.gather(*tasks)
    record = await asyncio.to_thread(full_record, db, pid)
    check = LeakCheck(record)
    finished = False
    for seat, frame in log:
        if frame.get("_http"):
            audit.bodies += 1
        else:
            audit.frames += 1
        finished |= bool(frame.get("finished"))
        view = frame.get("view")
        if isinstance(view, dict):
            audit.phases[phase_of(game, view)] += 1
        try:
            check.check(seat, frame)
        except AssertionError as e:
            audit.leaks.append(f"partie {pid} ({game}): {e}"[:600])
    audit.parties += 1
    audit.finished += finished
    for c in [*clients, spectator]:
        c.close()


async def run_audit(server, db, n: int, seed: int = 7, concurrency: int = 8) -> Audit:
    audit = Audit()
    rng = random.Random(seed)
    plan = [("preferans" if i % 2 else "lora", random.Random(rng.random())) for i in range(n)]
    gate = asyncio.Semaphore(concurrency)

    async def one(game, r):
        async with gate:
            await audit_partie(server, db, game, r, audit)

    # Every frame of a partie is kept until the partie is checked: with 8 parties at once
    # that is a million young objects, none of them garbage, and the collector's default
    # (a collection every 700 allocations) spent a fifth of the audit's CPU walking them.
    thresholds = gc.get_threshold()
    gc.set_threshold(10_000, 10, 10)
    try:
        await asyncio.gather(*(one(g, r) for g, r in plan))
    finally:
        gc.set_threshold(*thresholds)
    return audit
