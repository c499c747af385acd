"""The notice hub across instances (Redis): notices reach the other instances of the same
Club, and never a Club that uses another database number of the same Redis."""

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
