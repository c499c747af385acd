"""The notice hub when Redis goes away and comes back (app/realtime/hub.py): the notices
published meanwhile are lost, so every subscriber of every instance is told to resync
once Redis is back; a publish never waits on a Redis that is away."""

from __future__ import annotations

import asyncio
import time

import pytest

from app.realtime import Hub
from app.realtime.hub import RESYNC
from tests.support.backends import REDIS_URL
from tests.support.outages import OutageRelay, port_of

pytestmark = pytest.mark.skipif(not REDIS_URL, reason="needs Redis (KLUB_TEST_REDIS_URL)")


async def _next(queue: asyncio.Queue, wanted, seconds: float = 10):
    """The next item of ``queue`` that is ``wanted`` (the others are skipped)."""
    async with asyncio.timeout(seconds):
        while True:
            item = await queue.get()
            if item == wanted:
                return item


def test_both_instances_resync_after_redis_returns_and_publish_does_not_wait():
    relay = OutageRelay(port_of(REDIS_URL)).start()

    async def main():
        one, two = Hub(relay.through(REDIS_URL)), Hub(relay.through(REDIS_URL))
        await one.start()
        await two.start()
        try:
            here, there = one.subscribe("partie:3"), two.subscribe("partie:3")
            two.subscribe("member:9", there)
            one.publish("partie:3", {"kind": "advance", "version": 1})
            assert await _next(there, ("partie:3", {"kind": "advance", "version": 1}))

            relay.down()
            started = time.monotonic()
            for version in range(2, 12):  # lost: Redis is away
                one.publish("partie:3", {"kind": "advance", "version": version})
            assert time.monotonic() - started < 1, "a publish waited on a Redis that is away"
            assert await _next(here, ("partie:3", {"kind": "advance", "version": 11}))  # this instance's own still arrive
            assert await asyncio.to_thread(one.flush)  # the publishing thread met the outage
            await asyncio.sleep(1.5)
            back = time.monotonic()
            relay.up()
            # Both channels of the other instance's queue, and this instance's own, resync.
            for queue, channel in ((there, "partie:3"), (there, "member:9"), (here, "partie:3")):
                await _next(queue, (channel, RESYNC), seconds=8)
            recovered = time.monotonic() - back
            assert recovered < 5, recovered
            one.publish("partie:3", {"kind": "advance", "version": 12})
            assert await _next(there, ("partie:3", {"kind": "advance", "version": 12}))
            assert one.resyncs >= 1 and two.resyncs >= 1
            print(f"\nhub: subscribers told to resync {recovered:.2f} s after Redis came back")
        finally:
            await one.stop()
            await two.stop()

    try:
        asyncio.run(main())
    finally:
        relay.close()


def test_a_publish_that_failed_alone_makes_the_others_resync():
    """Only the publishing instance lost Redis (its own connection cut): the others' listeners
    never noticed, yet they resync once its publishes go through again."""
    relay = OutageRelay(port_of(REDIS_URL)).start()

    async def main():
        one, two = Hub(relay.through(REDIS_URL)), Hub(REDIS_URL)
        await one.start()
        await two.start()
        try:
            there = two.subscribe("partie:4")
            relay.down()
            one.publish("partie:4", {"kind": "advance", "version": 1})  # lost
            assert await asyncio.to_thread(one.flush)  # tried (and failed) before Redis is back
            relay.up()
            await _next(there, ("partie:4", RESYNC), seconds=8)
        finally:
            await one.stop()
            await two.stop()

    try:
        asyncio.run(main())
    finally:
        relay.close()


def test_a_starting_instance_makes_the_others_resync():
    async def main():
        one = Hub(REDIS_URL)
        await one.start()
        try:
            heard = one.subscribe("partie:5")
            two = Hub(REDIS_URL)
            await two.start()  # its predecessor may have died between a commit and its publish
            try:
                await _next(heard, ("partie:5", RESYNC), seconds=5)
            finally:
                await two.stop()
        finally:
            await one.stop()

    asyncio.run(main())
