"""Idempotency and concurrency: resends and races apply a word once.

50 submissions race for the same turn, each from its own ``Club`` (as if from 50
instances or workers), on SQLite and, with ``KLUB_TEST_DATABASE_URL``, on PostgreSQL:
exactly one applies, the others are told the version is stale, and none fails with
"database is locked".
"""

from __future__ import annotations

import asyncio
import json
import threading

from sqlalchemy import func, select

from app.db import Database
from app.db.models import Action
from app.members.service import CurrentMember, register
from app.parties.proposals import SeatSpec, propose
from app.parties.lookup import get_partie, open_table
from app.tables.service import apply_word
from tests.support.web import PASSWORD, member, recv, wait_for, ws_connect

RACERS = 50


def _exhibition(club):
    m = register(club.db, "ana", PASSWORD)
    me = CurrentMember(m.id, m.name, m.role, "-")
    # Computer seats that nobody runs: the test says their words.
    pid = propose(club, me, "lora", {}, None, [SeatSpec("bot")] * 4, exhibition=True)
    with club.db.read() as s:
        table = open_table(club, s, get_partie(s, pid))
    seat = table.engine.seats_to_act()[0]
    return pid, seat, table.engine.legal_actions(seat)


def _count(url: str, pid: int) -> int:
    db = Database(url)
    try:
        with db.read() as s:
            return s.scalar(select(func.count()).select_from(Action).where(Action.partie_id == pid))
    finally:
        db.dispose()


def test_fifty_racing_submissions_apply_once(settings):
    from app.club import Club

    club = Club.from_settings(settings)
    pid, seat, words = _exhibition(club)
    outcomes: list[str] = []
    clubs = [Club.from_settings(settings) for _ in range(RACERS)]
    barrier = threading.Barrier(RACERS)

    def race(i: int) -> None:
        barrier.wait()
        try:
            apply_word(clubs[i], pid, seat, words[i % len(words)], 0, f"r{i}", None, "bot")
            outcomes.append("applied")
        except Exception as e:  # noqa: BLE001 - every failure is an outcome to count
            outcomes.append(getattr(e, "code", repr(e)))

    threads = [threading.Thread(target=race, args=(i,)) for i in range(RACERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for c in [club, *clubs]:
        c.db.dispose()
    assert len(outcomes) == RACERS
    assert outcomes.count("applied") == 1, outcomes
    assert set(outcomes) == {"applied", "stale_version"}, set(outcomes)  # no "database is locked"
    assert _count(settings.database_url, pid) == 1


def test_fifty_resends_of_one_action_apply_once(settings):
    from app.club import Club

    club = Club.from_settings(settings)
    pid, seat, words = _exhibition(club)
    results = []
    barrier = threading.Barrier(RACERS)

    def resend(i: int) -> None:
        other = Club.from_settings(settings)
        barrier.wait()
        try:
            results.append(apply_word(other, pid, seat, words[0], 0, "same-id", None, "bot"))
        except Exception as e:  # noqa: BLE001
            results.append(getattr(e, "code", repr(e)))
        finally:
            other.db.dispose()

    threads = [threading.Thread(target=resend, args=(i,)) for i in range(RACERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    club.db.dispose()
    assert all(not isinstance(r, str) for r in results), results
    assert sum(not r.duplicate for r in results) == 1 and {r.version for r in results} == {1}
    assert _count(settings.database_url, pid) == 1


def test_fifty_simultaneous_http_posts_for_one_turn(live_server):
    """The same member posts 50 different words for one turn at once: one applies."""
    import httpx

    ana = member(live_server.url, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
    view = wait_for(lambda: (v := ana.get(f"/api/parties/{pid}/view").json())["legal"] and v)
    cookies = dict(ana.cookies)

    async def main():
        async with httpx.AsyncClient(base_url=live_server.url, cookies=cookies, timeout=60,
                                     headers={"Origin": live_server.origin}) as c:
            posts = [
                c.post(f"/api/parties/{pid}/actions",
                       json={"word": view["legal"][i % len(view["legal"])], "version": view["version"], "action_id": f"h{i}"})
                for i in range(RACERS)
            ]
            return await asyncio.gather(*posts)

    answers = asyncio.run(main())
    codes = sorted(r.status_code for r in answers)
    assert codes.count(200) == 1 and codes.count(409) == RACERS - 1, codes
    assert all("locked" not in r.text for r in answers)


def test_a_resent_action_out_of_order_changes_the_state_once(live_server):
    """Three resends of each of two actions, interleaved and out of order: two versions, no more."""
    ana = member(live_server.url, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
    wait_for(lambda: ana.get(f"/api/parties/{pid}/view").json()["legal"])

    async def main():
        async with await ws_connect(live_server, pid, ana) as ws:
            state = await recv(ws)
            v1, w1 = state["version"], state["legal"][0]
            first = {"type": "action", "word": w1, "version": v1, "id": "one"}
            acks, table = [], state
            for _ in range(4):  # the action and three resends
                await ws.send(json.dumps(first))
            while len(acks) < 4:
                frame = await recv(ws)
                if frame["type"] == "ack":
                    acks.append(frame)
                elif frame["type"] in ("event", "state"):
                    table = frame
            # Wait for ana's next turn, then resend "one" around the new action "two".
            while True:
                f = await recv(ws) if not (table.get("legal") and table.get("version", -1) > v1) else None
                if f is None:
                    break
                if f["type"] in ("event", "state"):
                    table = f
            v2, w2 = table["version"], table["legal"][0]
            second = {"type": "action", "word": w2, "version": v2, "id": "two"}
            for msg in (first, second, first, second, second, first, second):
                await ws.send(json.dumps(msg))
            more = []
            while len(more) < 7:
                frame = await recv(ws)
                if frame["type"] == "ack":
                    more.append(frame)
                assert frame["type"] != "error", frame
            return acks, more, v1, v2

    acks, more, v1, v2 = asyncio.run(main())
    assert [a["duplicate"] for a in acks] == [False, True, True, True]
    assert {a["version"] for a in acks} == {v1 + 1}
    by_id = {}
    for a in more:
        by_id.setdefault(a["id"], set()).add(a["version"])
    assert by_id == {"one": {v1 + 1}, "two": {v2 + 1}}
    assert sum(not a["duplicate"] for a in more) == 1
    rec = ana.get(f"/api/parties/{pid}/record").json()
    mine = [w for d in rec["deals"] for s, w in d["actions"] if s == 0]
    assert len(mine) == 2
