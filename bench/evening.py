"""A club evening at scale (issue 37, item 7): a duplikat round of N members on K instances.

Starts K uvicorn processes (PostgreSQL and Redis between them; bench/load.py's servers),
registers ``--members`` members spread over the instances, makes an organizer announce a
Lora (or preferans) duplikat with one round, registers everyone, and has every member
listen on his notices socket (``/ws/notices``, as every page does). Then the organizer
starts the round (POST /api/tournaments/{id}/start) and the bench measures, for each
member, from the start request:

- told: his ``round`` notice arrives, naming his table;
- dealt: his table's socket (opened on the notice, on the instance his notices socket is
  on) gives him the state frame of his seat, cards in hand.

Targets: every member told and dealt within 2 s of the start. Then every member plays at
a member's pace (``--think``, 0.4 s by default) for ``--duration`` seconds; the ack latency
of his words (sending an action to its ``ack``) p50/p95/p99; target p99 under 100 ms.

    .venv/bin/python bench/evening.py --members 400 --instances 2 \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test --redis-url redis://127.0.0.1:6379/9

Loopback only; the servers are always stopped when the bench ends.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from load import PASSWORD, Seat, Server, Stats, cpu_times, loads, percentile, prepare_database  # noqa: E402

ORGANIZER = "organizator"


async def setup(args, servers: list[Server], stats: Stats) -> tuple[int, list[tuple[str, Server]], str]:
    """The members (cookie, home instance), and the tournament they are registered in."""
    import httpx

    from app.db import Database
    from app.members.service import ensure_admin

    db = Database(args.url)
    ensure_admin(db, ORGANIZER, PASSWORD)
    db.dispose()
    gate = asyncio.Semaphore(args.setup_concurrency)
    clients = {s.port: httpx.AsyncClient(base_url=s.url, timeout=120, headers={"Origin": s.origin},
                                         limits=httpx.Limits(max_connections=args.setup_concurrency,
                                                             keepalive_expiry=2.0)) for s in servers}

    async def call(server: Server, method: str, path: str, cookie: str | None = None, **kw):
        async with gate:
            r = await clients[server.port].request(method, path, headers={"Cookie": cookie} if cookie else {}, **kw)
        if r.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        return r

    def cookie_of(r) -> str:
        return "; ".join(f"{k}={v}" for k, v in r.cookies.items())

    organizer = cookie_of(await call(servers[0], "POST", "/api/auth/login",
                                     json={"name": ORGANIZER, "password": PASSWORD}))
    start = (datetime.now(timezone.utc) + timedelta(hours=1)).isoformat()
    body = {"name": "Veče kluba", "game": args.game, "format": "duplikat", "rounds": 1, "timer": 60,
            "round_minutes": 120, "pause_minutes": 2, "start_at": start,
            **({"hands": 6} if args.game == "preferans" else {})}
    tid = (await call(servers[0], "POST", "/api/tournaments", organizer, json=body)).json()["id"]
    run = f"{random.Random(args.seed).randrange(36**4):04x}"

    async def member(i: int) -> tuple[str, Server]:
        home = servers[i % len(servers)]
        cookie = cookie_of(await call(home, "POST", "/api/auth/register",
                                      json={"name": f"ve{run}m{i}", "password": PASSWORD}))
        await call(home, "POST", f"/api/tournaments/{tid}/register", cookie)
        return cookie, home

    try:
        members = await asyncio.gather(*(member(i) for i in range(args.members)))
    finally:
        for c in clients.values():
            await c.aclose()
    return tid, members, organizer


async def listen(cookie: str, server: Server, told: asyncio.Future):
    """The member's notices socket: ``told`` gets (time, partie) of his round notice."""
    from websockets.asyncio.client import connect

    ws = await connect(f"{server.ws_url}/ws/notices", additional_headers={"Cookie": cookie, "Origin": server.origin},
                       open_timeout=60, ping_interval=None)

    async def read():
        async for text in ws:
            frame = loads(text)
            if frame.get("type") == "notice" and frame.get("kind") == "round" and not told.done():
                told.set_result((time.perf_counter(), frame["partie"]))

    return ws, asyncio.ensure_future(read())


def machine_busy() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine since boot (/proc/stat), every core."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields) - idle) / tick, sum(fields) / tick


