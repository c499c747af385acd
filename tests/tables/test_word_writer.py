"""Words written together: the word writer (SQLite and PostgreSQL), its batches, their
lock order, its shutdown; the prepared statements' types; the garbage collector's
freezing (app/gcpauses.py)."""

from __future__ import annotations

import asyncio
import gc
import threading
import weakref
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from app.club import Club
from app.db.models import Action, Partie
from app.errors import ClubError
from app.games.base import GameError
from app import gcpauses
from app.tables.cache import LiveTable
from app.parties.engines import new_engine
from app.parties.lookup import get_partie, open_table
from app.tables.service import apply_words
from app.tables.words import Applied, Word
from tests.support.tables import club_with_parties, next_word


def _replayed(club: Club, pid: int):
    with club.db.read() as s:
        partie = get_partie(s, pid)
        engine = new_engine(partie.game, partie.settings or {}, partie.seed)
        for seat, word in s.execute(select(Action.seat, Action.word).where(Action.partie_id == pid).order_by(Action.seq)):
            engine.apply(seat, word)
        return engine, partie.version


def test_words_of_many_threads_share_transactions_and_all_land(settings, monkeypatch):
    from app.tables import service

    club, pids = club_with_parties(settings, 6)
    assert club.writer is not None
    words = [next_word(club, pid, 0, f"w{pid}") for pid in pids]
    # The first word's transaction waits until every other word is queued behind it.
    queued, sizes = threading.Event(), []
    real_apply_words = service.apply_words

    def recorded(club_, jobs):
        sizes.append(len(jobs))
        if len(sizes) == 1:
            queued.wait(10)
        return real_apply_words(club_, jobs)

    monkeypatch.setattr(service, "apply_words", recorded)
    futures = {words[0].partie_id: club.writer.submit(words[0])}
    barrier = threading.Barrier(len(words) - 1)

    def say(w: Word) -> None:
        barrier.wait()
        futures[w.partie_id] = club.writer.submit(w)

    threads = [threading.Thread(target=say, args=(w,)) for w in words[1:]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    queued.set()
    results = {pid: f.result(timeout=10) for pid, f in futures.items()}
    assert all(r == Applied(1, w.seat, w.word, duplicate=False) for w, r in zip(words, (results[w.partie_id] for w in words)))
    assert sizes == [1, len(words) - 1] and club.writer.batches == 2  # one commit for the five
    for pid in pids:
        engine, version = _replayed(club, pid)
        assert version == 1 and engine.view(None) == club.tables.peek(pid).engine.view(None)
    # a resend of a committed word is answered from the log, nothing is applied twice
    again = club.writer.submit(words[0]).result(timeout=10)
    assert again.duplicate and again.version == 1
    club.writer.stop()
    club.db.dispose()


def test_a_word_that_breaks_its_transaction_does_not_take_the_others_down(settings, monkeypatch):
    club, pids = club_with_parties(settings, 3)
    good_a, bad, good_b = (next_word(club, pid, 0) for pid in pids)
    real_apply = LiveTable.apply_quietly

    def breaks(table, seat, word):
        real_apply(table, seat, word)  # the engine moved on ...
        if table.partie_id == bad.partie_id:
            raise GameError("a broken engine")  # ... and then failed: not a ClubError

    monkeypatch.setattr(LiveTable, "apply_quietly", breaks)
    outcomes = apply_words(club, [good_a, bad, good_b])
    assert isinstance(outcomes[0], Applied) and isinstance(outcomes[2], Applied)
    assert isinstance(outcomes[1], GameError)
    # nothing of the bad word was written, and its cached table was dropped, not trusted
    engine, version = _replayed(club, bad.partie_id)
    assert version == 0 and club.tables.peek(bad.partie_id) is None
    for w in (good_a, good_b):
        engine, version = _replayed(club, w.partie_id)
        assert version == 1 and engine.view(None) == club.tables.peek(w.partie_id).engine.view(None)
    club.db.dispose()


def test_a_word_refused_in_a_batch_changes_nothing_and_the_rest_apply(settings):
    club, pids = club_with_parties(settings, 2)
    first = next_word(club, pids[0], 0)
    stale = Word(first.partie_id, first.seat, first.word, 0, None, None, "bot")  # decided on version 0 too
    other = next_word(club, pids[1], 0)
    outcomes = apply_words(club, [first, stale, other])
    assert isinstance(outcomes[0], Applied) and isinstance(outcomes[2], Applied)
    assert isinstance(outcomes[1], ClubError) and outcomes[1].code == "stale_version"
    # the 409's state is the one the first word left, not an older one
    assert outcomes[1].extra["current"]["version"] == 1
    assert _replayed(club, pids[0])[1] == 1
    club.db.dispose()


def test_a_batch_locks_its_parties_in_id_order_and_keeps_each_parties_words_in_order(settings, monkeypatch):
    """Two instances' batches lock their parties' rows in one order: never a cycle of waits."""
    from app.tables import service

    club, pids = club_with_parties(settings, 3)
    low, mid, high = sorted(pids)
    first_of_mid = next_word(club, mid, 0, "m1")
    applied_order = []
    real_apply_in = service._apply_in

    def recorded(batch, table, job, now):
        applied_order.append((job.partie_id, job.version))
        return real_apply_in(batch, table, job, now)

    monkeypatch.setattr(service, "_apply_in", recorded)
    outcomes = apply_words(club, [first_of_mid, next_word(club, high, 0), next_word(club, low, 0)])
    assert all(isinstance(o, Applied) and o.version == 1 for o in outcomes)
    assert applied_order == [(low, 0), (mid, 0), (high, 0)]
    # the outcomes are in the order the words came, whatever order they were applied in
    assert outcomes[0].seat == first_of_mid.seat and outcomes[0].word == first_of_mid.word
    # a partie's second word in the same batch comes after its first
    applied_order.clear()
    second_of_mid = next_word(club, mid, 1)
    outcomes = apply_words(club, [next_word(club, high, 1), second_of_mid, next_word(club, low, 1)])
    assert all(isinstance(o, Applied) and o.version == 2 for o in outcomes)
    assert applied_order == [(low, 1), (mid, 1), (high, 1)]
    club.db.dispose()


def test_two_instances_batches_in_opposite_orders_do_not_deadlock(settings, monkeypatch):
    """Two Clubs on one database (two instances) say the same words of the same parties at
    once, in opposite orders: per partie one word lands and the other is stale, and no
    transaction fails (a deadlock would fail one, and its words be tried again one by one)."""
    from app.tables import service

    club_a, pids = club_with_parties(settings, 4)
    club_b = Club.from_settings(settings)
    batches: list[int] = []
    real_apply_words = service.apply_words

    def counted(club, jobs):
        batches.append(len(jobs))
        return real_apply_words(club, jobs)

    monkeypatch.setattr(service, "apply_words", counted)
    for version in range(4):
        words = [next_word(club_a, pid, version) for pid in pids]
        barrier = threading.Barrier(2)
        results: dict[str, list] = {}

        def run(name: str, club: Club, jobs: list[Word]) -> None:
            barrier.wait()
            results[name] = service.apply_words(club, jobs)

        threads = [threading.Thread(target=run, args=("a", club_a, words)),
                   threading.Thread(target=run, args=("b", club_b, list(reversed(words))))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        for i in range(len(pids)):
            pair = [results["a"][i], results["b"][len(pids) - 1 - i]]
            assert sum(isinstance(o, Applied) for o in pair) == 1, pair
            assert sum(isinstance(o, ClubError) and o.code == "stale_version" for o in pair) == 1, pair
    assert batches == [len(pids)] * 8  # no batch was split up after a failed transaction
    for pid in pids:
        assert _replayed(club_a, pid)[1] == 4
    club_a.db.dispose()
    club_b.db.dispose()


def test_an_illegal_word_in_a_batch_fails_alone(settings):
    club, pids = club_with_parties(settings, 3)
    before, after = next_word(club, pids[0], 0), next_word(club, pids[2], 0)
    with club.db.read() as s:
        table = open_table(club, s, get_partie(s, pids[1]))
    with table.lock:
        idle = next(seat for seat in range(4) if seat not in table.engine.seats_to_act())
        to_act = table.engine.seats_to_act()[0]
    out_of_turn = Word(pids[1], idle, "x", 0, None, None, "bot")
    not_a_word = Word(pids[1], to_act, "no such card", 0, None, None, "bot")
    outcomes = apply_words(club, [before, out_of_turn, not_a_word, after])
    assert isinstance(outcomes[0], Applied) and isinstance(outcomes[3], Applied)
    assert [o.code for o in outcomes[1:3]] == ["not_your_turn", "illegal_action"]
    assert [_replayed(club, pid)[1] for pid in pids] == [1, 0, 1]
    club.db.dispose()


def test_words_from_the_event_loop_are_answered_in_the_loop_one_batch_at_a_time(settings, monkeypatch):
    import asyncio

    from app.tables import service

    club, pids = club_with_parties(settings, 3)
    words = [next_word(club, pid, 0) for pid in pids]
    stale = Word(words[0].partie_id, words[0].seat, words[0].word, 0, None, None, "bot")
    applying, queued, sizes = threading.Event(), threading.Event(), []
    real_apply_words = service.apply_words

    def recorded(club_, jobs):
        sizes.append(len(jobs))
        if len(sizes) == 1:
            applying.set()
            queued.wait(10)  # the rest queue behind the first word
        return real_apply_words(club_, jobs)

    monkeypatch.setattr(service, "apply_words", recorded)

    async def say_all():
        loop = asyncio.get_running_loop()
        futures = [club.writer.submit_async(words[0])]
        assert await loop.run_in_executor(None, applying.wait, 10)
        futures += [club.writer.submit_async(w) for w in [*words[1:], stale]]
        assert all(f.get_loop() is loop for f in futures)  # the loop's own futures
        gone = club.writer.submit_async(next_word(club, pids[1], 0))
        gone.cancel()  # its caller stopped waiting: the batch is answered all the same
        queued.set()
        return await asyncio.gather(*futures, return_exceptions=True)

    outcomes = asyncio.run(say_all())
    assert outcomes[:3] == [Applied(1, w.seat, w.word, duplicate=False) for w in words]
    assert isinstance(outcomes[3], ClubError) and outcomes[3].code == "stale_version"  # it fails alone
    assert sizes == [1, 4]
    assert [_replayed(club, pid)[1] for pid in pids] == [1, 1, 1]
    club.writer.stop()
    club.db.dispose()


def test_stop_writes_what_was_queued_and_refuses_what_comes_after(settings):
    club, pids = club_with_parties(settings, 4)
    words = [next_word(club, pid, 0) for pid in pids]
    futures = [club.writer.submit(w) for w in words]
    club.writer.stop()
    assert all(f.done() and f.result().version == 1 for f in futures)
    late = club.writer.submit(next_word(club, pids[0], 1))
    with pytest.raises(RuntimeError, match="stopping"):
        late.result(timeout=1)
    assert all(_replayed(club, pid)[1] == 1 for pid in pids)
    club.db.dispose()


def test_an_idle_writer_ends_its_thread_and_the_next_word_starts_one(settings):
    club, pids = club_with_parties(settings, 1)
    club.writer.idle_seconds = 0.05
    assert club.writer.submit(next_word(club, pids[0], 0)).result(timeout=10).version == 1
    for _ in range(100):
        if club.writer._thread is None:
            break
        threading.Event().wait(0.02)
    assert club.writer._thread is None
    assert club.writer.submit(next_word(club, pids[0], 1)).result(timeout=10).version == 2
    club.writer.stop()
    club.db.dispose()


def test_the_word_statements_store_what_the_models_read(settings):
    """The prepared statements (app/db/prepared.py) convert like SQLAlchemy: UTC datetimes, JSON."""
    club, pids = club_with_parties(settings, 1)
    pid = pids[0]
    version = 0
    before = datetime.now(timezone.utc)
    # Play the first deal through: its end writes the partie's result (JSON) as well.
    while True:
        w = next_word(club, pid, version)
        outcome = apply_words(club, [w])[0]
        assert isinstance(outcome, Applied), outcome
        version = outcome.version
        with club.db.read() as s:
            partie = s.get(Partie, pid)
            if partie.result and partie.result["deals"]:
                break
    with club.db.read() as s:
        first = s.scalar(select(Action).where(Action.partie_id == pid, Action.seq == 1))
        partie = s.get(Partie, pid)
        assert first.created_at.tzinfo is not None
        assert before - timedelta(seconds=1) <= first.created_at <= datetime.now(timezone.utc)
        assert partie.version == version and partie.status == "running"
        assert partie.result["deals"][0]["points"] == club.tables.peek(pid).engine.result()["deals"][0]["points"]
    club.db.dispose()


def test_freezing_keeps_survivors_out_of_the_collections_until_the_complete_one():
    gc.unfreeze()
    try:
        class Node:
            pass

        a, b = Node(), Node()
        a.other, b.other = b, a
        alive = weakref.ref(a)
        gcpauses.freeze_survivors()
        assert gc.get_freeze_count() > 0  # what survived is no longer walked by the automatic collections
        # a cycle that becomes garbage after the freeze waits for the complete collection
        del a, b
        gc.collect()
        assert alive() is not None
        pause = gcpauses.collect_everything()
        assert alive() is None and pause >= 0
        # young garbage is collected before a freeze, not frozen with the survivors
        c, d = Node(), Node()
        c.other, d.other = d, c
        young = weakref.ref(c)
        del c, d
        gcpauses.freeze_survivors()
        assert young() is None
    finally:
        gc.unfreeze()


def test_the_collections_thresholds_are_raised_while_a_server_keeps_pauses_short_and_restored_after():
    before = gc.get_threshold()

    async def main():
        keepers = [asyncio.ensure_future(gcpauses.keep_pauses_short(60, 0)) for _ in range(2)]  # two servers
        await asyncio.sleep(0)
        assert gc.get_threshold() == gcpauses.THRESHOLDS
        keepers[0].cancel()
        await asyncio.gather(keepers[0], return_exceptions=True)
        assert gc.get_threshold() == gcpauses.THRESHOLDS  # the other one still runs
        keepers[1].cancel()
        await asyncio.gather(keepers[1], return_exceptions=True)

    asyncio.run(main())
    assert gc.get_threshold() == before
