"""A background watcher on the Club's clock: look now, then again every so often, or at
once when a test moves the clock; a failed look is logged (one line while the database is
out of reach) and the next turn tries again. The deadlines, the tournaments' rounds, the
leagues' calendars and the bots' ladder each run one."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from app.clock import Clock, wait_woken, waker
from app.db.outage import log_failure


async def watch(clock: Clock, every_seconds: float, look: Callable[[], Awaitable[None]], logger: logging.Logger,
                what: str) -> None:
    """Run ``look`` now and at each turn, until cancelled; ``what`` names its failures."""
    loop = asyncio.get_running_loop()
    moved = asyncio.Event()  # the clock jumped (a test moved it): look now, not at the next turn
    clock.on_change(waker(loop, moved))
    while True:
        moved.clear()
        try:
            await look()
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log_failure(logger, what, e)
        await wait_woken(moved, every_seconds)
