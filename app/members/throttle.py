"""Login throttling, per account and per address, kept in the database.

Every failed login adds one row per key (``account:<name>``, ``address:<ip>``). When a
key has ``login_max_failures`` failures within ``login_window_seconds``, further
attempts on it are refused (429 with ``Retry-After``) until the oldest of them leaves
the window. The rows live in the shared database, so every instance agrees. A success
clears the account's failures (not the address's).
"""

from __future__ import annotations

import math
from datetime import timedelta

from sqlalchemy import delete, select

from app.config import Settings
from app.db import Database
from app.db.models import LoginFailure
from app.db.types import utcnow
from app.errors import ClubError


class TooManyAttempts(ClubError):
    status, code = 429, "too_many_attempts"

    def __init__(self, retry_after: int):
        super().__init__(
            f"too many failed logins; try again in {retry_after} seconds", retry_after=retry_after
        )
        self.retry_after = retry_after


def keys_for(name: str, address: str | None) -> list[str]:
    keys = [f"account:{str(name).lower()[:64]}"]
    if address:
        keys.append(f"address:{address[:64]}")
    return keys


def check(db: Database, settings: Settings, keys: list[str]) -> None:
    """Raise :class:`TooManyAttempts` when any key is at the limit."""
    now = utcnow()
    window = timedelta(seconds=settings.login_window_seconds)
    limit = settings.login_max_failures
    waits = []
    with db.read() as s:
        for key in keys:
            recent = s.scalars(
                select(LoginFailure.created_at)
                .where(LoginFailure.key == key, LoginFailure.created_at > now - window)
                .order_by(LoginFailure.created_at.desc())
                .limit(limit)
            ).all()
            if len(recent) >= limit:
                # Free again when the limit-th newest failure leaves the window.
                waits.append((recent[-1] + window - now).total_seconds())
    if waits:
        raise TooManyAttempts(max(1, math.ceil(max(waits))))


def record_failure(db: Database, settings: Settings, keys: list[str]) -> None:
    now = utcnow()
    with db.write() as s:
        s.execute(
            delete(LoginFailure).where(
                LoginFailure.key.in_(keys),
                LoginFailure.created_at <= now - timedelta(seconds=settings.login_window_seconds),
            )
        )
        s.add_all([LoginFailure(key=k, created_at=now) for k in keys])


def clear(db: Database, key: str) -> None:
    with db.write() as s:
        s.execute(delete(LoginFailure).where(LoginFailure.key == key))
