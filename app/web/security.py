"""Browser-facing protections: security headers on every response, and CSRF checks.

- Every HTTP response (pages, API, static files, errors) gets a Content-Security-Policy
  without inline scripts, ``X-Content-Type-Options: nosniff``, ``Referrer-Policy:
  same-origin`` and ``X-Frame-Options: DENY``. Only the API explorer (``/docs``,
  ``/redoc``: FastAPI's pages load Swagger UI from a CDN with an inline script) gets a
  wider script and style source; it still may not be framed or load plugins.
- CSRF, layer 1 (every state-changing request): Fetch Metadata with an Origin fallback.
  ``Sec-Fetch-Site`` other than ``same-origin``/``none`` is refused; so is an ``Origin``
  other than ``KLUB_SITE_ORIGIN``. Browsers send one or both on every POST/PUT/PATCH/
  DELETE; a request with neither is not from a browser (API clients, tests).
- CSRF, layer 2 (the pages' HTML forms of a logged-in member): a session-bound token in a
  hidden ``csrf`` field, derived from the HttpOnly session cookie (:func:`form_token`).
  The JSON API needs no token: a cross-site JSON POST needs a CORS preflight, which the
  Club never grants, and layer 1 applies anyway.
"""

from __future__ import annotations

import hashlib
import hmac
import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SAME_SITE_FETCHES = frozenset({"same-origin", "none"})
DOCS_PATHS = ("/docs", "/redoc")


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


def form_token(session_token: str | None) -> str:
    """The CSRF token of a session's HTML forms (empty without a session).

    Derived from the secret cookie token, so every instance computes the same value and
    neither the database (which keeps only the cookie's SHA-256) nor another site can.
    """
    if not session_token:
        return ""
    return hashlib.sha256(b"klub-form-token:" + session_token.encode()).hexdigest()


def form_token_ok(session_token: str | None, submitted: str | None) -> bool:
    expected = form_token(session_token)
    return bool(expected) and isinstance(submitted, str) and hmac.compare_digest(expected, submitted)


REFUSED_BODY = json.dumps(
    {"error": {"code": "bad_origin", "message": "requests from another site are refused"}}
).encode()


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

        request_headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if foreign_request(scope["method"], request_headers, self.settings):
            await send_with_headers(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(REFUSED_BODY)).encode())],
                }
            )
            await send({"type": "http.response.body", "body": REFUSED_BODY})
            return
        await self.app(scope, receive, send_with_headers)
