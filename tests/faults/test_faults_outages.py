"""Faults of the production path (issue 37, item 6): two instances on PostgreSQL + Redis,
Lora tables whose members' sockets are spread over both (tests/support/outages.py), and

- Redis away for a few seconds (a relay in front of it cuts every connection and refuses
  new ones): the notices published meanwhile are lost, yet every socket gets every event
  within seconds of Redis' return, without a reload (app/realtime/hub.py: resync);
- PostgreSQL away for a few seconds (the same relay in front of it): every word is
  answered with its id (``unavailable``, ``retry_after``), HTTP is 503 with
  ``Retry-After``, the sockets stay open, and both instances recover by themselves;
- one instance killed (SIGKILL) and started again;
- two instances started together on an empty database (tests/faults/test_first_start_race.py).

Afterwards every acknowledged word is in its partie's log once, in order; every socket has
its table's last version; both instances serve the same state. The recovery times are
printed (``-s``; docs/performance.md, "Outages").
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from contextlib import contextmanager

import httpx
import pytest

from tests.support.backends import PG_URL, REDIS_URL
from tests.support.outages import (
    OutageRelay, Seen, all_reach, check_log, db_versions, lora_tables, moves_on, play, port_of, same_state,
    wind_down,
)
from tests.support.web import ServerProcess

pytestmark = pytest.mark.skipif(
    not (PG_URL and REDIS_URL), reason="needs PostgreSQL and Redis (KLUB_TEST_DATABASE_URL, KLUB_TEST_REDIS_URL)"
)

OUTAGE_SECONDS = float(os.environ.get("KLUB_OUTAGE_SECONDS", "5"))
TABLES = int(os.environ.get("KLUB_OUTAGE_TABLES", "4"))  # three members' sockets each


@pytest.fixture(params=["postgresql"])
def backend(request):
    return request.param


@contextmanager
def two_instances(settings, **update):
    """Two served Clubs (each its own process) on the same database and Redis, started at once."""
    servers = {label: ServerProcess(settings.model_copy(update=update)) for label in ("one", "two")}
    errors: list[BaseException] = []

    def start(server):
        try:
            server.start()
        except BaseException as e:  # noqa: BLE001 (raised below, in the test's thread)
            errors.append(e)

    threads = [threading.Thread(target=start, args=(s,)) for s in servers.values()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        if errors:
            raise errors[0]
        yield servers
    finally:
        for server in servers.values():
            server.close()


def _behind(seen: Seen, seats, wanted: dict[int, int]) -> int:
    return sum(seen.versions.get((s.pid, s.seat), -1) < wanted[s.pid] for s in seats)


def test_redis_away_every_socket_gets_every_event_when_it_returns(settings):
    relay = OutageRelay(port_of(settings.redis_url)).start()
    try:
        with two_instances(settings, redis_url=relay.through(settings.redis_url)) as servers:
            seats = lora_tables(servers, TABLES, "r")
            pids = sorted({s.pid for s in seats})
            seen, rng = Seen(), random.Random(37)

            async def main():
                tasks = play(seats, seen, rng)
                await moves_on(settings.database_url, pids, 5, timeout=30, players=tasks)
                relay.down()
                await asyncio.sleep(OUTAGE_SECONDS)
                # Meanwhile a word said through one instance never reached the other's sockets.
                wanted = await asyncio.to_thread(db_versions, settings.database_url, pids)
                behind = _behind(seen, seats, wanted)
                relay.up()
                recovered = await all_reach(seen, seats, wanted, timeout=10)
                await moves_on(settings.database_url, pids, 5, timeout=30, players=tasks)
                await wind_down(seen, seats, tasks, settings.database_url)
                return behind, recovered

            behind, recovered = asyncio.run(main())
            figures = check_log(settings.database_url, seen, pids)
            same_state(seats, servers)
        assert behind > 0, "no socket missed a notice: the outage tested nothing"
        assert not seen.reconnects, seen.reconnects  # the sockets stayed open (no reload)
        assert not seen.unnamed, seen.unnamed[:3]
        print(f"\nredis away {OUTAGE_SECONDS:.0f} s: {behind} of {len(seats)} sockets behind; every socket had "
              f"every event {recovered:.2f} s after Redis came back; {figures}")
    finally:
        relay.close()


def _until_ok(url: str, cookies, since: float, timeout: float = 30) -> float:
    while True:
        try:
            if httpx.get(url, cookies=cookies, timeout=5).status_code == 200:
                return time.monotonic() - since
        except httpx.HTTPError:
            pass
        assert time.monotonic() - since < timeout, f"{url} never answered 200 again"
        time.sleep(0.05)


async def _first_ack(seen: Seen, label: str, since: float, timeout: float = 30) -> float:
    while True:
        later = [t for t in seen.acks_at.get(label, ()) if t > since]
        if later:
            return later[0] - since
        assert time.monotonic() - since < timeout, f"no word was acknowledged through instance {label} again"
        await asyncio.sleep(0.02)


def _check_503(server, client, pid: int) -> None:
    """An API read and a page of a member during the outage: 503 and Retry-After, never 500."""
    r = httpx.get(f"{server.url}/api/parties/{pid}/view", cookies=client.cookies, timeout=10)
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable", (r.status_code, r.text[:300])
    assert r.headers["retry-after"] == "2"
    page = httpx.get(f"{server.url}/lobby", cookies=client.cookies, headers={"accept": "text/html"}, timeout=10)
    assert page.status_code == 503 and page.headers["retry-after"] == "2", (page.status_code, page.text[:300])
    assert "text/html" in page.headers["content-type"]


def test_postgresql_away_every_word_is_answered_and_both_instances_recover(settings):
    relay = OutageRelay(port_of(settings.database_url)).start()
    try:
        with two_instances(settings, database_url=relay.through(settings.database_url)) as servers:
            seats = lora_tables(servers, TABLES, "p")
            pids = sorted({s.pid for s in seats})
            seen, rng = Seen(), random.Random(38)
            probe = {label: next(s for s in seats if s.label == label) for label in servers}

            async def main():
                tasks = play(seats, seen, rng)
                await moves_on(settings.database_url, pids, 5, timeout=30, players=tasks)
                relay.down()
                down_at = time.monotonic()
                for label, server in servers.items():
                    await asyncio.to_thread(_check_503, server, probe[label].client, probe[label].pid)
                await asyncio.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - down_at)))
                refused = seen.unavailable
                relay.up()
                up_at = time.monotonic()
                http = {label: asyncio.to_thread(_until_ok, f"{server.url}/api/parties/{probe[label].pid}/view",
                                                 probe[label].client.cookies, up_at)
                        for label, server in servers.items()}
                http = dict(zip(http, await asyncio.gather(*http.values())))
                words = {label: await _first_ack(seen, label, up_at) for label in servers}
                # Every table plays on, its computer player too (it looked again after the failure).
                moved = await moves_on(settings.database_url, pids, 5, timeout=30, players=tasks)
                await wind_down(seen, seats, tasks, settings.database_url)
                return refused, http, words, moved

            refused, http, words, moved = asyncio.run(main())
            figures = check_log(settings.database_url, seen, pids)
            same_state(seats, servers)
        assert refused > 0, "no word met the outage"
        assert not seen.unnamed, seen.unnamed[:3]  # every answer named its word
        assert not seen.reconnects, seen.reconnects  # the sockets stayed open
        assert max(http.values()) < 10 and max(words.values()) < 10, (http, words)
        print(f"\npostgresql away {OUTAGE_SECONDS:.0f} s: {refused} words answered 'unavailable' (then resent); "
              f"after its return HTTP answered 200 in {', '.join(f'{k} {v:.2f} s' for k, v in http.items())}, "
              f"a word was acknowledged in {', '.join(f'{k} {v:.2f} s' for k, v in words.items())}; "
              f"every table 5 words further {moved:.2f} s later; {figures}")
    finally:
        relay.close()


def test_an_instance_killed_and_started_again_loses_and_doubles_nothing(settings):
    with two_instances(settings) as servers:
        seats = lora_tables(servers, TABLES, "k")
        pids = sorted({s.pid for s in seats})
        seen, rng = Seen(), random.Random(39)
        two = servers["two"]

        async def main():
            tasks = play(seats, seen, rng)
            await moves_on(settings.database_url, pids, 5, timeout=30, players=tasks)
            two.proc.kill()  # SIGKILL: no shutdown at all
            await asyncio.to_thread(two.proc.wait)
            killed_at = time.monotonic()
            await asyncio.to_thread(two.start)  # its sockets' members knock meanwhile (its port's backlog)
            started = time.monotonic() - killed_at
            words = await _first_ack(seen, "two", killed_at + started)
            await moves_on(settings.database_url, pids, 5, timeout=30, players=tasks)
            await wind_down(seen, seats, tasks, settings.database_url)
            return started, words

        started, words = asyncio.run(main())
        figures = check_log(settings.database_url, seen, pids)
        same_state(seats, servers)
    assert seen.reconnects and all(s.label == "two" for s in seats if (s.pid, s.seat) in seen.reconnects)
    assert not seen.unnamed, seen.unnamed[:3]
    print(f"\ninstance killed: up again {started:.2f} s after the kill, its first word acknowledged "
          f"{words:.2f} s after that; {figures}")
