"""A watcher's poll (app.clock.wait_woken) passes a cancellation on even when the event it
waits for is set at that moment: on Python 3.11 ``asyncio.wait_for`` loses it there, and
an app's shutdown hung on the watcher's loop (a test's teardown took its 300 s timeout)."""

from __future__ import annotations

import asyncio

import pytest

from app.clock import wait_woken


async def _cancel_as_woken() -> None:
    woken = asyncio.Event()

    async def watcher():
        while True:
            woken.clear()
            await wait_woken(woken, 10)

    task = asyncio.create_task(watcher())
    for _ in range(3):
        await asyncio.sleep(0)  # the watcher waits
    woken.set()
    await asyncio.sleep(0)  # the event's waiter is done, the watcher not yet resumed
    task.cancel()
    async with asyncio.timeout(5):  # a lost cancellation would leave the loop running
        await task


def test_a_cancellation_is_not_lost_when_the_event_is_set_at_once():
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(_cancel_as_woken())


def test_it_returns_when_woken_and_after_its_time():
    async def both():
        woken = asyncio.Event()
        asyncio.get_running_loop().call_soon(woken.set)
        await wait_woken(woken, 10)  # woken: returns at once
        await wait_woken(asyncio.Event(), 0.01)  # never set: returns after its time, no error
        return True

    assert asyncio.run(both())
