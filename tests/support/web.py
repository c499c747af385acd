"""Helpers for the web tests: a live uvicorn, HTTP members, WebSocket players, a leak check."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import ssl
import subprocess
import sys
import threading
import time
from typing import Any

import httpx
import orjson
import uvicorn

from app.games.cards import CARD_NAMES
from tests.support.paths import ROOT

CARDS = set(CARD_NAMES)
PASSWORD = "klupska-lozinka-7"


def listening_socket() -> socket.socket:
    """A socket bound to a free port of 127.0.0.1 and listening, for a test server to serve
    on (in a thread, or in a child process that inherits it: ``uvicorn --fd``). Bound, not
    guessed: no other test process can take the port between choosing and serving."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def serve_command(sock: socket.socket, timeout_keep_alive: int | None = None) -> list[str]:
    """The command line of a Club in its own uvicorn process serving on ``sock`` (tests/support/serve_socket.py)."""
    keep_alive = [] if timeout_keep_alive is None else [str(timeout_keep_alive)]
    return [sys.executable, "-m", "tests.support.serve_socket", str(sock.fileno()), *keep_alive]


class LiveServer:
    def __init__(self, settings, clock=None):
        from app.web.main import create_app

        self.socket = listening_socket()
        self.port = self.socket.getsockname()[1]
        self.settings = settings.model_copy(update={"site_origin": f"http://127.0.0.1:{self.port}"})
        self.app = create_app(self.settings, clock)
        # No keepalive pings from the server in the tests (their sockets live seconds): a
        # ping's payload comes from the global `random`, and in this process's thread that
        # ran into Hypothesis's draws (a HypothesisDeprecationWarning, "Do not use the
        # `random` module inside strategies", test_faults_input.py's socket fuzzing).
        config = uvicorn.Config(self.app, log_level="warning", lifespan="on", ws_ping_interval=None)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        return self.settings.site_origin

    @property
    def club(self):
        return self.app.state.club

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
        self.socket.close()


