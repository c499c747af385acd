"""The notice hub across instances (Redis): notices reach the other instances of the same
Club, and never a Club that uses another database number of the same Redis."""

from __future__ import annotations

import asyncio

import pytest

from app.realtime import Hub
from tests.conftest import REDIS_URL

pytestmark = pytest.mark.skipif(not REDIS_URL, reason="needs Redis (KLUB_TEST_REDIS_URL)")


def _with_db(url: str, db: int) -> str:
    base = url.rsplit("/", 1)[0] if url.count("/") > 2 else url
    return f"{base}/{db}"


def test_notices_cross_instances_of_one_club_only():
    async def main():
        same_a, same_b = Hub(_with_db(REDIS_URL, 13)), Hub(_with_db(REDIS_URL, 13))
        other = Hub(_with_db(REDIS_URL, 12))
        hubs = (same_a, same_b, other)
        for hub in hubs:
            await hub.start()
        try:
            heard_b = same_b.subscribe("partie:7")
            heard_other = other.subscribe("partie:7")
            await asyncio.sleep(0.2)  # the listeners' subscriptions are in place
            same_a.publish("partie:7", {"kind": "advance", "version": 3})
            channel, notice = await asyncio.wait_for(heard_b.get(), timeout=5)
            assert (channel, notice) == ("partie:7", {"kind": "advance", "version": 3})
            await asyncio.sleep(0.3)
            assert heard_other.empty()
        finally:
            for hub in hubs:
                await hub.stop()

    asyncio.run(main())
