"""The client behind reverse proxies (``KLUB_TRUSTED_PROXIES``), and every request's id.

A request's direct peer is believed about whom it relays (``X-Forwarded-For``), over
which scheme (``X-Forwarded-Proto``) and under which id (``X-Request-ID``) only when the
peer is a trusted proxy. The client is then the right-most address of the
X-Forwarded-For chain that is not a trusted proxy itself: each proxy appends the address
it got the request from, so what stands left of that one was written by the client and
may be anything; a chain of trusted addresses only gives its left-most. The client
replaces ``scope["client"]`` (port 0, as with uvicorn's ProxyHeadersMiddleware), where
the registration and login throttles, the pages and uvicorn's access log read it.

The app does this itself rather than uvicorn's ProxyHeadersMiddleware, which ``python -m
app serve`` turns off (app/cli.py): that middleware replaces the peer before the app
sees it, so an X-Request-ID could not be told to come from a proxy or from anyone; and
so the Club reads its clients the same way whatever serves it (the tests' TestClient,
plain uvicorn, which trusts loopback by default as this setting does).

Every HTTP request and WebSocket gets an id: the trusted proxy's ``X-Request-ID`` when
it is a plain token (letters, digits, ``._:/+=@-``, at most 128), else a new one. It
is the log records' ``request_id`` (app/logs.py) and the response's X-Request-ID.
"""

from __future__ import annotations

import functools
import ipaddress
import re
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import parse_networks  # in app/config.py: the settings check it as they load
from app.logs import REQUEST_ID

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
_REQUEST_ID = re.compile(rb"[A-Za-z0-9._:/+=@-]{1,128}")
MAX_HOST = 64  # longer than any written address (an IPv6 one with a zone has at most ~60)


def address_of(host: str | None) -> Address | None:
    """The IP address a host string names (an IPv4-mapped IPv6 address as IPv4), else None."""
    if not host or len(host) > MAX_HOST:
        return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_loopback(host: str | None) -> bool:
    address = address_of(host)
    return address is not None and address.is_loopback


def _host_of(item: str) -> str:
    """One X-Forwarded-For entry without its port (``1.2.3.4:80``, ``[::1]:80``), its
    address written the standard way; an entry that is no address is kept as it is."""
    item = item.strip()[:MAX_HOST]
    if item.startswith("["):
        item = item[1:].split("]", 1)[0]
    elif item.count(":") == 1:
        item = item.split(":", 1)[0]
    address = address_of(item)
    return str(address) if address is not None else item


class TrustedProxies:
    def __init__(self, spec: str):
        self.networks = tuple(parse_networks(spec))
        self._trusts = functools.lru_cache(maxsize=4096)(self._compute)

    def __contains__(self, host: str | None) -> bool:
        if not self.networks or not host or len(host) > MAX_HOST:
            return False
        return self._trusts(host)

    def _compute(self, host: str) -> bool:
        address = address_of(host)
        return address is not None and any(address in network for network in self.networks)

    def client_of(self, chain: str) -> str | None:
        """The client an X-Forwarded-For chain names (when a trusted proxy sent it); None if it is empty."""
        hosts = [host for host in map(_host_of, chain.split(",")) if host]
        for host in reversed(hosts):
            if host not in self:
                return host
        return hosts[0] if hosts else None


def request_id_of(value: bytes | None) -> str:
    if value is not None and _REQUEST_ID.fullmatch(value):
        return value.decode()
    return uuid.uuid4().hex


class ClientMiddleware:
    """The client's own address, scheme and request id, for every layer inside it."""

    def __init__(self, app: ASGIApp, trusted: str):
        self.app = app
        self.trusted = TrustedProxies(trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind != "http" and kind != "websocket":
            await self.app(scope, receive, send)
            return
        peer = scope.get("client")
        asked_id = None
        if peer and peer[0] in self.trusted:
            forwarded: list[bytes] = []
            proto = None
            for name, value in scope["headers"]:
                if name == b"x-forwarded-for":
                    forwarded.append(value)
                elif name == b"x-forwarded-proto":
                    proto = value.strip().lower()
                elif name == b"x-request-id":
                    asked_id = value.strip()
            if forwarded:
                client = self.trusted.client_of(b",".join(forwarded).decode("latin-1"))
                if client:
                    scope["client"] = (client, 0)
            if proto in (b"http", b"https"):
                scheme = proto.decode()
                scope["scheme"] = scheme.replace("http", "ws") if kind == "websocket" else scheme
        request_id = request_id_of(asked_id)
        # Not reset after the call: each request runs in its own task (its own context),
        # and the log line of an unhandled error, written outside this middleware, needs it.
        REQUEST_ID.set(request_id)
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        header = (b"x-request-id", request_id.encode())

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        await self.app(scope, receive, send_with_id)
