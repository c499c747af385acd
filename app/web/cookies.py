"""The session cookie: its name, its flags, reading it from a request or a WebSocket."""

from __future__ import annotations

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
    response.delete_cookie(
        settings.cookie_name, path="/", httponly=True, samesite="lax", secure=settings.secure_cookies
    )
