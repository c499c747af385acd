"""Load on the live server (issue 7): N tables of members playing random legal words.

Starts K uvicorn processes on 127.0.0.1 (one database, and Redis between them when
K > 1), registers the members of N tables over HTTP, proposes and accepts the parties,
opens one WebSocket per seat and plays random legal words for ``--duration`` seconds
(after ``--warmup``). Every seat is a member (no computer players). Prints tables,
sockets, actions/s, the ack latency (from sending an action to its ``ack``) p50/p95/p99,
the errors by kind, the servers' CPU per action and their memory per connection (RSS
before the sockets open and with all of them open, from /proc/PID/status).

    .venv/bin/python bench/load.py --tables 500 --duration 30
    .venv/bin/python bench/load.py --tables 200 --instances 2 --think 0 \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test --redis-url redis://127.0.0.1:6379/14

``--deflate on`` has the clients offer permessage-deflate (as browsers do) and the servers
accept it (uvicorn's ``--ws-per-message-deflate``, as ``KLUB_WS_PER_MESSAGE_DEFLATE``
does for ``python -m app serve``); the bytes the sockets received (TCP payload, from the
kernel's ``tcp_info``) are printed per action and socket.

A PostgreSQL URL gets its own fresh schema (``--pg-schema``, dropped and re-created),
so the tests' ``public`` schema is left alone. Loopback only; the servers are always
stopped (SIGTERM, then SIGKILL) when the bench ends, however it ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

try:  # the client must stay cheap: it shares the machine with the servers
    import orjson

    loads = orjson.loads

    def dumps(obj) -> str:
        return orjson.dumps(obj).decode()
except ImportError:
    loads = json.loads
    _encoder = json.JSONEncoder(separators=(",", ":"))
    dumps = _encoder.encode

PASSWORD = "bench-lozinka-7x"
# Preferans words a player may say out of turn or that end a hand early: rarely.
OPTIONAL = {"otpis", "preuzimam pad", "vracam pad", "nosim sve", "nemam pad", "nudim 2", "nudim 3", "nudim 4"}
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_times(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def check_loopback(url: str | None) -> None:
    if url and not url.startswith("sqlite"):
        host = urlsplit(url).hostname
        if host not in LOOPBACK:
            raise SystemExit(f"loopback addresses only, not {host!r}")


# -- the database ------------------------------------------------------------------------


def prepare_database(args, tmp: Path) -> str:
    from app.db.migrate import upgrade

    url = args.database_url or f"sqlite:///{tmp / 'load.db'}"
    check_loopback(url)
    if url.startswith(("postgresql", "postgres:")):
        from sqlalchemy import create_engine, text

        from app.db.database import normalize_url

        url = normalize_url(url)
        schema = args.pg_schema
        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        engine.dispose()
        sep = "&" if "?" in url else "?"
        url = f"{url}{sep}options={quote(f'-csearch_path={schema}')}"
    upgrade(url)
    if args.redis_url:
        check_loopback(args.redis_url)
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()
    return url


# -- the servers -------------------------------------------------------------------------


class Server:
    def __init__(self, database_url: str, redis_url: str | None, env_extra: dict[str, str], cpus: str | None,
                 deflate: bool = False):
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.url = self.origin
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "KLUB_DATABASE_URL": database_url,
            "KLUB_SITE_ORIGIN": self.origin,
            "KLUB_BOT_DELAY_SECONDS": "0",
            # The cheapest argon2id (the tests do the same): setup registers thousands of members.
            "KLUB_ARGON2_TIME_COST": "1",
            "KLUB_ARGON2_MEMORY_KIB": "8",
            # Thousands of registrations and logins come from 127.0.0.1.
            "KLUB_REGISTER_MAX_PER_ADDRESS": "1000000",
            "KLUB_LOGIN_MAX_FAILURES": "1000000",
            **env_extra,
        }
        self.env.pop("KLUB_REDIS_URL", None)
        if redis_url:
            self.env["KLUB_REDIS_URL"] = redis_url
        self.cpus = cpus
        self.deflate = deflate
        self.proc: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()

    def start(self) -> None:
        cmd = [sys.executable, "-m", "uvicorn", "--factory", "app.web.main:create_app",
               "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning",
               "--backlog", "4096", "--ws-per-message-deflate", str(self.deflate).lower()]
        if self.cpus:
            cmd = ["taskset", "-c", self.cpus, *cmd]
        self.proc = subprocess.Popen(cmd, env=self.env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def wait_ready(self, timeout: float = 60) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server on port {self.port} did not start:\n{self.output()}")
            time.sleep(0.1)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


# -- the players -------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.errors: Counter = Counter()
        self.conflicts: Counter = Counter()  # stale versions: a normal race, counted apart
        self.latencies: list[float] = []
        self.acks = 0
        self.sent = 0
        self.measuring = False
        self.finished_tables: set[int] = set()
        self.client_lags: list[float] = []  # how late this process's own loop woke up


async def watch_client_lag(stats: Stats, every: float = 0.01) -> None:
    """The client's event loop delay: a busy client makes every ack look late."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(every)
        if stats.measuring:
            stats.client_lags.append(loop.time() - t - every)


