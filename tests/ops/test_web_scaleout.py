"""Two server processes sharing PostgreSQL and Redis serve the same table.

Runs only when KLUB_TEST_DATABASE_URL and KLUB_TEST_REDIS_URL are set (``.ci/run``).
"""

from __future__ import annotations

import asyncio

import pytest

from tests.support.backends import PG_URL, REDIS_URL
from tests.support.web import ServerProcess, member, recv, wait_for, ws_connect

pytestmark = pytest.mark.skipif(not (PG_URL and REDIS_URL), reason="needs PostgreSQL and Redis")


@pytest.fixture(params=["postgresql"])
def backend(request):
    return request.param


def test_a_move_through_one_instance_reaches_a_socket_on_the_other(settings):
    assert settings.redis_url and settings.database_url.startswith("postgresql")
    one, two = ServerProcess(settings), ServerProcess(settings)
    one.start()
    two.start()
    try:
        ana = member(one.url, "ana")
        boki = member(two.url, "boki")
        pid = ana.post(
            "/api/parties",
            json={"game": "lora", "seats": [{"kind": "member", "name": "boki"}] + [{"kind": "bot"}] * 2},
        ).json()["id"]
        assert boki.post(f"/api/parties/{pid}/accept").json()["status"] == "running"

        async def main():
            async with await ws_connect(two, pid, boki) as ws:
                state = await recv(ws)
                assert state["seat"] == 1
                # Play boki's words through instance two until it is ana's turn on instance one.
                deadline = asyncio.get_running_loop().time() + 60
                while True:
                    assert asyncio.get_running_loop().time() < deadline, "ana's turn never came"
                    mine = await asyncio.to_thread(ana.get, f"/api/parties/{pid}/view")
                    mine = mine.json()
                    if mine["legal"]:
                        break
                    theirs = (await asyncio.to_thread(boki.get, f"/api/parties/{pid}/view")).json()
                    if theirs["legal"]:
                        await asyncio.to_thread(
                            boki.post,
                            f"/api/parties/{pid}/actions",
                            json={"word": theirs["legal"][0], "version": theirs["version"]},
                        )
                    await asyncio.sleep(0.05)
                word = mine["legal"][0]
                r = await asyncio.to_thread(
                    ana.post, f"/api/parties/{pid}/actions", json={"word": word, "version": mine["version"]}
                )
                assert r.status_code == 200, r.text
                for _ in range(1000):
                    frame = await recv(ws, timeout=10)
                    if frame["type"] == "event" and frame["version"] == mine["version"] + 1:
                        break
                else:
                    raise AssertionError("ana's word never reached instance two's socket")
                assert frame["action"] == {"seat": 0, "word": word}

        asyncio.run(main())
        # The view through either instance is the same.
        wait_for(
            lambda: ana.get(f"/api/parties/{pid}/view").json()["version"]
            == boki.get(f"/api/parties/{pid}/view").json()["version"]
        )
    finally:
        one.close()
        two.close()
