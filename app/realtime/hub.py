"""The notice hub.

A notice is a small dict such as ``{"kind": "advance", "version": 12}`` on a channel
such as ``partie:7``. It says *that* something changed, never a card: each connection
then reads what its own seat may see from the table cache (and the database behind it).
So losing or doubling a notice can delay a frame but never leak or corrupt one.

Without Redis the hub delivers to this process's subscribers. With Redis it also
publishes them on ``klub:<db>:notices`` and delivers what other instances publish. Redis
channels are shared by all its database numbers; ``<db>``, the number of the Redis URL,
keeps two Clubs on one Redis (``/0`` and ``/1``) apart.

Inside ``with hub.batch():`` the notices a thread publishes are held and sent when the
block ends: one wake-up of the event loop for all of them, and one Redis message
carrying every (channel, notice) pair in order. Every instance hears every hub channel
(one pattern subscription), so a Redis channel per hub channel would only multiply the
messages each instance sends and parses. The word writer sends the notices of a
committed batch of words so (app/tables/service.py).

The Redis messages go out from one publishing thread per instance (``_Outbox``): whoever
publishes (the event loop included) only hands them over, and what waited while the last
message went out leaves as one message, in order. A publish on the event loop used to wait
for Redis' answer there: at a round's start, with hundreds of sockets arriving at once and
each arrival published, that held every other socket of the instance.

Redis away (stopped, restarted, cut off): what is published meanwhile is lost, and the
log in the database is what counts. So every subscriber of an instance gets
``{"kind": "resync"}`` (on each of its channels) when that instance may have missed
notices: when its subscription comes back after a lost connection, when another
instance says a publish of its own failed (it says so once Redis takes its messages
again), and when another instance starts (its predecessor may have died between a
commit and its publish). A table socket then reads the events after the last version it
sent (app/tables/ws.py), a notices socket its counts. A failed publish waits
``PAUSE_SECONDS`` before the next try, so the word writer never waits on a Redis that is
away (connect and socket timeouts of ``TIMEOUT_SECONDS``, one retry on a new connection).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import orjson

log = logging.getLogger("klub.hub")

REDIS_PREFIX = "klub:"
NOTICES_CHANNEL = "notices"  # the Redis channel (after the prefix) of every instance's notices
RESYNC = {"kind": "resync"}  # to a subscriber: notices may have been lost, read the log again
PAUSE_SECONDS = 1.0  # after a failed publish, the next ones are not tried for this long
TIMEOUT_SECONDS = 2.0  # Redis' connect and socket timeouts for the publishing client


class Hub:
    def __init__(self, redis_url: str | None = None):
        self.redis_url = redis_url
        self.instance_id = uuid.uuid4().hex
        self._subscribers: dict[str, set[asyncio.Queue]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: asyncio.Task | None = None
        self._redis_sync = None
        self._redis_async = None
        self._outbox: _Outbox | None = None
        self._lock = threading.Lock()
        self._held = threading.local()  # .notices: the (channel, notice) pairs of an open batch()
        self.prefix = REDIS_PREFIX
        self._owed = False  # a publish failed: the other instances are to resync
        self._paused_until = 0.0  # time.monotonic(): no publish is tried before then
        self.resyncs = 0  # how often this instance's subscribers were told to resync (tests, operators)
        # Listeners of what this instance tells members (app.realtime.notices.tell): called
        # with (member ids, notice) on the teller's thread; they must not block (push notices).
        self.sinks: list[Callable[[list[int], dict[str, Any]], None]] = []
        if redis_url:
            from redis.connection import parse_url

            self.prefix = f"{REDIS_PREFIX}{parse_url(redis_url).get('db', 0)}:"

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if self.redis_url:
            import redis
            import redis.asyncio as aioredis

            from redis.backoff import NoBackoff
            from redis.retry import Retry

            self._redis_sync = redis.Redis.from_url(
                self.redis_url, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS,
                retry=Retry(NoBackoff(), 1), socket_keepalive=True,
            )
            self._redis_async = aioredis.Redis.from_url(self.redis_url, socket_keepalive=True)
            self._outbox = _Outbox(self._publish)
            pubsub = self._redis_async.pubsub()
            await pubsub.psubscribe(self.prefix + "*")
            await self._confirmed(pubsub)
            self._listener = asyncio.create_task(self._listen(pubsub))
            # A new instance: the one it replaces may have died between a commit and its publish.
            self._owed = True
            await self._pay_owed()

    @staticmethod
    async def _confirmed(pubsub, seconds: float = 10) -> None:
        """Wait for Redis to confirm the subscription: what is published after start() arrives."""
        deadline = asyncio.get_running_loop().time() + seconds
        while asyncio.get_running_loop().time() < deadline:
            message = await pubsub.get_message(timeout=1)
            if message and message.get("type") == "psubscribe":
                return
        raise TimeoutError("Redis did not confirm the hub's subscription")

    async def stop(self) -> None:
        if self._listener:
            self._listener.cancel()
            try:
                await self._listener
            except (asyncio.CancelledError, Exception):
                pass
        if self._outbox is not None:  # what was published goes out before the client closes
            outbox, self._outbox = self._outbox, None
            await asyncio.to_thread(outbox.close, 2 * TIMEOUT_SECONDS)
        if self._redis_async is not None:
            await self._redis_async.aclose()
        if self._redis_sync is not None:
            self._redis_sync.close()
        self._loop = None

    def subscribe(self, channel: str, queue: asyncio.Queue | None = None) -> asyncio.Queue:
        """A queue receiving ``(channel, notice)`` pairs; pass a queue to share it between channels."""
        queue = queue if queue is not None else asyncio.Queue()
        with self._lock:
            self._subscribers[channel].add(queue)
        return queue

    def unsubscribe(self, channel: str, queue: asyncio.Queue) -> None:
        with self._lock:
            subs = self._subscribers.get(channel)
            if subs:
                subs.discard(queue)
                if not subs:
                    del self._subscribers[channel]

    def publish(self, channel: str, notice: dict[str, Any]) -> None:
        """Deliver a notice here and to the other instances; callable from any thread."""
        held = getattr(self._held, "notices", None)
        if held is not None:
            held.append((channel, notice))
        else:
            self._send([(channel, notice)])

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Hold what this thread publishes in the block and send it all at its end (in order)."""
        if getattr(self._held, "notices", None) is not None:
            yield  # already inside a batch: the outer one sends
            return
        self._held.notices = held = []
        try:
            yield
        finally:
            self._held.notices = None
            if held:
                self._send(held)

    def _send(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._deliver_all, items)
        outbox = self._outbox
        if outbox is not None:
            outbox.put(items)

    def flush(self, timeout: float = 2 * TIMEOUT_SECONDS) -> bool:
        """Wait until what was published before has gone to Redis (or failed); False if it
        has not within ``timeout`` seconds."""
        return self._outbox is None or self._outbox.wait_sent(timeout)

    def _publish(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        """One Redis message for ``items`` (the publishing thread's)."""
        if time.monotonic() < self._paused_until:
            self._owed = True  # Redis is away: the others resync when it is back
            return
        payload = orjson.dumps({"origin": self.instance_id, "items": items}, option=orjson.OPT_NON_STR_KEYS)
        try:
            if self._owed:
                self._owed = False
                self._redis_sync.publish(self.prefix + NOTICES_CHANNEL, self._resync_envelope())
            self._redis_sync.publish(self.prefix + NOTICES_CHANNEL, payload)
        except Exception as e:  # the local delivery still happened
            self._failed(e)

    def _failed(self, error: Exception) -> None:
        if not self._owed:
            log.warning("redis publish failed (%r): the other instances resync when it is back", error)
        self._owed = True
        self._paused_until = time.monotonic() + PAUSE_SECONDS

    def _resync_envelope(self) -> bytes:
        # "items": an instance of the code before resyncs takes it for an empty batch.
        return orjson.dumps({"origin": self.instance_id, "items": [], "resync": True})

    async def _pay_owed(self) -> None:
        """Tell the other instances to resync, if a publish failed (or this instance just started)."""
        if not self._owed or time.monotonic() < self._paused_until or self._redis_sync is None:
            return
        self._owed = False
        try:  # the publishing client: its one retry replaces a connection Redis closed when it went
            await asyncio.to_thread(self._redis_sync.publish, self.prefix + NOTICES_CHANNEL, self._resync_envelope())
        except Exception as e:
            self._failed(e)

    def resync_here(self) -> None:
        """Tell every subscriber of this instance, on each of its channels, to read the log again."""
        self.resyncs += 1
        with self._lock:
            pairs = [(channel, queue) for channel, queues in self._subscribers.items() for queue in queues]
        for channel, queue in pairs:
            queue.put_nowait((channel, RESYNC))

    def _deliver_all(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        for channel, notice in items:
            self._deliver(channel, notice)

    def _deliver(self, channel: str, notice: dict[str, Any]) -> None:
        with self._lock:
            queues = list(self._subscribers.get(channel, ()))
        for queue in queues:
            queue.put_nowait((channel, notice))

    async def _listen(self, pubsub) -> None:
        lost = False
        while True:
            try:
                # At most a second's wait: a failed publish is made good soon after Redis is back.
                message = await pubsub.get_message(timeout=1.0)
                if self._owed:
                    await self._pay_owed()
                if message is None:
                    continue
                kind = message.get("type")
                if kind == "psubscribe":  # subscribed again, on a new connection: notices were lost
                    if lost:
                        log.warning("redis is back: this instance's subscribers resync")
                    lost = False
                    self.resync_here()
                    continue
                if kind != "pmessage":
                    continue
                try:
                    envelope = orjson.loads(message["data"])
                except (TypeError, ValueError):
                    continue
                if envelope.get("origin") == self.instance_id:
                    continue
                if envelope.get("resync"):
                    self.resync_here()
                elif "items" in envelope:
                    self._deliver_all(envelope["items"])
                else:  # the envelope of the code before batches: one notice
                    self._deliver(envelope["channel"], envelope["notice"])
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if not lost:
                    log.warning("redis listener lost its connection (%r); reconnecting", e)
                lost = True
                await asyncio.sleep(0.5)


class _Outbox:
    """The notices on their way to Redis, sent by one thread in the order they came: what
    waited while a message went out is the next message (``send`` gets the items)."""

    def __init__(self, send: Callable[[list[tuple[str, dict[str, Any]]]], None]):
        self._send = send
        self._items: list[tuple[str, dict[str, Any]]] = []
        self._busy = False
        self._closed = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="klub-hub-publisher", daemon=True)
        self._thread.start()

    def put(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        with self._cond:
            if self._closed:
                return
            self._items.extend(items)
            self._cond.notify_all()

    def wait_sent(self, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: not self._items and not self._busy, timeout)

    def close(self, timeout: float) -> None:
        """Send what waits, then stop the thread."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._items or self._closed)
                if not self._items:
                    return  # closed, everything sent
                items, self._items, self._busy = self._items, [], True
            try:
                self._send(items)
            except Exception:  # never the thread's end: the next notices still go
                log.exception("the hub's publisher failed")
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