class Seat:
    """One member's socket: act after ``think`` seconds when it is this seat's turn."""

    __slots__ = ("pid", "server", "cookie", "ws", "seat", "version", "legal", "to_act", "deal",
                 "pending", "sent_at", "rng", "stats", "think", "game", "timer", "closing", "deflate", "opened_at")

    def __init__(self, pid: int, game: str, server: Server, cookie: str, stats: Stats, think: float, rng):
        self.pid, self.game, self.server, self.cookie = pid, game, server, cookie
        self.stats, self.think, self.rng = stats, think, rng
        self.ws = None
        self.seat = None
        self.version = -1
        self.legal: list[str] = []
        self.to_act: list[int] = []
        self.deal = 0
        self.pending: str | None = None
        self.sent_at = 0.0
        self.timer = None
        self.closing = False
        self.deflate = server.deflate
        self.opened_at = 0.0

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            f"{self.server.ws_url}/ws/parties/{self.pid}",
            additional_headers={"Cookie": self.cookie, "Origin": self.server.origin},
            max_size=2**22, open_timeout=60, compression="deflate" if self.deflate else None, ping_interval=None,
        )
        self.opened_at = time.perf_counter()  # the handshake done (bench/evening.py splits the wait)
        frame = loads(await asyncio.wait_for(self.ws.recv(), 60))
        if frame.get("type") != "state":
            raise RuntimeError(f"first frame {frame.get('type')}: {frame}")
        self.seat = frame["seat"]
        self.take(frame)

    def take(self, frame: dict) -> None:
        self.version = frame["version"]
        self.legal = frame["legal"]
        self.to_act = frame["to_act"]
        self.deal = frame.get("deal_index", 0)
        if frame.get("finished"):
            self.stats.finished_tables.add(self.pid)

    def maybe_act(self) -> None:
        if self.pending is not None or self.timer is not None or self.closing:
            return
        if self.seat not in self.to_act or not self.legal:
            return
        delay = self.think * (0.5 + self.rng.random()) if self.think > 0 else 0
        self.timer = asyncio.get_running_loop().call_later(delay, self.fire, self.version)

    def fire(self, version: int) -> None:
        self.timer = None
        if self.closing or self.pending is not None or version != self.version or self.seat not in self.to_act:
            return
        usual = [w for w in self.legal if w not in OPTIONAL]
        if not usual or self.rng.random() < 0.02:
            usual = self.legal
        word = self.rng.choice(usual)
        self.pending = uuid.uuid4().hex[:16]
        self.sent_at = time.perf_counter()
        self.stats.sent += 1
        asyncio.ensure_future(self._send(dumps({"type": "action", "id": self.pending, "word": word,
                                                "version": version})))

    async def _send(self, text: str) -> None:
        try:
            await self.ws.send(text)
        except Exception:
            pass  # the reader sees the disconnect

    async def play(self) -> None:
        from websockets.exceptions import ConnectionClosed

        stats = self.stats
        ws = self.ws
        self.maybe_act()
        try:
            while not self.closing:
                try:
                    text = await asyncio.wait_for(ws.recv(), 30 if self.pending else 3600)
                except asyncio.TimeoutError:
                    stats.errors["ack timeout (30 s)"] += 1
                    self.pending = None
                    self.maybe_act()
                    continue
                frame = loads(text)
                kind = frame.get("type")
                if kind == "event" or kind == "state":
                    if frame["version"] >= self.version:
                        self.take(frame)
                    if frame.get("finished"):
                        return
                elif kind == "ack":
                    if frame.get("id") == self.pending:
                        if stats.measuring:
                            stats.latencies.append(time.perf_counter() - self.sent_at)
                            stats.acks += 1
                        self.pending = None
                elif kind == "error":
                    code = frame.get("code", "?")
                    if code == "stale_version":
                        stats.conflicts[code] += 1
                    else:
                        stats.errors[f"error frame: {code}"] += 1
                    if frame.get("id") == self.pending:
                        self.pending = None
                self.maybe_act()
        except ConnectionClosed as e:
            if not self.closing:
                stats.errors[f"disconnect ({e.rcvd.code if e.rcvd else 'no close frame'})"] += 1
        except Exception as e:  # noqa: BLE001 - counted, never fatal to the bench
            if not self.closing:
                stats.errors[f"client: {type(e).__name__}"] += 1

    def bytes_received(self) -> int:
        """The TCP payload this socket has received (Linux tcp_info.tcpi_bytes_received)."""
        try:
            sock = self.ws.transport.get_extra_info("socket")
            info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
            return int.from_bytes(info[128:136], "little")
        except Exception:  # noqa: BLE001 - not Linux, or the socket is gone
            return 0

    async def close(self) -> None:
        self.closing = True
        if self.timer is not None:
            self.timer.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)


