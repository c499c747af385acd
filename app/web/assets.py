"""The Club's static files: versioned URLs, long-lived caching, gzip.

- ``static_url("js/table.js")`` -> ``/static/js/table.js?v=<first 10 hex digits of the
  file's SHA-256>``: every template names its scripts, styles and icons this way, so a
  changed file gets a new URL and a browser never runs yesterday's script with today's page.
- A request for a versioned URL (``?v=`` present) gets ``Cache-Control: public,
  max-age=31536000, immutable``; an unversioned one ``no-cache`` (the browser asks again,
  with its ETag, and gets a 304 when nothing changed).
- A game whose descriptor names a directory of its own (``assets``: a game outside the
  Club's tree brings its scripts with it) has its files at ``/games/<code>/<file>``,
  versioned the same way (:func:`game_script_url`).
- Text files leave gzip-compressed to a client that accepts it, as every page and JSON
  answer does (``app/web/compression.py``, around the whole app).
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import NotFound
from app.games.base import GameError
from app.games.descriptor import GameDescriptor
from app.games.registry import descriptor

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
PREFIX = "/static/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@lru_cache(maxsize=None)
def _version(path: str, mtime_ns: int) -> str:
    return hashlib.sha256((STATIC / path).read_bytes()).hexdigest()[:10]


def static_url(path: str) -> str:
    """The versioned URL of a file under ``static/`` (``path`` relative to it)."""
    path = path.lstrip("/")
    file = STATIC / path
    try:
        version = _version(path, file.stat().st_mtime_ns)
    except OSError:
        return PREFIX + path  # a missing file: its plain URL (a 404 the tests would see)
    return f"{PREFIX}{path}?v={version}"


class CachedStatic:
    """The static files with their Cache-Control header (immutable when versioned)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        versioned = any(part.startswith(b"v=") for part in scope.get("query_string", b"").split(b"&"))

        async def send_cached(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (200, 304):
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                headers.append((b"cache-control", (IMMUTABLE if versioned else REVALIDATE).encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_cached)


def static_app(directory: Path = STATIC) -> ASGIApp:
    return CachedStatic(StaticFiles(directory=directory))


# -- a game's own files (its descriptor's ``assets`` directory)

router = APIRouter(include_in_schema=False)
ASSET_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\.(?:js|css)")


@lru_cache(maxsize=None)
def _file_version(path: str, mtime_ns: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:10]


def game_script_url(game: GameDescriptor, name: str) -> str:
    """The versioned URL of one of a game's scripts (its ``script``, its ``sheet``): under
    ``/games/<code>/`` when its ``assets`` have it, else the Club's under ``static/js/``
    (``plain.js``, the table of a game without a script of its own)."""
    file = Path(game.assets) / name if game.assets is not None else None
    if file is None or not file.is_file():
        return static_url("js/" + name)
    return f"/games/{game.code}/{name}?v={_file_version(str(file), file.stat().st_mtime_ns)}"


@router.get("/games/{code}/{name}")
def game_asset(code: str, name: str, request: Request) -> FileResponse:
    """A file of a game's ``assets`` directory (a script or a style, no subfolders)."""
    try:
        game = descriptor(code)
    except GameError:
        raise NotFound("no such file", code="not_found") from None
    file = Path(game.assets) / name if game.assets is not None and ASSET_NAME.fullmatch(name) else None
    if file is None or not file.is_file():
        raise NotFound("no such file", code="not_found")
    cache = IMMUTABLE if "v" in request.query_params else REVALIDATE
    return FileResponse(file, headers={"Cache-Control": cache})
