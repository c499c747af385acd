"""Computations in worker processes, at most one per key at a time.

An analysis is CPU work of a second to a few: done in a thread it would hold the GIL the
tables need, so it runs in a pool of processes ("spawn": a fresh interpreter, none of the
server's threads and sockets). ``start(key, ...)`` submits unless that key is running
already (or was stored meanwhile); the ``store`` callback gets the result (on the pool's
thread) before the key is dropped, so an asker finds it either running or stored.
A failed computation is told once (:meth:`failure`); a broken pool (a worker killed) is
replaced at the next start. A worker whose server is gone (killed: no shutdown told it) ends
by itself within a second, mid-computation or idle, instead of living on as an orphan.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger("klub.analysis")

STARTED, RUNNING, STORED = "started", "running", "stored"


def end_with_parent(parent: int) -> None:
    """In a worker: a thread that ends the process once its parent (the server) is gone."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


class WorkerPool:
    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self.computations = 0  # computations submitted since the start (tests, monitoring)
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[Hashable, Future] = {}
        self._failed: dict[Hashable, str] = {}

    def running(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._running

    def failure(self, key: Hashable) -> str | None:
        """Why the last computation of ``key`` failed (told once; None: it did not)."""
        with self._lock:
            return self._failed.pop(key, None)

    def start(self, key: Hashable, fn: Callable[..., Any], args: tuple[Any, ...],
              store: Callable[[Any], None], stored: Callable[[], bool] = lambda: False) -> str:
        """Compute ``fn(*args)`` in a worker unless ``key`` is running already, or ``stored()``
        says its result is there (it may have been stored since the caller looked): STARTED,
        RUNNING or STORED."""
        with self._lock:
            if key in self._running:
                return RUNNING
            if stored():
                return STORED
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=end_with_parent, initargs=(os.getpid(),))
            pool = self._pool
            future = pool.submit(fn, *args)
            self._running[key] = future
            self._failed.pop(key, None)
            self.computations += 1
        future.add_done_callback(lambda f: self._finish(key, f, store, pool))
        return STARTED

    def _finish(self, key: Hashable, future: Future, store: Callable[[Any], None], pool: ProcessPoolExecutor) -> None:
        failed: str | None = None
        error = future.exception() if not future.cancelled() else None
        try:
            if future.cancelled():
                failed = "cancelled"
            elif error is None:
                store(future.result())
            else:
                failed = f"{type(error).__name__}: {error}"
                log.error("computation %r failed: %s", key, failed, exc_info=error)
        except Exception as e:  # the store failed
            failed = f"{type(e).__name__}: {e}"
            log.exception("the result of %r could not be stored", key)
        with self._lock:
            if self._running.get(key) is future:
                del self._running[key]
            if failed is not None:
                self._failed[key] = failed
            if isinstance(error, BrokenProcessPool) and self._pool is pool:
                self._pool = None  # a worker died: the next start makes a new pool

    def close(self) -> None:
        """Stop the worker processes (after the computation running); a later start makes new ones."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