class ServerProcess:
    """The Club in its own ``uvicorn`` process (as in production), configured by KLUB_ variables."""

    def __init__(self, settings):
        # The listening socket outlives each process: a restarted server serves on it again.
        self.socket = listening_socket()
        self.port = self.socket.getsockname()[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "KLUB_DATABASE_URL": settings.database_url,
            "KLUB_SITE_ORIGIN": self.origin,
            "KLUB_BOT_DELAY_SECONDS": "0",
            "KLUB_DEFAULT_BOT": settings.default_bot or "random",
            "KLUB_ARGON2_TIME_COST": str(settings.argon2_time_cost or 1),
            "KLUB_ARGON2_MEMORY_KIB": str(settings.argon2_memory_kib or 1024),
        }
        if settings.redis_url:
            self.env["KLUB_REDIS_URL"] = settings.redis_url
        self.proc: subprocess.Popen | None = None

    url = LiveServer.url
    ws_url = LiveServer.ws_url

    def start(self) -> None:
        self.proc = subprocess.Popen(
            serve_command(self.socket, timeout_keep_alive=75),  # idle connections closed under a client: rarer
            env=self.env,
            cwd=ROOT,
            pass_fds=[self.socket.fileno()],
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server process did not start")
            time.sleep(0.1)

    def close(self) -> None:
        """Stop the server for good, and free its port."""
        self.stop()
        self.socket.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class BrowserLikeTransport(httpx.HTTPTransport):
    """Retries a GET once when a kept-alive connection turns out closed or reset: the
    server may close an idle connection just as the client reuses it (uvicorn's keep-alive
    timeout), and browsers resend an idempotent request then. Writes are never resent."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return super().handle_request(request)
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError):
            if request.method not in ("GET", "HEAD"):
                raise
            return super().handle_request(request)


_TLS: ssl.SSLContext | None = None


def shared_tls() -> ssl.SSLContext:
    """One TLS context for every test client: httpx makes one per client otherwise, loading
    the system's certificates each time (about 20 ms of CPU, a tenth of an audited partie's
    client side), though the test servers speak plain HTTP."""
    global _TLS
    if _TLS is None:
        _TLS = ssl.create_default_context()
    return _TLS


def member(base_url: str, name: str, register: bool = True) -> httpx.Client:
    """An HTTP client logged in as ``name`` (registered first unless told otherwise)."""
    c = httpx.Client(base_url=base_url, timeout=30, headers={"Origin": base_url},  # a write needs it (CSRF)
                     transport=BrowserLikeTransport(verify=shared_tls()))
    path = "/api/auth/register" if register else "/api/auth/login"
    r = c.post(path, json={"name": name, "password": PASSWORD})
    assert r.status_code in (200, 201), r.text
    return c


def cookie_header(c: httpx.Client) -> str:
    return "; ".join(f"{k}={v}" for k, v in c.cookies.items())


def wait_for(predicate, timeout: float = 20, step: float = 0.02):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(step)


# A card name standing as a word of a JSON string: after the string's start, a space or an
# escaped newline or tab, and before its end, a space or an escape. The character before is
# matched, not looked behind at (a third faster); the one after is only looked at, so two
# cards with one space between are both found.
_CARD_WORD = re.compile(r'(?:[\s"]|\\[ntr])([789TJQKA][SDHC])(?=[\s"]|\\[ntr])')


def cards_in(value: Any) -> set[str]:
    """Every card name mentioned anywhere in a JSON value (also inside words like 'skart 7S 8S'),
    keys included: read from its JSON text (orjson's, the fastest), which is many times faster
    than walking it."""
    return set(_CARD_WORD.findall(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()))


REVEALING_WORDS = {"nosim sve", "nemam pad"}  # preferans: the declarer's hand is shown


class LeakCheck:
    """Which cards each seat may not see in each frame, from the finished partie's record.

    A frame shows the deal the engine is at (``deal_index``; a deal that has ended is
    over and may be shown face up). In it another seat's card is hidden until he plays
    it; a preferans declarer's whole hand is shown once he offers "nosim sve" or "nemam
    pad". Words said between two deals are filed at the end of the deal before (record
    format), so "played before version v" counts each action by its global position.
    """

    def __init__(self, record: dict[str, Any]):
        self.deals = record["deals"]
        self.starts = []
        total = 0
        for deal in self.deals:
            self.starts.append(total)
            total += len(deal["actions"])
        self.total = total

    def hidden(self, seat: int | None, version: int, deal_index: int) -> set[str]:
        if version >= self.total or deal_index >= len(self.deals):
            return set()
        deal = self.deals[deal_index]
        done = deal["actions"][: max(0, version - self.starts[deal_index])]
        hidden: set[str] = set()
        for other, hand in enumerate(deal["hands"]):
            if other == seat:
                continue
            if any(s == other and w in REVEALING_WORDS for s, w in done):
                continue
            played = {w for s, w in done if s == other}
            hidden.update(c for c in hand if c not in played)
        return hidden

    def check(self, seat: int | None, frame: dict[str, Any]) -> None:
        version = frame.get("version", 0)
        deal_index = frame.get("deal_index")
        if deal_index is None:
            return  # no table yet (a proposal), or a frame without cards (ack, chat, seats)
        rest = {k: v for k, v in frame.items() if k != "action"}
        view = rest.get("view")
        if isinstance(view, dict) and isinstance(view.get("last_deal"), dict):
            if view["last_deal"].get("deal_index", deal_index) < deal_index:
                # The deal before, shown face up once it ended: the rules reveal it.
                rest["view"] = {k: v for k, v in view.items() if k != "last_deal"}
        view = rest.get("view")
        if isinstance(view, dict) and isinstance(view.get("deal_ends"), list):
            # The ends of earlier deals name the cards played in them (tests/games/test_deal_ends.py).
            rest["view"] = {**view, "deal_ends": [e for e in view["deal_ends"] if e.get("index", deal_index) >= deal_index]}
        leaked = cards_in(rest) & self.hidden(seat, version, deal_index)
        if "action" in frame:
            actor, word = frame["action"]["seat"], frame["action"]["word"]
            if actor != seat and word not in CARDS:
                leaked |= cards_in(word)  # e.g. another seat's skart must stay face down
        assert not leaked, f"seat {seat} saw {sorted(leaked)} at version {version}: {json.dumps(frame)[:2000]}"


async def ws_connect(server: LiveServer, partie_id: int, client: httpx.Client, since: int | None = None,
                     origin: str | None = None, compression: str | None = "deflate"):
    """A table socket as ``client``'s member; permessage-deflate as browsers ask for it,
    unless ``compression=None`` (the leak audit: its frames are read, not their transport)."""
    from websockets.asyncio.client import connect

    url = f"{server.ws_url}/ws/parties/{partie_id}"
    if since is not None:
        url += f"?since={since}"
    return await connect(
        url,
        additional_headers={"Cookie": cookie_header(client), "Origin": origin or server.origin},
        max_size=2**22,
        open_timeout=10,
        compression=compression,
    )


async def recv(ws, timeout: float = 20) -> dict[str, Any]:
    text = await asyncio.wait_for(ws.recv(), timeout)
    try:
        return orjson.loads(text)  # the audit reads a million frames: the fastest parser
    except orjson.JSONDecodeError:
        return json.loads(text)  # escapes orjson refuses (a lone surrogate), or the error


def with_view(before: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any]:
    """An event frame with its seat's whole ``view``: the view of ``before`` (the state or
    event frame of the version just before) with the event's ``view_changes`` applied, as
    the clients do (app/tables/frames.py). Other frames as they are."""
    from app.tables.frames import apply_view_changes

    if frame.get("type") != "event" or "view" in frame:
        return frame
    assert before is not None and before.get("version") == frame["version"] - 1, (before and before.get("version"), frame)
    view = apply_view_changes(before.get("view"), frame)
    assert view is not None, f"view changes at version {frame['version']} without a view before"
    return {**frame, "view": view}
