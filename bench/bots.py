"""Bots over the bot API at once (issue 27): words a second and the ack latency.

Starts the Club in its own uvicorn process (bench/load.py's Server), makes ``--bots``
bot accounts (one owner each) with tokens, and seats them in groups of three at
preferans tables: the first of a group proposes (bot:challenge) and names the other two,
who accept from their event streams. Every bot then follows its event stream and its
table's NDJSON stream and, when its seat is to act, posts a random legal word (after
``--think`` seconds) with the version and an action id, as examples/bot_client.py does.
A partie that ends is proposed again by the same group.

Measured over ``--duration`` seconds after ``--warmup``: the words applied a second,
the ack latency (from sending POST .../actions to its answer) p50/p95/p99/max, the
errors by code, and the server's CPU per word.

    .venv/bin/python bench/bots.py --bots 50 --duration 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from load import PASSWORD, Server, cpu_times, percentile, prepare_database  # noqa: E402

SETTINGS = {"bule": 60, "refe": 2}
OPTIONAL = {"otpis", "preuzimam pad", "vracam pad", "nosim sve", "nemam pad", "nudim 2", "nudim 3", "nudim 4"}


class Stats:
    def __init__(self):
        self.measuring = False
        self.latencies: list[float] = []
        self.applied = 0
        self.errors: Counter = Counter()
        self.parties = 0


class Bot:
    def __init__(self, name: str, token: str, url: str, stats: Stats, think: float, rng: random.Random):
        self.name, self.stats, self.think, self.rng = name, stats, think, rng
        self.http = httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {token}"},
                                      timeout=httpx.Timeout(30), limits=httpx.Limits(max_connections=8))
        self.playing: set[int] = set()
        self.tasks: set[asyncio.Task] = set()

    async def lines(self, path: str):
        async with self.http.stream("GET", path) as r:
            if r.status_code != 200:
                await r.aread()
                self.stats.errors[f"{path.split('/')[3]} {r.status_code}"] += 1
                return
            async for text in r.aiter_lines():
                if text.strip():
                    yield json.loads(text)

    async def events(self, on_partie) -> None:
        async for event in self.lines("/api/bot/stream"):
            partie = event.get("partie") or {}
            if event["type"] == "invitation":
                r = await self.http.post(f"/api/bot/parties/{partie['id']}/accept")
                if r.status_code != 200:
                    self.stats.errors[f"accept {r.json()['error']['code']}"] += 1
            elif event["type"] == "partie_started" and partie["status"] == "running" and partie["id"] not in self.playing:
                self.playing.add(partie["id"])
                task = asyncio.create_task(self.play(partie["id"], on_partie))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

    async def play(self, pid: int, on_partie) -> None:
        seat, acted = None, -1
        async for frame in self.lines(f"/api/bot/parties/{pid}/stream"):
            if frame["type"] == "end":
                self.stats.parties += 1
                await on_partie(self, pid)
                return
            if frame["type"] not in ("state", "event"):
                continue
            seat = frame.get("seat", seat)
            v, legal = frame["version"], frame["legal"]
            if v == acted or frame.get("finished") or seat not in frame["to_act"] or not legal:
                continue
            acted = v
            if self.think:
                await asyncio.sleep(self.think * (0.5 + self.rng.random()))
            usual = [w for w in legal if w not in OPTIONAL] or legal
            body = {"word": self.rng.choice(usual), "version": v, "action_id": f"{pid}:{seat}:{v}"}
            sent = time.perf_counter()
            r = await self.http.post(f"/api/bot/parties/{pid}/actions", json=body)
            took = time.perf_counter() - sent
            if self.stats.measuring:
                if r.status_code == 200:
                    self.stats.latencies.append(took)
                    self.stats.applied += 1
                else:
                    self.stats.errors[f"action {r.json()['error']['code']}"] += 1


async def setup(url: str, n: int) -> list[tuple[str, str]]:
    """``n`` bots, one owner each: (name, token)."""
    gate = asyncio.Semaphore(16)

    async def one(i: int) -> tuple[str, str]:
        async with gate, httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=60) as owner:
            r = await owner.post("/api/auth/register", json={"name": f"vlasnik{i}", "password": PASSWORD})
            assert r.status_code == 201, r.text
            r = await owner.post("/api/bots", json={"name": f"bot{i}"})
            assert r.status_code == 201, r.text
            r = await owner.post(f"/api/bots/bot{i}/tokens", json={"scopes": ["bot:play", "bot:challenge"]})
            return f"bot{i}", r.json()["token"]

    return list(await asyncio.gather(*(one(i) for i in range(n))))


async def run(args, server: Server) -> dict:
    rng = random.Random(args.seed)
    stats = Stats()
    made = await setup(server.url, args.bots)
    bots = [Bot(name, token, server.url, stats, args.think, random.Random(rng.random())) for name, token in made]
    groups = [bots[i:i + 3] for i in range(0, len(bots), 3)]

    async def propose(group: list[Bot]) -> None:
        seats = [{"kind": "member", "name": b.name} for b in group[1:]]
        seats += [{"kind": "bot", "bot": "random"}] * (2 - len(seats))
        r = await group[0].http.post("/api/bot/parties", json={"game": "preferans", "settings": SETTINGS, "seats": seats})
        if r.status_code != 201:
            stats.errors[f"propose {r.json()['error']['code']}"] += 1

    async def on_partie(bot: Bot, pid: int) -> None:
        group = next(g for g in groups if bot in g)
        if bot is group[0]:
            await propose(group)

    streams = [asyncio.create_task(b.events(on_partie)) for b in bots]
    await asyncio.sleep(0.5)  # the event streams are open
    await asyncio.gather(*(propose(g) for g in groups))
    await asyncio.sleep(args.warmup)
    cpu0, t0 = sum(cpu_times(server.pid)), time.perf_counter()
    stats.measuring = True
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed, cpu = time.perf_counter() - t0, sum(cpu_times(server.pid)) - cpu0
    for task in streams:
        task.cancel()
    for b in bots:
        for task in list(b.tasks):
            task.cancel()
    await asyncio.gather(*streams, *(t for b in bots for t in b.tasks), return_exceptions=True)
    for b in bots:
        await b.http.aclose()
    lat = sorted(x * 1000 for x in stats.latencies)
    return {
        "bots": len(bots), "tables": len(groups), "think": args.think, "duration_s": round(elapsed, 1),
        "words": stats.applied, "words_per_s": round(stats.applied / elapsed, 1), "parties_ended": stats.parties,
        "ack_ms": {p: round(percentile(lat, q), 1) for p, q in (("p50", 50), ("p95", 95), ("p99", 99))},
        "ack_ms_max": round(lat[-1], 1) if lat else None,
        "server_cpu_ms_per_word": round(1000 * cpu / max(1, stats.applied), 2),
        "errors": dict(stats.errors),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bots", type=int, default=50)
    p.add_argument("--duration", type=float, default=20.0)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--think", type=float, default=0.2, help="mean pause before a bot's word (0.5x..1.5x); 0: at once")
    p.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    p.add_argument("--pg-schema", default="klub_bots")
    p.add_argument("--redis-url", default=None)
    p.add_argument("--seed", type=int, default=27)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="klub-bots-") as tmp:
        url = prepare_database(args, Path(tmp))
        # The bench's bots play faster than the default limit allows a token (20 words/s).
        server = Server(url, args.redis_url, {"KLUB_BOT_WORDS_PER_SECOND": "1000"}, None)
        server.start()
        try:
            server.wait_ready()
            result = asyncio.run(run(args, server))
        finally:
            server.stop()
            out = server.output().strip()
            if "Traceback" in out:
                print(f"--- server output (tail) ---\n{out[-2000:]}", file=sys.stderr)
    lat = result["ack_ms"]
    print(f"bots {result['bots']} at {result['tables']} preferans tables, think {result['think']} s, "
          f"{result['duration_s']} s measured")
    print(f"words/s {result['words_per_s']} ({result['words']} words; {result['parties_ended']} parties ended)")
    print(f"ack latency ms: p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  max {result['ack_ms_max']}")
    print(f"server CPU per word {result['server_cpu_ms_per_word']} ms; errors {result['errors'] or 'none'}")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
