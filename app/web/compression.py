"""gzip for the Club's text responses: pages, JSON, scripts, styles (issue 39).

Starlette's ``GZipMiddleware`` does the work (a response of at least :data:`MINIMUM_SIZE`
bytes, to a client that accepts gzip, gets ``Content-Encoding: gzip`` and ``Vary:
Accept-Encoding``); this module only chooses what it may touch: the media types of
:data:`COMPRESSED`, nothing else. So the streams are left as they are: the bot API's event
streams (``application/x-ndjson``, a line the moment it is written), any
``text/event-stream``, the images and fonts; the WebSockets are not HTTP and pass by.

The pages carry the session's form token: it is masked afresh on every page
(``app.members.cookies.masked_form_token``), so compressing a page that also shows a
visitor's text (BREACH) reveals nothing of it.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipResponder
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MINIMUM_SIZE = 500
LEVEL = 6  # zlib's default: nearly level 9's size for a third of its CPU
COMPRESSED = frozenset({
    "text/html", "text/css", "text/javascript", "application/javascript", "text/plain",
    "application/json", "application/manifest+json", "application/problem+json", "image/svg+xml",
})


def media_type(headers: Headers) -> str:
    return headers.get("content-type", "").partition(";")[0].strip().lower()


class _Chooser(GZipResponder):
    """gzip's responder that leaves alone any response whose media type is not listed."""

    async def send_with_compression(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            kind = media_type(Headers(raw=message.get("headers", [])))
            if kind not in COMPRESSED:
                self.exclude_content_types = (kind,)  # passed through untouched, as it comes
        await super().send_with_compression(message)


class CompressionMiddleware:
    """gzip for the listed media types, to clients that accept it."""

    def __init__(self, app: ASGIApp, minimum_size: int = MINIMUM_SIZE, level: int = LEVEL) -> None:
        self.app = app
        self.minimum_size = minimum_size
        self.level = level

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or "gzip" not in Headers(scope=scope).get("accept-encoding", ""):
            await self.app(scope, receive, send)
            return
        await _Chooser(self.app, self.minimum_size, compresslevel=self.level)(scope, receive, send)
