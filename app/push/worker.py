"""The push worker: feeds the outbox from the told notices and sends it, in the background.

``notices.tell`` hands each notice to the hub's sinks (app/realtime/notices.py); the
push sink only puts it on an in-process queue (no database, no network: it runs on the
word path, after the word's commit). The worker task of the app's lifespan takes the
queue, writes the outbox rows (app/push/outbox.py), claims the due rows and posts them
from a few threads (app/push/sender.py). It wakes when a notice comes, when the Club's
clock is moved (tests), and every ``KLUB_PUSH_POLL_SECONDS`` for the rows of other
instances and the retries.

A notice still on the queue when the process dies is not pushed (the page's socket and
the unread count still tell it); a row in the outbox is.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from fastapi.concurrency import run_in_threadpool

from app.push import outbox
from app.clock import wait_woken
from app.db.outage import log_failure
from app.push.vapid import VapidKeys, load_keys

if TYPE_CHECKING:
    from app.club import Club

log = logging.getLogger("klub.push")
MAX_WAITING = 10_000  # notices on the queue; past it new ones are not pushed (and logged)
CLAIM_BATCH = 50


class PushService:
    def __init__(self, club: Club, describe: outbox.Describe):
        self.club = club
        self.describe = describe
        self.keys: VapidKeys | None = None
        self._incoming: queue.SimpleQueue[tuple[list[int], dict[str, Any]]] = queue.SimpleQueue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._wake_pending = False  # a wake-up for the notices is on its way to the loop
        self._claim_due = True  # the outbox may have due rows: claim them in the next round
        self._dropped = 0
        self._count_lock = threading.Lock()
        self.waiting = 0  # notices taken by the sink and not yet in the outbox

    # -- the sink: on the teller's thread, never blocking -------------------------------
    def sink(self, member_ids: list[int], notice: dict[str, Any]) -> None:
        if notice.get("kind") not in outbox.PUSHED or not member_ids:
            return
        if self._incoming.qsize() >= MAX_WAITING:
            self._dropped += 1
            if self._dropped % 1000 == 1:
                log.warning("push queue full: %s notices not pushed", self._dropped)
            return
        with self._count_lock:
            self.waiting += 1
        self._incoming.put((list(member_ids), dict(notice)))
        if not self._wake_pending:  # one wake-up of the loop for the notices of a burst
            self._wake_pending = True
            self._wake_loop()

    def poke(self) -> None:
        """Look at the outbox now (the clock moved; rows may be due)."""
        self._claim_due = True
        self._wake_loop()

    def _wake_loop(self) -> None:
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and not loop.is_closed():
            loop.call_soon_threadsafe(wake.set)

    # -- the keys -----------------------------------------------------------------------
    def load_keys(self) -> VapidKeys:
        if self.keys is None:
            self.keys = load_keys(self.club.db, self.club.settings)
        return self.keys

    @property
    def public_key(self) -> str:
        return self.load_keys().public_key

    # -- the worker task ----------------------------------------------------------------
    async def run(self) -> None:
        settings = self.club.settings
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._executor = ThreadPoolExecutor(max(1, settings.push_workers), thread_name_prefix="klub-push")
        self.club.clock.on_change(self.poke)
        try:
            await run_in_threadpool(self.load_keys)
            while True:
                self._wake.clear()
                self._wake_pending = False
                try:
                    await self._round()
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    log_failure(log, "push worker failed", e)
                if not self._incoming.empty():
                    continue
                await wait_woken(self._wake, settings.push_poll_seconds)
                if not self._wake.is_set():
                    self._claim_due = True  # the poll: other instances' rows, the retries
        finally:
            self._loop = None
            self._executor.shutdown(wait=False, cancel_futures=True)

    async def _round(self) -> None:
        batch = []
        while len(batch) < 500:
            try:
                batch.append(self._incoming.get_nowait())
            except queue.Empty:
                break
        if batch:
            try:
                if await run_in_threadpool(outbox.enqueue, self.club.db, batch, self.describe, self._at_table):
                    self._claim_due = True
            finally:
                with self._count_lock:
                    self.waiting -= len(batch)
        if not self._claim_due:
            return
        self._claim_due = False
        while True:
            jobs = await run_in_threadpool(outbox.claim, self.club.db, CLAIM_BATCH)
            if not jobs:
                return
            outcomes = await asyncio.gather(*(self._send(job) for job in jobs))
            await run_in_threadpool(outbox.settle, self.club.db, outcomes)
            if len(jobs) < CLAIM_BATCH:
                return

    async def _send(self, job: outbox.Job) -> outbox.Outcome:
        settings = self.club.settings
        assert self._executor is not None and self.keys is not None
        return await asyncio.get_running_loop().run_in_executor(
            self._executor, _sender().send, job, self.keys, settings.push_allow_loopback, settings.push_timeout_seconds)

    def _at_table(self, member_id: int, partie_id: int) -> bool:
        return self.club.viewers.is_seated(member_id, partie_id)


def _sender():
    """app.push.sender, imported at the first message sent: pywebpush brings requests and
    aiohttp, a fifth of a second of every server's start, and most servers never push."""
    from app.push import sender

    return sender


def attach(club: Club, describe: outbox.Describe) -> PushService:
    """The Club's push service, fed by every ``notices.tell`` of this instance."""
    service = PushService(club, describe)
    club.push = service
    club.hub.sinks.append(service.sink)
    return service

