"""The end of a partie reaches subscribers of ``club.finished`` once, after the commit of
the word that ended it, off the word path; a failing subscriber does not stop the others
or the table."""

from __future__ import annotations

import threading

from app.parties.events import PartieFinished
from app.tables.service import apply_words
from tests.support.tables import club_with_parties, next_word


def test_the_end_of_a_partie_is_published_once_after_its_commit(settings):
    club, (pid, other) = club_with_parties(settings, 2)
    heard: list[PartieFinished] = []
    committed: list[str] = []
    delivered = threading.Event()

    def failing(notice: PartieFinished) -> None:
        raise RuntimeError("a broken subscriber")

    def record(notice: PartieFinished) -> None:
        with club.db.read() as s:  # the partie is already finished in the database
            from app.parties.lookup import get_partie

            committed.append(get_partie(s, notice.partie_id).status)
        heard.append(notice)
        delivered.set()

    club.finished.subscribe(failing)
    club.finished.subscribe(record)
    version = 0
    while True:
        (outcome,) = apply_words(club, [next_word(club, pid, version)])
        version = outcome.version
        if club.tables.peek(pid).engine.finished:
            break
        assert heard == []  # nothing before the last word
    apply_words(club, [next_word(club, other, 0)])  # another table's word publishes nothing
    club.finished.drain(10)
    assert delivered.is_set()
    assert [n.partie_id for n in heard] == [pid] and committed == ["finished"]
    assert heard[0].game == "lora" and heard[0].result == club.tables.peek(pid).engine.result()
    club.finished.close()
    if club.writer is not None:
        club.writer.stop()
    club.db.dispose()
