"""Browser-facing protections: security headers on every response, and CSRF checks.

- Every HTTP response (pages, API, static files, errors) gets a Content-Security-Policy
  without inline scripts, ``X-Content-Type-Options: nosniff``, ``Referrer-Policy:
  same-origin`` and ``X-Frame-Options: DENY``; when the site is https
  (``KLUB_SITE_ORIGIN``), also ``Strict-Transport-Security`` (a year, subdomains
  included), as its cookies are then Secure. The policy names ``worker-src 'self'`` and
  ``manifest-src 'self'`` for the installable Club (``app/web/pwa.py``). Only the API explorer (``/docs``,
  ``/redoc``: FastAPI's pages load Swagger UI from a CDN with an inline script) gets a
  wider script and style source; it still may not be framed or load plugins.
- CSRF, layer 1 (every state-changing request): Fetch Metadata with an Origin fallback.
  ``Sec-Fetch-Site`` other than ``same-origin``/``none`` is refused; so is an ``Origin``
  other than ``KLUB_SITE_ORIGIN`` (403 ``bad_origin``). Browsers send one or both on
  every POST/PUT/PATCH/DELETE.
- CSRF, no header at all: a state-changing request that carries the session cookie but
  neither ``Origin`` nor ``Sec-Fetch-Site`` must prove itself with the session-bound
  token (:func:`form_token`): the ``X-CSRF-Token`` header (API clients get the value as
  ``csrf_token`` from login, register and ``GET /api/me``), or, for a form post
  (``application/x-www-form-urlencoded``, read here up to 64 KB), its ``csrf`` field.
  Otherwise 403 ``csrf_token_missing`` / ``csrf_token_invalid``. So a browser that
  strips both headers (an old one, a privacy extension) cannot be made to write with the
  member's cookie, and non-browser clients simply send ``Origin`` or the token.
- Login CSRF: requests *without* the session cookie (login, register) and without either
  header pass, since there is no session to protect and scripts log in that way. A
  cross-site login or registration from a browser carries a foreign ``Origin`` or
  ``Sec-Fetch-Site: cross-site`` and is refused by layer 1; only a browser sending
  neither header could be logged into another account, which we accept (every current
  browser sends ``Origin`` on a cross-site POST).
- CSRF, layer 2 (the pages' HTML forms of a logged-in member): the hidden ``csrf`` field
  is also checked by the page handlers (``app/web/ui.py``), with or without headers. The
  JSON API needs no token from browsers: a cross-site JSON POST needs a CORS preflight,
  which the Club never grants, and layer 1 applies anyway.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings
from app.members.cookies import form_token_ok, session_token
from app.web.request_body import read_body, replay

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SAME_SITE_FETCHES = frozenset({"same-origin", "none"})
DOCS_PATHS = ("/docs", "/redoc")
TOKEN_HEADER = "x-csrf-token"
HSTS = "max-age=31536000; includeSubDomains"
FORM_TYPE = "application/x-www-form-urlencoded"
MAX_FORM_BODY = 64 * 1024


def content_security_policy(settings: Settings, docs: bool = False) -> str:
    ws_origin = settings.site_origin.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
    extra = " https://cdn.jsdelivr.net 'unsafe-inline'" if docs else ""
    img = " https://fastapi.tiangolo.com" if docs else ""
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self'{extra}",
            f"style-src 'self'{extra}",
            f"img-src 'self' data:{img}",
            f"connect-src 'self' {ws_origin}",
            "font-src 'self'",
            "worker-src 'self'",  # the service worker, /sw.js (app/web/pwa.py)
            "manifest-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
            "form-action 'self'",
        ]
    )


def security_headers(settings: Settings, docs: bool = False) -> list[tuple[bytes, bytes]]:
    headers = {
        "content-security-policy": content_security_policy(settings, docs),
        "x-content-type-options": "nosniff",
        "referrer-policy": "same-origin",
        "x-frame-options": "DENY",
        "cross-origin-opener-policy": "same-origin",
    }
    if settings.secure_cookies:  # the site is https: browsers come back over https only
        headers["strict-transport-security"] = HSTS
    return [(k.encode(), v.encode()) for k, v in headers.items()]


def foreign_request(method: str, headers: dict[str, str], settings: Settings) -> bool:
    """True when a state-changing request comes from another site (CSRF, layer 1)."""
    if method not in UNSAFE_METHODS:
        return False
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in SAME_SITE_FETCHES:
        return True
    origin = headers.get("origin")
    return origin is not None and origin != settings.site_origin


def needs_token(method: str, headers: dict[str, str], has_session: bool) -> bool:
    """True when a state-changing request with the session cookie says nothing of where it
    comes from (neither ``Origin`` nor ``Sec-Fetch-Site``): it must carry the form token."""
    if method not in UNSAFE_METHODS or not has_session:
        return False
    return "origin" not in headers and "sec-fetch-site" not in headers


def _refusal(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


REFUSED_BODY = _refusal("bad_origin", "requests from another site are refused")
TOKEN_MISSING_BODY = _refusal(
    "csrf_token_missing",
    "a write with the session cookie needs this site's Origin or Sec-Fetch-Site header, "
    "or the X-CSRF-Token header (csrf_token of /api/me)",
)
TOKEN_INVALID_BODY = _refusal("csrf_token_invalid", "the CSRF token does not belong to this session")


class SecurityMiddleware:
    """Adds the security headers to every HTTP response and refuses cross-site writes."""

    def __init__(self, app: ASGIApp, settings: Settings):
        self.app = app
        self.settings = settings
        self.headers = security_headers(settings)
        self.docs_headers = security_headers(settings, docs=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        extra = self.docs_headers if path.startswith(DOCS_PATHS) else self.headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [h for h in extra if h[0] not in names]
            await send(message)

        async def refuse(body: bytes) -> None:
            await send_with_headers(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
                }
            )
            await send({"type": "http.response.body", "body": body})

        request_headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if foreign_request(scope["method"], request_headers, self.settings):
            await refuse(REFUSED_BODY)
            return
        session = session_token(HTTPConnection(scope), self.settings)
        if needs_token(scope["method"], request_headers, session is not None):
            submitted = request_headers.get(TOKEN_HEADER)
            content_type = request_headers.get("content-type", "").split(";")[0].strip().lower()
            if submitted is None and content_type == FORM_TYPE:
                messages, body = await read_body(receive, MAX_FORM_BODY)
                receive = replay(messages, receive)
                fields = parse_qs(body.decode("utf-8", "replace")) if body is not None else {}
                submitted = (fields.get("csrf") or [None])[0]
            if submitted is None:
                await refuse(TOKEN_MISSING_BODY)
                return
            if not form_token_ok(session, submitted):
                await refuse(TOKEN_INVALID_BODY)
                return
        await self.app(scope, receive, send_with_headers)
