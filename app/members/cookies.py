"""The session cookie (its name, its flags, reading it from a request or a WebSocket) and
the CSRF token of the session's forms."""

from __future__ import annotations

import hashlib
import hmac
import secrets

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


def masked_form_token(session_token: str | None) -> str:
    """The form token as a page shows it: a fresh random mask, then the token XOR the mask
    (hex, twice the token's length). Every page carries other bytes for the same token, so
    a compressed page that also shows a visitor's text reveals nothing of it (BREACH; the
    pages are gzipped, app/web/compression.py). :func:`form_token_ok` takes both forms."""
    token = form_token(session_token)
    if not token:
        return ""
    raw = bytes.fromhex(token)
    mask = secrets.token_bytes(len(raw))
    return (mask + bytes(a ^ b for a, b in zip(raw, mask))).hex()


def session_mark(session_token: str | None) -> str:
    """A short mark of the session that the pages may show (``data-session`` of the header's
    name: push.js sends a device's subscription again after a new login); it tells nothing
    of the cookie or the form token."""
    if not session_token:
        return ""
    return hashlib.sha256(b"klub-session-mark:" + session_token.encode()).hexdigest()[:12]


def _unmasked(submitted: str) -> str:
    """A masked token's plain value ('' for anything that is not one)."""
    try:
        raw = bytes.fromhex(submitted)
    except ValueError:
        return ""
    half = len(raw) // 2
    return bytes(a ^ b for a, b in zip(raw[:half], raw[half:])).hex()


def form_token_ok(session_token: str | None, submitted: str | None) -> bool:
    """The session's form token, plain (API clients: ``csrf_token`` of /api/me) or masked (the pages')."""
    expected = form_token(session_token)
    if not expected or not isinstance(submitted, str):
        return False
    if len(submitted) == 2 * len(expected):
        submitted = _unmasked(submitted)
    return hmac.compare_digest(expected.encode(), submitted.encode())
