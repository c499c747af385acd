"""The word writer: one thread applies the words of a SQLite database, several per commit.

SQLite has one writer at a time. Words submitted from the event loop, the REST workers
and the computer players queue here instead of on the database's lock; the thread takes
every word waiting (up to ``max_batch``) and applies them in one transaction (the
``apply`` it is given: :func:`app.tables.service.apply_words`), so under load a commit and a thread switch are
shared by many words. Each word's future is answered only after its commit. The thread
starts with the first word and ends after ``idle_seconds`` without one.

A word from the event loop (``submit_async``) gets an asyncio future, settled by one
call into its loop per batch: a thread's future and its wrapping for the loop, made per
word, were about a twentieth of the server's CPU under load.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.tables.words import Applied, Word

log = logging.getLogger("klub.writer")
_STOP = object()


class WordWriter:
    def __init__(
        self,
        apply: Callable[[list[Word]], list[Applied | BaseException]],
        max_batch: int = 64,
        idle_seconds: float = 30.0,
    ):
        self.apply = apply
        self.max_batch = max_batch
        self.idle_seconds = idle_seconds
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopped = False
        self.batches = 0  # transactions run (for tests and curious operators)

    def submit(self, word: Word) -> Future[Applied]:
        """Queue a word; the future gets its :class:`Applied` or its error after the commit."""
        future: Future = Future()
        if not self._put((word, future)):
            future.set_exception(RuntimeError("the server is stopping"))
        return future

    def submit_async(self, word: Word) -> asyncio.Future[Applied]:
        """:meth:`submit` from the running event loop: the future is the loop's own."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if not self._put((word, (loop, future))):
            future.set_exception(RuntimeError("the server is stopping"))
        return future

    def _put(self, item: tuple) -> bool:
        """Queue (word, its future), starting the thread if none runs; False once stopped."""
        with self._lock:
            if self._stopped:
                return False
            self._queue.put(item)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="klub-word-writer", daemon=True)
                self._thread.start()
        return True

    def stop(self, timeout: float = 30) -> None:
        """Apply what is queued, then end the thread (a graceful shutdown loses nothing)."""
        with self._lock:
            self._stopped = True
            thread = self._thread
            if thread is not None:
                self._queue.put(_STOP)
        if thread is not None:
            thread.join(timeout)

    def _next_batch(self) -> list | None:
        """The words waiting (at least one), or None when the thread is to end."""
        try:
            first = self._queue.get(timeout=self.idle_seconds)
        except queue.Empty:
            with self._lock:
                if self._queue.empty():
                    self._thread = None  # the next submit starts a new thread
                    return None
            return []
        batch = [first]
        while len(batch) < self.max_batch:
            try:
                batch.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return batch

    def _run(self) -> None:
        while True:
            batch = self._next_batch()
            if batch is None:
                return
            stopping = _STOP in batch
            if stopping:
                # Whatever was queued before the stop is still applied.
                while True:
                    try:
                        batch.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                batch = [item for item in batch if item is not _STOP]
            if batch:
                self._apply(batch)
            if stopping:
                return

    def _apply(self, batch: list) -> None:
        try:
            outcomes = self.apply([word for word, _ in batch])
        except BaseException as e:  # never leave a caller waiting
            log.exception("the word writer failed")
            outcomes = [e] * len(batch)
        self.batches += 1
        by_loop: dict[asyncio.AbstractEventLoop, list] = {}
        for (_, future), outcome in zip(batch, outcomes):
            if isinstance(future, tuple):  # (loop, asyncio future): settled in its loop below
                loop, future = future
                by_loop.setdefault(loop, []).append((future, outcome))
                continue
            try:
                if isinstance(outcome, BaseException):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)
            except InvalidStateError:
                pass  # the caller stopped waiting (its socket closed): the word stands all the same
        for loop, settled in by_loop.items():
            try:
                loop.call_soon_threadsafe(_settle, settled)
            except RuntimeError:
                pass  # the loop is closed: nobody waits any more; the words stand all the same


def _settle(settled: list) -> None:
    """In the event loop: answer its futures of a batch."""
    for future, outcome in settled:
        if future.done():
            continue  # the caller stopped waiting (its socket closed): the word stands all the same
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)
