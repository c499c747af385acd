"""The Club's clock: what "now" is for decision timers, deadlines, sessions and throttles.

One clock per Club, carried by its :class:`~app.db.Database` (``db.clock``, also
``club.clock``), so every service function that has the database has the clock. The
server runs on :class:`SystemClock`; a test hands ``create_app`` a :class:`ManualClock`
and moves it (``advance``) instead of waiting: a 60 s decision timer, a 24 h reset link
or a two-week session expire at once, and the watchers that sleep on a deadline wake up.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` whenever the time jumps (never for the system clock)."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(timezone.utc)

    def on_change(self, callback: Callable[[], None]) -> None:
        pass


class ManualClock:
    """A clock that stands still until it is moved; thread-safe."""

    def __init__(self, start: datetime | None = None):
        self._now = start or datetime.now(timezone.utc)
        if self._now.tzinfo is None:
            raise ValueError("a ManualClock starts at a timezone-aware time")
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, seconds: float = 0, **delta: float) -> datetime:
        """Move forward by ``seconds`` (and/or ``minutes=``, ``hours=``, ``days=``); returns the new now."""
        step = timedelta(seconds=seconds, **delta)
        if step < timedelta(0):
            raise ValueError("a clock does not go back")
        with self._lock:
            self._now += step
            now, listeners = self._now, list(self._listeners)
        for callback in listeners:
            callback()
        return now

    def on_change(self, callback: Callable[[], None]) -> None:
        with self._lock:
            self._listeners.append(callback)


def waker(loop, event) -> Callable[[], None]:
    """A clock listener that sets an asyncio ``event`` on ``loop`` (a watcher sleeping on a
    deadline looks at once); nothing once that loop has closed (an app that stopped while
    the clock lives on, as in a test that restarts the Club)."""

    def wake() -> None:
        try:
            loop.call_soon_threadsafe(event.set)
        except RuntimeError:
            pass

    return wake


async def wait_woken(event: asyncio.Event, seconds: float) -> None:
    """Wait until ``event`` is set or ``seconds`` have passed (a watcher's poll).

    Not ``asyncio.wait_for``: on Python 3.11 it loses a cancellation that arrives as the
    event is set, and a watcher's loop then never ends (an app's shutdown hung on it)."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        pass
