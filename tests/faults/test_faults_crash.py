"""Crash and shutdown: the server killed (SIGKILL) or stopped (SIGTERM) under players, on
SQLite and on PostgreSQL + Redis (words committed in batches on both: app/tables/writer.py).

``KLUB_CRASH_KILLS`` is how many kills at least (a handful in ``make test``, 50 in
``make soak``); ``KLUB_CRASH_PARTIES`` how many preferans parties are played meanwhile.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections import Counter

import pytest

from tests.support.audit import start_partie
from tests.support.crash import Shared, check_log, replayed_views, resilient_player, situation
from tests.support.web import ServerProcess

pytestmark = pytest.mark.scaled

KILLS = int(os.environ.get("KLUB_CRASH_KILLS", "4"))
PARTIES = int(os.environ.get("KLUB_CRASH_PARTIES", "2"))
# ``make soak`` splits the kills into shards (each its own server and database) that the
# pytest-xdist workers run side by side.
SHARDS = int(os.environ.get("KLUB_SOAK_SHARDS", "1"))
PG_KILLS_PER_SHARD = 4
LOOP_SECONDS = 900  # a harness that runs longer hangs: it fails instead of stalling the run


@pytest.fixture
def killable_server(settings):
    """The Club in its own process (SQLite file, or PostgreSQL + Redis), and its database URL."""
    server = ServerProcess(settings)
    server.start()
    try:
        yield server, settings.database_url
    finally:
        server.close()


def _play(server, n_parties: int, rng: random.Random, killer) -> tuple[Shared, list[int]]:
    made = [start_partie(server.url, "preferans", random.Random(rng.random())) for _ in range(n_parties)]
    shared = Shared()

    async def main():
        players = [
            asyncio.create_task(resilient_player(server, pid, c, random.Random(rng.random()), shared, target=3))
            for pid, clients, _ in made
            for c in clients
        ]
        kill = asyncio.create_task(killer(shared, players))
        await asyncio.wait_for(asyncio.gather(*players), timeout=LOOP_SECONDS + 60)
        return await kill

    shared.result = asyncio.run(main())
    return shared, [pid for pid, _, _ in made]


def _assert_consistent(server, database_url: str, shared: Shared, parties: list[int]) -> dict[str, int]:
    figures = check_log(database_url, shared, parties)
    assert figures["lost"] == 0 and figures["doubled"] == 0 and figures["gaps"] == 0, figures
    for pid in parties:
        views, finished = replayed_views(database_url, pid)
        assert finished, f"partie {pid} did not finish"
        for (p, seat), frame in shared.final.items():
            if p == pid:
                assert frame["view"] == views[seat], f"partie {pid} seat {seat}: the client's table differs from the log"
    return figures


@pytest.mark.parametrize("shard", range(SHARDS))
def test_sigkill_at_random_moments_loses_and_doubles_nothing(killable_server, shard):
    server, database_url = killable_server
    rng = random.Random(11 + shard)
    kills_here = KILLS // SHARDS + (shard < KILLS % SHARDS)
    if database_url.startswith("postgresql"):
        # The whole count on SQLite; on PostgreSQL a few per shard (make soak: 24 in all), as
        # the leak audit does: the writer's batching above the database is the same code.
        kills_here = min(kills_here, PG_KILLS_PER_SHARD)
    when: Counter = Counter()

    async def killer(shared: Shared, players):
        kills = 0
        deadline = asyncio.get_running_loop().time() + LOOP_SECONDS
        while not all(p.done() for p in players):
            assert asyncio.get_running_loop().time() < deadline, f"the parties did not end after {kills} kills"
            if kills >= kills_here and when["bidding"] and when["mid-trick"]:
                break
            wanted = ["bidding", "mid-trick", "other"][kills % 3]
            for _ in range(int(rng.uniform(0.3, 1.5) / 0.02)):
                latest = [situation(f) for f in shared.latest.values()]
                if wanted in latest and rng.random() < 0.3:
                    break
                await asyncio.sleep(0.02)
            if all(p.done() for p in players):
                break
            latest = [situation(f) for f in shared.latest.values()]
            when.update(set(latest) or {"start"})
            server.proc.kill()  # SIGKILL: no shutdown at all
            await asyncio.to_thread(server.proc.wait)
            kills += 1
            await asyncio.to_thread(server.start)
        shared.enough = True
        return kills

    # The kills' parties are shared out too: a shard keeps its parties going until its kills are done.
    shared, parties = _play(server, max(2, PARTIES // SHARDS), rng, killer)
    figures = _assert_consistent(server, database_url, shared, parties)
    print(f"\ncrash harness: {shared.result} SIGKILLs (tables at the kill: {dict(when)}), {figures}, "
          f"{shared.reconnects} reconnects")
    assert shared.result >= kills_here, f"only {shared.result} kills before the parties ended"
    assert when["bidding"] and when["mid-trick"]
    assert figures["acked"] > 0


def test_sigterm_loses_nothing(killable_server):
    server, database_url = killable_server
    rng = random.Random(5)

    async def killer(shared: Shared, players):
        stops = 0
        deadline = asyncio.get_running_loop().time() + LOOP_SECONDS
        while not all(p.done() for p in players) and stops < 2:
            assert asyncio.get_running_loop().time() < deadline, f"the parties did not end after {stops} stops"
            await asyncio.sleep(rng.uniform(0.5, 1.5))
            await asyncio.to_thread(server.stop)  # SIGTERM, then a graceful shutdown
            stops += 1
            await asyncio.to_thread(server.start)
        shared.enough = True
        return stops

    shared, parties = _play(server, 2, rng, killer)
    _assert_consistent(server, database_url, shared, parties)
    assert shared.result >= 1
