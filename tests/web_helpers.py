"""Helpers for the web tests: a live uvicorn, HTTP members, WebSocket players, a leak check."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from typing import Any

import httpx
import uvicorn

from app.games.cards import CARD_NAMES

CARDS = set(CARD_NAMES)
PASSWORD = "lozinka123"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, settings, port: int | None = None):
        from app.web.main import create_app

        self.port = port or free_port()
        self.settings = settings.model_copy(update={"site_origin": f"http://127.0.0.1:{self.port}"})
        self.app = create_app(self.settings)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

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


def member(base_url: str, name: str, register: bool = True) -> httpx.Client:
    """An HTTP client logged in as ``name`` (registered first unless told otherwise)."""
    c = httpx.Client(base_url=base_url, timeout=30)
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


def cards_in(value: Any) -> set[str]:
    """Every card name mentioned anywhere in a JSON value (also inside words like 'skart 7S 8S')."""
    found: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            found.update(tok for tok in v.split() if tok in CARDS)
        elif isinstance(v, dict):
            stack.extend(v.values())
            stack.extend(k for k in v.keys())
        elif isinstance(v, list):
            stack.extend(v)
    return found


REVEALING_WORDS = {"nosim sve", "nemam pad"}  # preferans: the declarer's hand is shown


class LeakCheck:
    """Which cards each seat may not see at each version, from the finished partie's record.

    At version v the current deal is the one whose actions run past v (a deal that has
    just ended is over and may be shown face up). Another seat's card is hidden until he
    plays it; a preferans declarer's whole hand is shown once he offers "nosim sve" or
    "nemam pad" (rules, section on ponuda).
    """

    def __init__(self, record: dict[str, Any]):
        self.deals = record["deals"]
        self.starts = []
        total = 0
        for deal in self.deals:
            self.starts.append(total)
            total += len(deal["actions"])
        self.total = total

    def hidden(self, seat: int | None, version: int) -> set[str]:
        if version >= self.total:
            return set()
        k = max(i for i, start in enumerate(self.starts) if start <= version)
        deal = self.deals[k]
        done = deal["actions"][: version - self.starts[k]]
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
        if "view" not in frame:
            assert not cards_in(frame) & self.hidden(seat, frame.get("version", 0)), frame
            return
        leaked = cards_in(frame) & self.hidden(seat, frame["version"])
        assert not leaked, f"seat {seat} saw {sorted(leaked)} at version {frame['version']}: {json.dumps(frame)[:2000]}"


async def ws_connect(server: LiveServer, partie_id: int, client: httpx.Client, since: int | None = None, origin: str | None = None):
    from websockets.asyncio.client import connect

    url = f"{server.ws_url}/ws/parties/{partie_id}"
    if since is not None:
        url += f"?since={since}"
    return await connect(
        url,
        additional_headers={"Cookie": cookie_header(client), "Origin": origin or server.origin},
        max_size=2**22,
        open_timeout=10,
    )


async def recv(ws, timeout: float = 20) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))
