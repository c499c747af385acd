"""The session cookie (its name, its flags, reading it from a request or a WebSocket) and
the CSRF token of the session's forms."""

from __future__ import annotations

import hashlib
import hmac

from starlette.requests import HTTPConnection
from starlette.responses import Response

from app.config import Settings


def session_token(conn: HTTPConnection, settings: Settings) -> str | None:
    return conn.cookies.get(settings.cookie_name) or None


def set_session_cookie(response: Response, settings: Settings, token: str) -> None:
    """HttpOnly, SameSite=Lax, Path=/; Secure and ``__Host-`` prefixed when the site is https."""
    response.set_cookie(
        settings.cookie_name,
        token,
        max_age=int(settings.session_max_days * 86400),
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


def clear_session_cookie(response: Response, settings: Settings) -> None:
    """Logs this browser out: the cookie goes, and so does the browser's HTTP cache of the
    site (``Clear-Site-Data: "cache"``: a back button must not show the member's pages to
    the next one). The service worker empties its own caches when it sees the logout
    (app/web/sw.js)."""
    response.headers["Clear-Site-Data"] = '"cache"'
    response.delete_cookie(
        settings.cookie_name, path="/", httponly=True, samesite="lax", secure=settings.secure_cookies
    )


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