def cpu_by_command() -> dict[tuple[int, str], float]:
    """CPU seconds of every process now, by (pid, command name)."""
    out = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # it ended
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        out[(int(stat.parent.name), name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


class CpuWindow:
    """CPU seconds spent between two moments: the machine's (every process, every core),
    this client's and each server's: whether the dealing waits on the cores or on itself."""

    def __init__(self, servers: list[Server]):
        self.servers = servers
        self.start = self.read()
        self.by_command = cpu_by_command()

    def read(self) -> tuple[float, float, float, list[float]]:
        busy, total = machine_busy()
        return busy, total, time.process_time(), [sum(cpu_times(s.proc.pid)) for s in self.servers]

    def spent(self) -> dict:
        busy, total, client, servers = self.read()
        b0, t0, c0, s0 = self.start
        names: dict[str, float] = {}
        for key, seconds in cpu_by_command().items():
            names[key[1]] = names.get(key[1], 0.0) + seconds - self.by_command.get(key, 0.0)
        return {"machine_busy_share": round((busy - b0) / max(total - t0, 1e-9), 2),
                "machine_cpu_s": round(busy - b0, 2), "client_cpu_s": round(client - c0, 2),
                "servers_cpu_s": [round(a - b, 2) for a, b in zip(servers, s0)],
                "by_command": {k: round(v, 2) for k, v in sorted(names.items(), key=lambda kv: -kv[1])[:6] if v > 0.05}}


async def run(args, servers: list[Server]) -> dict:
    import httpx

    stats = Stats()
    t0 = time.perf_counter()
    tid, members, organizer = await setup(args, servers, stats)
    print(f"setup: {len(members)} members registered in {time.perf_counter() - t0:.1f} s", flush=True)
    loop = asyncio.get_running_loop()
    told = [loop.create_future() for _ in members]
    sockets = await asyncio.gather(*(listen(c, s, f) for (c, s), f in zip(members, told)))
    await asyncio.sleep(1)

    rng = random.Random(args.seed)
    seats: list[Seat | None] = [None] * len(members)
    dealt: list[float | None] = [None] * len(members)
    opened: list[float | None] = [None] * len(members)

    async def sit(i: int) -> None:
        at, pid = await told[i]
        cookie, home = members[i]
        seat = Seat(pid, args.game, home, cookie, stats, args.think, random.Random(rng.random()))
        await seat.connect()  # the state frame of his seat: dealt
        dealt[i], opened[i] = time.perf_counter(), seat.opened_at
        seats[i] = seat

    sitting = [asyncio.ensure_future(sit(i)) for i in range(len(members))]
    # The client's own garbage collections (800 sockets: a full one took 0.3 s) would stall
    # its loop and show up as the servers' time, as in bench/load.py: none until the end.
    gc.collect()
    gc.freeze()
    gc.disable()
    async with httpx.AsyncClient(base_url=servers[0].url, headers={"Origin": servers[0].origin, "Cookie": organizer},
                                 timeout=120) as c:
        print("the round starts", flush=True)
        t_start, cpu = time.perf_counter(), CpuWindow(servers)
        r = await c.post(f"/api/tournaments/{tid}/start")
        t_answer = time.perf_counter() - t_start
        assert r.status_code == 200, r.text
    await asyncio.wait_for(asyncio.gather(*sitting), 120)
    dealing = cpu.spent()
    told_s = sorted(f.result()[0] - t_start for f in told)
    dealt_s = sorted(d - t_start for d in dealt if d is not None)
    # how the wait of each member splits: told, then the handshake, then the state frame
    handshake_s = sorted(o - f.result()[0] for o, f in zip(opened, told) if o is not None)
    first_frame_s = sorted(d - o for d, o in zip(dealt, opened) if d is not None and o is not None)
    tables = len({f.result()[1] for f in told})
    print(f"round started: {tables} tables; start answered in {t_answer:.2f} s; told max {told_s[-1]:.2f} s, "
          f"dealt max {dealt_s[-1]:.2f} s", flush=True)

    playing = [s for s in seats if s is not None]
    players = [asyncio.ensure_future(s.play()) for s in playing]
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    t_measure = time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.perf_counter() - t_measure
    gc.enable()
    for s in playing:
        s.closing = True
    await asyncio.gather(*(s.close() for s in playing))
    for p in players:
        p.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    for ws, reader in sockets:
        reader.cancel()
        await ws.close()
    lat = sorted(stats.latencies)
    return {
        "members": len(members), "instances": len(servers), "game": args.game, "tables": tables,
        "start_answered_s": round(t_answer, 2),
        "told_s": {"p50": round(percentile(told_s, 50), 2), "max": round(told_s[-1], 2)},
        "dealt_s": {"p50": round(percentile(dealt_s, 50), 2), "p90": round(percentile(dealt_s, 90), 2),
                    "p99": round(percentile(dealt_s, 99), 2), "max": round(dealt_s[-1], 2)},
        "handshake_s": {"p50": round(percentile(handshake_s, 50), 2), "max": round(handshake_s[-1], 2)},
        "first_frame_s": {"p50": round(percentile(first_frame_s, 50), 2), "max": round(first_frame_s[-1], 2)},
        "dealing_cpu": dealing,
        "think": args.think, "duration_s": round(elapsed, 1), "actions": stats.acks,
        "actions_per_s": round(stats.acks / elapsed, 1),
        "ack_ms": {f"p{p}": round(percentile(lat, p) * 1000, 1) for p in (50, 95, 99)},
        "ack_ms_max": round(lat[-1] * 1000, 1) if lat else None,
        "errors": dict(stats.errors), "stale_version_conflicts": sum(stats.conflicts.values()),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--members", type=int, default=400)
    p.add_argument("--instances", type=int, default=2)
    p.add_argument("--game", choices=["lora", "preferans"], default="lora")
    p.add_argument("--think", type=float, default=0.4)
    p.add_argument("--duration", type=float, default=30.0)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--database-url", default=None, help="default: a fresh SQLite file (one instance only)")
    p.add_argument("--pg-schema", default="klub_evening")
    p.add_argument("--redis-url", default=None)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--setup-concurrency", type=int, default=32)
    p.add_argument("--timeout", type=float, default=900)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.instances > 1 and not args.redis_url:
        p.error("several instances need --redis-url")
    servers: list[Server] = []
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    signal.alarm(int(args.timeout))
    try:
        with tempfile.TemporaryDirectory(prefix="klub-evening-") as tmp:
            args.url = prepare_database(args, Path(tmp))
            extra = {"KLUB_DEADLINE_POLL_SECONDS": "1"}
            servers = [Server(args.url, args.redis_url, extra, None) for _ in range(args.instances)]
            for s in servers:
                s.start()
            for s in servers:
                s.wait_ready()
            result = asyncio.run(run(args, servers))
            r = result
            print(f"{r['members']} members, {r['tables']} tables, {r['instances']} instances ({r['game']})")
            print(f"start answered {r['start_answered_s']} s; told p50 {r['told_s']['p50']} s max {r['told_s']['max']} s; "
                  f"dealt p50 {r['dealt_s']['p50']} s p90 {r['dealt_s']['p90']} s p99 {r['dealt_s']['p99']} s "
                  f"max {r['dealt_s']['max']} s (target: max under 2 s)")
            print(f"after the notice: handshake p50 {r['handshake_s']['p50']} s max {r['handshake_s']['max']} s; "
                  f"then the state frame p50 {r['first_frame_s']['p50']} s max {r['first_frame_s']['max']} s")
            d = r["dealing_cpu"]
            print(f"until the last dealt: machine busy {d['machine_busy_share']:.0%} ({d['machine_cpu_s']} CPU-s: "
                  f"client {d['client_cpu_s']}, servers {' + '.join(map(str, d['servers_cpu_s']))}, the rest "
                  f"PostgreSQL, Redis and others); by command: {d['by_command']}")
            print(f"think {r['think']} s: {r['actions_per_s']} actions/s; ack ms p50 {r['ack_ms']['p50']} "
                  f"p95 {r['ack_ms']['p95']} p99 {r['ack_ms']['p99']} max {r['ack_ms_max']} (target: p99 under 100)")
            print(f"errors {r['errors'] or 'none'}; stale-version conflicts {r['stale_version_conflicts']}")
            if args.json:
                print(json.dumps(result))
    except KeyboardInterrupt:
        print("stopped (time limit)", file=sys.stderr)
        sys.exit(2)
    finally:
        signal.alarm(0)
        for s in servers:
            s.stop()


if __name__ == "__main__":
    main()
