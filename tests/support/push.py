"""A push service on 127.0.0.1 for the push notice tests (tests/push/test_push.py), and the
browser's side of a subscription.

:class:`PushReceiver` is a small threaded HTTP server that plays the push service: it
keeps every POST (path, headers, body) and answers 201, or the status a test sets for a
path. :class:`Device` is a browser's subscription: its own ECDH P-256 key pair and auth
secret, as ``pushManager.subscribe()`` makes them; it checks a received message's VAPID
signature (RFC 8292) and decrypts its ``aes128gcm`` payload (RFC 8291) as the browser does.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # lower-cased names
    body: bytes
    status: int  # what the receiver answered


class PushReceiver:
    def __init__(self) -> None:
        self.received: list[Received] = []
        self.answers: dict[str, int | tuple[int, dict[str, str]]] = {}  # path -> status (default 201), headers
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.lock:
                    answer = receiver.answers.get(self.path, 201)
                    status, extra = answer if isinstance(answer, tuple) else (answer, {})
                    receiver.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()},
                                                      body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                for name, value in extra.items():
                    self.send_header(name, value)
                if status == 201:
                    self.send_header("Location", f"{receiver.url}/message/{len(receiver.received)}")
                self.end_headers()

            def log_message(self, *args):  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def at(self, path: str) -> list[Received]:
        with self.lock:
            return [r for r in self.received if r.path == path]


@dataclass
class Device:
    """One browser's push subscription at the receiver."""

    receiver: PushReceiver
    name: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def path(self) -> str:
        return f"/push/{self.name}"

    @property
    def endpoint(self) -> str:
        return self.receiver.url + self.path

    def subscription(self, **extra: Any) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives."""
        point = self.key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
                **extra}

    def messages(self) -> list[Received]:
        return self.receiver.at(self.path)

    def read(self, message: Received, server_key: str) -> dict[str, Any]:
        """Check the message as a push service and a browser would, and decrypt it: its notice."""
        check_vapid(message.headers, server_key, self.receiver.url)
        assert message.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(message.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)


def check_vapid(headers: dict[str, str], server_key: str, audience: str) -> dict[str, Any]:
    """``Authorization: vapid t=<JWT>,k=<key>``: the Club's key, an ES256 signature by it,
    aud the endpoint's origin, exp in the future (at most a day on); the JWT's claims."""
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid", headers["authorization"]
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    assert parts["k"] == server_key  # signed by the key the browser subscribed with
    head, claims, signature = parts["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    body = json.loads(unb64url(claims))
    assert body["aud"] == audience
    assert time.time() < body["exp"] <= time.time() + 24 * 3600
    assert body["sub"].startswith(("mailto:", "https://"))
    return body
