"""The notice hub across instances (Redis): notices reach the other instances of the same
Club, and never a Club that uses another database number of the same Redis; a batch of
notices is one Redis message. (A starting hub tells the others to resync: those notices are
skipped here, tests/realtime/test_hub_outage.py has them.)"""

from __future__ import annotations

import asyncio

import pytest

from app.realtime import Hub
from app.realtime.hub import RESYNC
from tests.support.backends import REDIS_SPARE_URL, REDIS_URL

pytestmark = pytest.mark.skipif(not REDIS_URL, reason="needs Redis (KLUB_TEST_REDIS_URL)")


async def _get(queue: asyncio.Queue, timeout: float = 5):
    """The next notice that is not a resync."""
    while True:
        item = await asyncio.wait_for(queue.get(), timeout)
        if item[1] != RESYNC:
            return item


def _empty(queue: asyncio.Queue) -> bool:
    while not queue.empty():
        if queue.get_nowait()[1] != RESYNC:
            return False
    return True


def test_notices_cross_instances_of_one_club_only():
    async def main():
        same_a, same_b = Hub(REDIS_URL), Hub(REDIS_URL)
        other, other_sender = Hub(REDIS_SPARE_URL), Hub(REDIS_SPARE_URL)
        hubs = (same_a, same_b, other, other_sender)
        for hub in hubs:
            await hub.start()  # subscribed when it returns
        try:
            heard_b = same_b.subscribe("partie:7")
            heard_other = other.subscribe("partie:7")
            same_a.publish("partie:7", {"kind": "advance", "version": 3})
            channel, notice = await _get(heard_b)
            assert (channel, notice) == ("partie:7", {"kind": "advance", "version": 3})
            # Redis delivers in order: once the other Club hears its own later notice, it
            # would have heard same_a's before it.
            other_sender.publish("partie:7", {"kind": "marker"})
            assert await _get(heard_other) == ("partie:7", {"kind": "marker"})
            assert _empty(heard_other)
        finally:
            for hub in hubs:
                await hub.stop()

    asyncio.run(main())


def test_a_batch_is_one_redis_message_and_arrives_in_order_everywhere():
    import redis.asyncio as aioredis

    async def main():
        sender, receiver = Hub(REDIS_URL), Hub(REDIS_URL)
        for hub in (sender, receiver):
            await hub.start()
        raw = aioredis.Redis.from_url(REDIS_URL)
        wire = raw.pubsub()
        await wire.psubscribe(sender.prefix + "*")
        await Hub._confirmed(wire)
        try:
            here, there = sender.subscribe("partie:1"), receiver.subscribe("partie:1")
            sender.subscribe("member:5", here)
            receiver.subscribe("member:5", there)
            sent = [("partie:1", {"kind": "advance", "version": 1}), ("member:5", {"kind": "turn", "partie": 1}),
                    ("partie:1", {"kind": "advance", "version": 2})]
            with sender.batch():
                for channel, notice in sent:
                    sender.publish(channel, notice)
                with sender.batch():  # an inner batch is the outer one's
                    sender.publish("member:5", {"kind": "moved", "partie": 1})
                assert _empty(here)  # held until the batch ends
            sent.append(("member:5", {"kind": "moved", "partie": 1}))
            for queue in (here, there):
                assert [await _get(queue) for _ in sent] == sent
            messages = 0
            while not messages:
                message = await wire.get_message(timeout=5)
                assert message is not None
                messages += message["type"] == "pmessage"
            assert await wire.get_message(timeout=0.2) is None  # the four notices were one message
        finally:
            await wire.aclose()
            await raw.aclose()
            for hub in (sender, receiver):
                await hub.stop()

    asyncio.run(main())