# -- setup over HTTP ---------------------------------------------------------------------


async def setup_tables(args, servers: list[Server], stats: Stats, rng: random.Random) -> list[Seat]:
    import httpx

    run = uuid.uuid4().hex[:4]
    games = [("lora" if i % 2 == 0 else "preferans") if args.game == "mixed" else args.game
             for i in range(args.tables)]
    gate = asyncio.Semaphore(args.setup_concurrency)
    clients = {s.port: httpx.AsyncClient(base_url=s.url, timeout=120, headers={"Origin": s.origin},
                                         # idle connections dropped before uvicorn's 5 s keep-alive
                                         # ends them, so none is reused as the server closes it
                                         limits=httpx.Limits(max_connections=args.setup_concurrency,
                                                             keepalive_expiry=2.0))
               for s in servers}

    async def call(server: Server, method: str, path: str, cookie: str | None = None, **kw):
        headers = {"Cookie": cookie} if cookie else {}
        async with gate:
            for attempt in range(3):
                try:
                    r = await clients[server.port].request(method, path, headers=headers, **kw)
                    break
                except httpx.HTTPError as e:
                    stats.errors[f"http: {type(e).__name__}"] += 1
                    if attempt == 2:
                        raise
        if r.status_code >= 400:
            stats.errors[f"http {r.status_code} {path.split('/')[2] if path.count('/') > 1 else path}"] += 1
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        return r

    async def register(server: Server, name: str) -> str:
        r = await call(server, "POST", "/api/auth/register", json={"name": name, "password": PASSWORD})
        return "; ".join(f"{k}={v}" for k, v in r.cookies.items())

    async def one(i: int, game: str) -> list[Seat]:
        n = 4 if game == "lora" else 3
        names = [f"ld{run}t{i}s{s}" for s in range(n)]
        home = servers[i % len(servers)]
        cookies = await asyncio.gather(*(register(home, name) for name in names))
        settings = {"bule": 200, "refe": 2} if game == "preferans" else {}
        body = {"game": game, "settings": settings, "seats": [{"kind": "member", "name": nm} for nm in names[1:]]}
        pid = (await call(home, "POST", "/api/parties", cookies[0], json=body)).json()["id"]
        for c in cookies[1:]:
            await call(home, "POST", f"/api/parties/{pid}/accept", c)
        out = []
        for s, cookie in enumerate(cookies):
            # --spread seat: every socket on the next instance (a plain load balancer);
            # --spread table: a table's sockets on one instance (sticky by partie).
            k = (i * n + s) if args.spread == "seat" else i
            out.append(Seat(pid, game, servers[k % len(servers)], cookie, stats, args.think,
                            random.Random(rng.random())))
        return out

    try:
        results = await asyncio.gather(*(one(i, g) for i, g in enumerate(games)))
    finally:
        for c in clients.values():
            await c.aclose()
    return [seat for table in results for seat in table]


# -- the run -----------------------------------------------------------------------------


