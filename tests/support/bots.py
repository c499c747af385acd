"""Helpers for the bot API's tests: a bot account with a token, and a TCP relay whose
connections a test can cut (a dropped network, as the client sees it)."""

from __future__ import annotations

import json
import socket
import threading
from typing import Any

from tests.support.web import listening_socket

ALL_SCOPES = ["bot:play", "bot:challenge", "bot:tournament"]


def new_bot(owner, name: str, scopes: list[str] | None = None, days: int = 30) -> str:
    """Create ``owner``'s bot ``name`` (an HTTP client logged in as the owner) and a token of it."""
    r = owner.post("/api/bots", json={"name": name})
    assert r.status_code == 201, r.text
    return new_token(owner, name, scopes, days)


def new_token(owner, name: str, scopes: list[str] | None = None, days: int = 30) -> str:
    r = owner.post(f"/api/bots/{name}/tokens", json={"scopes": scopes or ALL_SCOPES, "days": days})
    assert r.status_code == 201, r.text
    return r.json()["token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class CuttableRelay:
    """A TCP relay in front of a server (``url`` is its own address): ``cut()`` closes
    every connection through it at once, both ways, as a lost network would."""

    def __init__(self, target_port: int):
        self.target = ("127.0.0.1", target_port)
        self.listener = listening_socket()
        self.port = self.listener.getsockname()[1]
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        self.cuts = 0
        self.thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> CuttableRelay:
        self.thread.start()
        return self

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            for s in (client, server):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                self.pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        with self.lock:
            pairs, self.pairs = self.pairs, []
            self.cuts += 1
        for pair in pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def close(self) -> None:
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        except OSError:
            pass
        self.listener.close()
        self.cut()


def lines_of(response) -> list[dict[str, Any]]:
    import json

    return [json.loads(x) for x in response.text.splitlines() if x.strip()]


def stream_lines(stream):
    """The JSON lines of a bot's event stream, keep-alive blank lines left out."""
    for text in stream.iter_lines():
        if text.strip():
            yield json.loads(text)
