"""Login and registration throttling, kept in the database (table ``login_failures``).

Every failed login adds one row per key (``account:<name>``, ``address:<ip>``). When a
key has ``login_max_failures`` failures within ``login_window_seconds``, further
attempts on it are refused (429 with ``Retry-After``) until the oldest of them leaves
the window. The rows live in the shared database, so every instance agrees. A success
clears the account's failures (not the address's).

Registration: every account created adds a row ``register:<ip>``; an address with
``register_max_per_address`` of them within ``register_window_seconds`` gets 429
``too_many_registrations`` with ``Retry-After`` and nothing is created. The row is taken
in the same transaction as the count (:func:`registration_slot`), before the password is
hashed, and given back when the registration fails (a taken name, a weak password).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from sqlalchemy import delete, select, text
from sqlalchemy.orm import Session

from app.config import Settings
from app.db import Database
from app.db.models import LoginFailure
from app.errors import ClubError


class TooManyAttempts(ClubError):
    status, code = 429, "too_many_attempts"

    def __init__(self, retry_after: int):
        super().__init__(
            f"too many failed logins; try again in {retry_after} seconds", retry_after=retry_after
        )
        self.retry_after = retry_after


class TooManyRegistrations(ClubError):
    status, code = 429, "too_many_registrations"

    def __init__(self, retry_after: int):
        super().__init__(
            f"too many new accounts from this address; try again in {retry_after} seconds",
            retry_after=retry_after,
        )
        self.retry_after = retry_after


def keys_for(name: str, address: str | None) -> list[str]:
    keys = [f"account:{str(name).lower()[:64]}"]
    if address:
        keys.append(f"address:{address[:64]}")
    return keys


def check(db: Database, settings: Settings, keys: list[str]) -> None:
    """Raise :class:`TooManyAttempts` when any key is at the limit."""
    now = db.clock.now()
    window = timedelta(seconds=settings.login_window_seconds)
    with db.read() as s:
        waits = [w for key in keys if (w := _wait(s, key, now, window, settings.login_max_failures)) is not None]
    if waits:
        raise TooManyAttempts(max(waits))


def _wait(s: Session, key: str, now: datetime, window: timedelta, limit: int) -> int | None:
    """Seconds until ``key`` is under ``limit`` rows in the window again; None when it is now."""
    # The limit-th newest row of the window, read alone (the database skips the newer ones
    # in the index): the key is free again when it leaves the window.
    limit_th = s.scalar(
        select(LoginFailure.created_at)
        .where(LoginFailure.key == key, LoginFailure.created_at > now - window)
        .order_by(LoginFailure.created_at.desc())
        .offset(limit - 1)
        .limit(1)
    )
    if limit_th is None:
        return None
    return max(1, math.ceil((limit_th + window - now).total_seconds()))


def record_failure(db: Database, settings: Settings, keys: list[str]) -> None:
    now = db.clock.now()
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


@contextmanager
def registration_slot(db: Database, settings: Settings, address: str | None) -> Iterator[None]:
    """Take one of the address's registrations for the block; given back if the block fails.

    Raises :class:`TooManyRegistrations` (before the block runs) when the address has none
    left. Without an address (no client information) nothing is counted.
    """
    if not address:
        yield
        return
    key = f"register:{address[:64]}"
    now = db.clock.now()
    window = timedelta(seconds=settings.register_window_seconds)
    with db.write() as s:
        if not db.is_sqlite:  # SQLite's BEGIN IMMEDIATE already serialises the writers
            s.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": zlib.crc32(key.encode())})
        wait = _wait(s, key, now, window, settings.register_max_per_address)
        if wait is not None:
            raise TooManyRegistrations(wait)
        s.execute(delete(LoginFailure).where(LoginFailure.key == key, LoginFailure.created_at <= now - window))
        row = LoginFailure(key=key, created_at=now)
        s.add(row)
        s.flush()
        row_id = row.id
    try:
        yield
    except BaseException:
        with db.write() as s:
            s.execute(delete(LoginFailure).where(LoginFailure.id == row_id))
        raise
