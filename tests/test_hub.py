"""The notice hub across instances (Redis): notices reach the other instances of the same
Club, and never a Club that uses another database number of the same Redis; a batch of
notices is one Redis message."""

from __future__ import annotations

import asyncio

import pytest

from app.realtime import Hub
from tests.conftest import REDIS_SPARE_URL, REDIS_URL

pytestmark = pytest.mark.skipif(not REDIS_URL, reason="needs Redis (KLUB_TEST_REDIS_URL)")


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
            channel, notice = await asyncio.wait_for(heard_b.get(), timeout=5)
            assert (channel, notice) == ("partie:7", {"kind": "advance", "version": 3})
            # Redis delivers in order: once the other Club hears its own later notice, it
            # would have heard same_a's before it.
            other_sender.publish("partie:7", {"kind": "marker"})
            assert await asyncio.wait_for(heard_other.get(), timeout=5) == ("partie:7", {"kind": "marker"})
            assert heard_other.empty()
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
                assert here.empty()  # held until the batch ends
            sent.append(("member:5", {"kind": "moved", "partie": 1}))
            for queue in (here, there):
                assert [await asyncio.wait_for(queue.get(), timeout=5) for _ in sent] == sent
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
