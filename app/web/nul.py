"""No text of the Club holds a NUL character (U+0000).

PostgreSQL's text cannot store or even compare one (``psycopg.DataError``), while SQLite
takes it: so a NUL in a name, a token's label or an action id was a 500 on one database
and stored on the other. Every HTTP request with a NUL in its path, its query string or a
string of its JSON or form body is refused here, before any endpoint runs: 422
``nul_character``, and nothing changes. (The table socket checks its frames' ids itself:
``app/tables/ws.py``.)
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.request_body import read_body, replay

BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Bodies are read whole before the app, so there is a bound: the largest the Club takes is a
# record import (1 MB, app/parties/archive.py).
MAX_BODY = 4 * 1024 * 1024


def holds_nul(value: Any) -> bool:
    """True when a NUL is in a string of ``value`` (a JSON document: keys included).

    Walked with a stack, not by recursion: a body nested a thousand deep is JSON too."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            if any("\x00" in k for k in item):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _query_holds_nul(query: bytes) -> bool:
    if b"%00" not in query and b"\x00" not in query:
        return False
    return holds_nul(dict(parse_qsl(query.decode("latin-1"), keep_blank_values=True)))


def _body_holds_nul(body: bytes) -> bool:
    if b"\x00" in body:
        return True
    if b"\\u0000" in body:  # JSON's only spelling of a NUL (a raw one is not JSON)
        try:
            return holds_nul(orjson.loads(body))
        except orjson.JSONDecodeError:
            return False  # not JSON: the endpoint says so
    if b"%00" in body:  # a form post
        return any("\x00" in k or "\x00" in v for k, v in parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    return False


def _refusal(status: int, code: str, message: str) -> tuple[dict, dict]:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
    }
    return start, {"type": "http.response.body", "body": body}


class NulMiddleware:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        where = None
        if "\x00" in scope.get("path", ""):
            where = "the path"
        elif _query_holds_nul(scope.get("query_string", b"")):
            where = "the query string"
        elif scope["method"] in BODY_METHODS:
            messages, body = await read_body(receive, MAX_BODY)
            if body is None:
                for message in _refusal(413, "too_large", f"the body has at most {MAX_BODY} bytes"):
                    await send(message)
                return
            receive = replay(messages, receive)
            if _body_holds_nul(body):
                where = "the body"
        if where is None:
            await self.app(scope, receive, send)
            return
        message = f"a NUL character (U+0000) is in {where}: no text of the Club holds one"
        for part in _refusal(422, "nul_character", message):
            await send(part)
