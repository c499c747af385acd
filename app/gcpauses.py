"""Short garbage-collector pauses for a server holding thousands of live sockets.

Each open table socket keeps a few hundred container objects alive (the ASGI stack, its
tasks and queues), and CPython's full collections walk all of them: with 2,000 sockets
a full collection took 300-420 ms, every few seconds under load, which was the whole of
the ack latency's tail (docs/performance.md). So every ``freeze_seconds`` the
young objects are collected (a quick collection) and whatever survived is frozen
(``gc.freeze``): the automatic
collections then only walk the objects of the last few seconds. Objects still die by
reference counting as usual; only cycles among frozen objects wait for the complete
collection that runs every ``full_seconds``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
import time

log = logging.getLogger("klub.gc")


def freeze_survivors() -> None:
    """Collect the young generations, then freeze the rest. A complete collection here
    walked every object that came since the last freeze: after a round's start (800 new
    sockets on an instance) that was a third of a second in the middle of the dealing.
    The young garbage is collected; a cycle that became garbage after surviving two
    collections (a few seconds old) waits for the complete collection, as the frozen
    objects' cycles do."""
    gc.collect(1)
    gc.freeze()


def collect_everything() -> float:
    """Unfreeze, collect every generation and freeze again; the pause in seconds."""
    start = time.perf_counter()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return time.perf_counter() - start


# The automatic collections' thresholds while the freezes run: a young collection every
# 20,000 new objects, not 700. A round's start makes hundreds of thousands of objects
# that live (its sockets); with CPython's defaults the collections walked them again and
# again, about a tenth of the instance's time while the tables were dealt, a third of it
# after these (bench/evening.py, docs/performance.md). The freeze keeps the old ones out.
THRESHOLDS = (20_000, 20, 20)
_keepers = {"running": 0, "thresholds": gc.get_threshold()}  # the servers of this process (tests run several)
_keepers_lock = threading.Lock()


async def keep_pauses_short(freeze_seconds: float, full_seconds: float) -> None:
    if freeze_seconds <= 0:
        return
    last_full = time.monotonic()
    with _keepers_lock:
        if _keepers["running"] == 0:
            _keepers["thresholds"] = gc.get_threshold()
            gc.set_threshold(*THRESHOLDS)
        _keepers["running"] += 1
    try:
        while True:
            await asyncio.sleep(freeze_seconds)
            if full_seconds > 0 and time.monotonic() - last_full >= full_seconds:
                pause = collect_everything()
                last_full = time.monotonic()
                log.info("complete garbage collection: %.0f ms", pause * 1000)
            else:
                freeze_survivors()
    finally:
        gc.unfreeze()  # a stopped server (or a test's app) leaves the collector as it found it
        with _keepers_lock:
            _keepers["running"] -= 1
            if _keepers["running"] == 0:
                gc.set_threshold(*_keepers["thresholds"])