async def run(args, servers: list[Server]) -> dict:
    stats = Stats()
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    seats = await setup_tables(args, servers, stats, rng)
    t_setup = time.perf_counter() - t0
    print(f"setup: {args.tables} tables, {len(seats)} members in {t_setup:.1f} s", flush=True)
    await asyncio.sleep(1)  # let the starts settle (computer-player pokes, caches)
    rss_before = {s.pid: rss_kib(s.pid) for s in servers}

    t0 = time.perf_counter()
    gate = asyncio.Semaphore(args.connect_concurrency)

    async def connect(seat: Seat) -> bool:
        async with gate:
            try:
                await seat.connect()
                return True
            except Exception as e:  # noqa: BLE001
                stats.errors[f"connect: {type(e).__name__}"] += 1
                return False

    ok = await asyncio.gather(*(connect(s) for s in seats))
    seats = [s for s, good in zip(seats, ok) if good]
    t_connect = time.perf_counter() - t0
    await asyncio.sleep(1)
    rss_after = {s.pid: rss_kib(s.pid) for s in servers}
    print(f"connected {len(seats)} sockets in {t_connect:.1f} s", flush=True)

    # The clients' own garbage collections (2,000 sockets) would stall their loop and show
    # up as server latency: none from here until the measurement ends.
    gc.collect()
    gc.freeze()
    gc.disable()
    players = [asyncio.ensure_future(s.play()) for s in seats]
    lag_watch = asyncio.ensure_future(watch_client_lag(stats))
    await asyncio.sleep(args.warmup)
    cpu0 = {s.pid: cpu_times(s.pid) for s in servers}
    received0 = sum(s.bytes_received() for s in seats)
    me0 = resource.getrusage(resource.RUSAGE_SELF)
    stats.measuring = True
    t_start = time.perf_counter()
    sent0 = stats.sent
    spy = None
    if args.profile:
        # py-spy (pip install py-spy) samples the first server while the GIL is held: where its CPU goes.
        spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(servers[0].pid),
                                "--duration", str(max(1, int(args.duration) - 1)), "--rate", "100", *(["--gil"] if args.profile_mode == "gil" else ["--idle", "--threads"]),
                                "--nonblocking", "--format", "raw", "-o", args.profile],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.perf_counter() - t_start
    cpu1 = {s.pid: cpu_times(s.pid) for s in servers}
    received = sum(s.bytes_received() for s in seats) - received0
    me1 = resource.getrusage(resource.RUSAGE_SELF)
    load = os.getloadavg()
    if spy is not None:
        spy.wait()

    for s in seats:
        s.closing = True
    await asyncio.gather(*(s.close() for s in seats))
    lag_watch.cancel()
    gc.enable()
    for p in players:
        p.cancel()
    await asyncio.gather(*players, return_exceptions=True)

    lat = sorted(stats.latencies)
    server_user = sum(cpu1[p][0] - cpu0[p][0] for p in cpu0)
    server_system = sum(cpu1[p][1] - cpu0[p][1] for p in cpu0)
    server_cpu = server_user + server_system
    rss_delta = sum(rss_after[p] - rss_before[p] for p in rss_before)
    return {
        "tables": args.tables,
        "game": args.game,
        "instances": len(servers),
        "spread": args.spread,
        "think": args.think,
        "sockets": len(seats),
        "setup_s": round(t_setup, 1),
        "connect_s": round(t_connect, 1),
        "duration_s": round(elapsed, 1),
        "actions": stats.acks,
        "actions_per_s": round(stats.acks / elapsed, 1),
        "sent_per_s": round((stats.sent - sent0) / elapsed, 1),
        "ack_ms": {f"p{p}": round(percentile(lat, p) * 1000, 1) for p in (50, 95, 99)},
        "ack_ms_max": round(lat[-1] * 1000, 1) if lat else None,
        "client_lag_ms": {f"p{p}": round(percentile(sorted(stats.client_lags), p) * 1000, 1) for p in (50, 99)}
        | {"max": round(max(stats.client_lags, default=0) * 1000, 1)},
        "errors": dict(stats.errors),
        "stale_version_conflicts": dict(stats.conflicts),
        "finished_tables": len(stats.finished_tables),
        "server_cpu_s": round(server_cpu, 1),
        "server_system_cpu_s": round(server_system, 1),
        "server_cpu_ms_per_action": round(server_cpu * 1000 / stats.acks, 2) if stats.acks else None,
        "deflate": args.deflate,
        "bytes_per_action_per_socket": round(received / stats.acks / seats_per_table(seats), 1)
        if stats.acks and seats else None,
        "client_cpu_s": round((me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime), 1),
        "server_rss_mib_before": round(sum(rss_before.values()) / 1024, 1),
        "server_rss_mib_connected": round(sum(rss_after.values()) / 1024, 1),
        "server_kib_per_socket": round(rss_delta / len(seats), 1) if seats else None,
        "loadavg": [round(x, 2) for x in load],
    }


