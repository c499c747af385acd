"""Per-member limits of the table WebSockets, shared by all of a member's sockets in a process.

Each socket has its own token bucket (``app/tables/ws.py``); without more, a member who
opens many sockets multiplies it. :class:`MemberLimits` adds, per member:

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
CLOSE_TOO_MANY = 4429


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
        self.buckets: dict[int, tuple[float, float]] = {}  # member -> (tokens, last refill)

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
        now = self.clock()
        tokens, last = self.buckets.get(member_id, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        if tokens < 1:
            self.buckets[member_id] = (tokens, now)
            return False
        self.buckets[member_id] = (tokens - 1, now)
        return True


def limits_of(app: Any) -> MemberLimits:
    """The app's :class:`MemberLimits` (made on first use; sockets run on one event loop)."""
    limits = getattr(app.state, "member_limits", None)
    if limits is None:
        limits = app.state.member_limits = MemberLimits()
    return limits
