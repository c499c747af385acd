"""Limits of the table WebSockets: a token bucket per socket, and per member in a process.

Each socket has its own :class:`TokenBucket` (``SOCKET_RATE_PER_SECOND`` on average,
bursts of ``SOCKET_RATE_BURST``); without more, a member who opens many sockets
multiplies it. :class:`MemberLimits` adds, per member:

- at most ``MAX_CONNECTIONS`` simultaneous table sockets (a further one is accepted,
  told ``too_many_connections`` and closed with code ``CLOSE_TOO_MANY`` and a reason);
- one token bucket for all of the member's frames: ``RATE_PER_SECOND`` on average,
  bursts of ``RATE_BURST``. A frame passes only when both its socket's and its member's
  buckets have a token.

The counts live in the process (one per app, in ``app.state``): with several instances
behind a balancer each one applies them to the sockets it holds. A member's bucket is
dropped when his last socket closes, so the table holds only connected members.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

MAX_CONNECTIONS = 8
RATE_PER_SECOND = 40
RATE_BURST = 120
SOCKET_RATE_PER_SECOND = 20
SOCKET_RATE_BURST = 60
CLOSE_TOO_MANY = 4429


class TokenBucket:
    """Bursts of ``burst`` tokens, refilled at ``rate`` per second."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.tokens = self.burst
        self.refilled = clock()

    def allow(self) -> bool:
        """Take one token; False (nothing taken) when the bucket is empty."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class MemberLimits:
    def __init__(
        self,
        max_connections: int = MAX_CONNECTIONS,
        rate: float = RATE_PER_SECOND,
        burst: float = RATE_BURST,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.max_connections = max_connections
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.connections: dict[int, int] = {}
        self.buckets: dict[int, TokenBucket] = {}

    def open(self, member_id: int) -> bool:
        """Count a new socket of the member; False (nothing counted) when he has the maximum."""
        n = self.connections.get(member_id, 0)
        if n >= self.max_connections:
            return False
        self.connections[member_id] = n + 1
        return True

    def close(self, member_id: int) -> None:
        n = self.connections.get(member_id, 0) - 1
        if n > 0:
            self.connections[member_id] = n
        else:
            self.connections.pop(member_id, None)
            self.buckets.pop(member_id, None)

    def allow(self, member_id: int) -> bool:
        """Take one token of the member's bucket; False when it is empty."""
        bucket = self.buckets.get(member_id)
        if bucket is None:
            bucket = self.buckets[member_id] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.allow()


def limits_of(app: Any) -> MemberLimits:
    """The app's :class:`MemberLimits` (made on first use; sockets run on one event loop)."""
    limits = getattr(app.state, "member_limits", None)
    if limits is None:
        limits = app.state.member_limits = MemberLimits()
    return limits