def seats_per_table(seats: list[Seat]) -> float:
    """Sockets per table: each action reaches the sockets of its own table."""
    return len(seats) / len({s.pid for s in seats})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--duration", type=float, default=20.0, help="measured seconds (after --warmup)")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--game", choices=["lora", "preferans", "mixed"], default="mixed")
    p.add_argument("--database-url", default=None, help="default: a fresh SQLite file in a temporary folder")
    p.add_argument("--pg-schema", default="klub_load", help="the PostgreSQL schema the bench re-creates")
    p.add_argument("--redis-url", default=None)
    p.add_argument("--instances", type=int, default=1)
    p.add_argument("--spread", choices=["seat", "table"], default="seat",
                   help="sockets round-robin over the instances, or each table on one instance")
    p.add_argument("--think", type=float, default=0.4,
                   help="mean pause before a player acts (uniform 0.5x..1.5x); 0: act at once (closed loop)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--setup-concurrency", type=int, default=32)
    p.add_argument("--connect-concurrency", type=int, default=64)
    p.add_argument("--server-cpus", default=None, help="taskset CPU list for the servers, e.g. 0")
    p.add_argument("--client-cpus", default=None, help="CPU list for this client process, e.g. 1")
    p.add_argument("--server-env", action="append", default=[], metavar="KLUB_X=V",
                   help="extra environment for the servers (repeatable)")
    p.add_argument("--deflate", choices=["on", "off"], default="off",
                   help="permessage-deflate offered by the clients and accepted by the servers")
    p.add_argument("--timeout", type=float, default=900, help="the whole bench is stopped after this")
    p.add_argument("--profile", metavar="OUT", help="py-spy raw profile of the first server over the measured window")
    p.add_argument("--profile-mode", choices=["gil", "idle"], default="gil",
                   help="gil: where the CPU goes (the GIL holder); idle: every thread, waiting included")
    p.add_argument("--json", action="store_true", help="print the result as one JSON line too")
    args = p.parse_args()
    if args.instances > 1 and not args.redis_url:
        p.error("several instances need --redis-url (fan-out between them)")
    if args.instances > 1 and (args.database_url is None or args.database_url.startswith("sqlite")):
        print("note: several instances on one SQLite file", file=sys.stderr)
    if args.client_cpus:
        os.sched_setaffinity(0, {int(c) for c in args.client_cpus.split(",")})
    extra = dict(kv.split("=", 1) for kv in args.server_env)

    servers: list[Server] = []

    def on_signal(signum, frame):  # noqa: ARG001
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGALRM, on_signal)
    signal.alarm(int(args.timeout))
    try:
        with tempfile.TemporaryDirectory(prefix="klub-load-") as tmp:
            url = prepare_database(args, Path(tmp))
            servers = [Server(url, args.redis_url, extra, args.server_cpus, args.deflate == "on")
                       for _ in range(args.instances)]
            for s in servers:
                s.start()
            for s in servers:
                s.wait_ready()
            try:
                import uvloop

                runner = uvloop.run
            except ImportError:
                runner = asyncio.run
            result = runner(run(args, servers))
            for s in servers:
                if s.proc.poll() is not None:
                    result["errors"][f"server exited ({s.proc.returncode})"] = 1
            report(result)
            if args.json:
                print(json.dumps(result))
    except KeyboardInterrupt:
        print("stopped (time limit or signal)", file=sys.stderr)
        sys.exit(2)
    finally:
        signal.alarm(0)
        for s in servers:
            s.stop()
        for s in servers:
            out = s.output().strip()
            if out and ("Traceback" in out or "ERROR" in out):
                print(f"--- server {s.port} output (tail) ---\n{out[-2000:]}", file=sys.stderr)


def report(r: dict) -> None:
    lat = r["ack_ms"]
    print(f"tables {r['tables']} ({r['game']}), instances {r['instances']} (spread {r['spread']}), "
          f"sockets {r['sockets']}, think {r['think']} s")
    print(f"actions/s {r['actions_per_s']} ({r['actions']} acks in {r['duration_s']} s)")
    print(f"ack latency ms: p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  max {r['ack_ms_max']}")
    lag = r["client_lag_ms"]
    print(f"client loop delay ms (part of every latency above): p50 {lag['p50']}  p99 {lag['p99']}  max {lag['max']}")
    errors = ", ".join(f"{k}: {v}" for k, v in sorted(r["errors"].items())) or "none"
    print(f"errors: {sum(r['errors'].values())} ({errors}); stale-version conflicts: "
          f"{sum(r['stale_version_conflicts'].values())}; finished tables: {r['finished_tables']}")
    print(f"server CPU {r['server_cpu_s']} s ({r['server_system_cpu_s']} s in the kernel) = "
          f"{r['server_cpu_ms_per_action']} ms/action; client CPU {r['client_cpu_s']} s")
    print(f"received per action per socket: {r['bytes_per_action_per_socket']} bytes (permessage-deflate {r['deflate']})")
    print(f"server RSS {r['server_rss_mib_before']} MiB before sockets, {r['server_rss_mib_connected']} MiB connected: "
          f"{r['server_kib_per_socket']} KiB per socket")
    print(f"load average {' '.join(map(str, r['loadavg']))}")


if __name__ == "__main__":
    main()
