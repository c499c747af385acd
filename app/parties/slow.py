"""Slow parties (dopisna partija): a partie whose decision timer is an hour or more.

The one rule both the slow play (time banks, reminders) and the push notices use: a turn
in a slow partie is pushed to the member's devices (app/push/), a live one is not.
"""

from __future__ import annotations

SLOW_TIMER_SECONDS = 3600


def is_slow(timer_seconds: int | None) -> bool:
    """A partie with this decision timer (seconds; None: no timer) is a slow one."""
    return timer_seconds is not None and timer_seconds >= SLOW_TIMER_SECONDS
