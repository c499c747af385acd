"""The Club served behind a reverse proxy's setting on a real uvicorn, and a client of it."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import httpx
import uvicorn

from app.cli import uvicorn_options
from tests.support.web import PASSWORD, listening_socket


@contextmanager
def served(settings, **update):
    """The Club on uvicorn in a thread, as ``python -m app serve`` runs it; yields its URL."""
    from app.web.main import create_app

    sock = listening_socket()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    settings = settings.model_copy(update={"site_origin": url, **update})
    config = uvicorn.Config(create_app(settings), log_level="warning", lifespan="on", ws_ping_interval=None,
                            **uvicorn_options(settings))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(20)
        sock.close()


def browser(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=30, headers={"Origin": url})  # a write with a session needs it (CSRF)


def register(c: httpx.Client, name: str, forwarded: str | None = None) -> httpx.Response:
    headers = {"X-Forwarded-For": forwarded} if forwarded is not None else {}
    return c.post("/api/auth/register", json={"name": name, "password": PASSWORD}, headers=headers)
