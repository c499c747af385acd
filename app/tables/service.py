"""Playing at a table: views for a seat, and applying a word to the action log.

A word is applied in a write transaction that locks the partie row (PostgreSQL) or
the database (SQLite ``BEGIN IMMEDIATE``), checks the version and the rules, appends
the action and bumps the version; the notice goes out only after the commit, so nothing
acknowledged or broadcast can be lost. The words of a process go through one thread
that commits the words waiting together (:mod:`app.tables.writer`), on SQLite and on
PostgreSQL alike; a batch locks its parties in id order, so two instances' batches
never wait on each other in a cycle.

Here the word path itself; a word and its answer: :mod:`app.tables.words`; the batch's
statements and rows: :mod:`app.tables.batch`; what follows the commit: :mod:`app.tables.tells`.
"""

from __future__ import annotations

from contextlib import ExitStack
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from app.errors import ClubError, Conflict, Forbidden, Invalid, NotFound
from app.parties.clocks import clock_of
from app.parties.lookup import get_partie, open_table, seat_of
from app.tables.batch import Batch
from app.tables.cache import LiveTable
from app.tables.frames import state_frame
from app.tables.tells import Said, tell_said
from app.tables.words import DEADLINE, Applied, StaleVersion, Word, illegal_reason
from app.tables.writer import WordWriter

if TYPE_CHECKING:
    from app.club import Club
    from app.members.service import CurrentMember


def submit(
    club: Club,
    partie_id: int,
    member: CurrentMember,
    word: str,
    version: int,
    action_id: str | None,
) -> Applied:
    """A member's word for his own seat."""
    seat = cached_seat(club, partie_id, member.id)  # seats never change hands once a partie runs
    if seat is None:
        with club.db.read() as s:
            seat = seat_of(get_partie(s, partie_id), member.id)
    if seat is None:
        raise Forbidden("you do not play at this table", code="not_a_player")
    return apply_word(club, partie_id, seat, word, version, action_id, member.id, "member")


def cached_seat(club: Club, partie_id: int, member_id: int) -> int | None:
    """The member's seat from the cached table, without the database (None: not known here)."""
    table = club.tables.peek(partie_id)
    return table.member_seats.get(member_id) if table is not None else None


def start_word_writer(club: Club) -> None:
    """The words of this process go through one thread that commits the words waiting
    together (:mod:`app.tables.writer`): SQLite has one writer anyway, and on PostgreSQL a
    commit, its round trips and the notices' publish are shared by the batch."""
    if club.writer is None:
        club.writer = WordWriter(lambda jobs: apply_words(club, jobs))


def apply_word(
    club: Club,
    partie_id: int,
    seat: int,
    word: str,
    version: int,
    action_id: str | None,
    member_id: int | None,
    source: str,
) -> Applied:
    """Apply one word and wait for its commit (from any thread but the event loop's)."""
    job = Word(partie_id, seat, word, version, action_id, member_id, source)
    if club.writer is not None:
        return club.writer.submit(job).result()
    outcome = apply_words(club, [job])[0]
    if isinstance(outcome, BaseException):
        raise outcome
    return outcome


def apply_words(club: Club, jobs: list[Word]) -> list[Applied | BaseException]:
    """Apply words in one write transaction (BEGIN IMMEDIATE on SQLite; on PostgreSQL each
    partie row is locked), each checked against the state the ones before it left.

    The words are taken in the order of their parties' ids (a partie's own words in the
    order they came), so the row locks of two instances' batches are always taken in the
    same order and never deadlock. Every outcome is an :class:`Applied` (committed, or a
    resend of a committed word) or the error for that word, which changed nothing: the
    checks that refuse a word (version, turn, rules) come before its writes, so a refused
    word leaves the transaction usable for the others. The notices go out only after the
    commit (one hub batch: app/realtime/hub.py), so nothing acknowledged or broadcast can
    be lost. If the transaction itself fails, the words are tried again one per
    transaction, so one bad word cannot take the others down with it.
    """
    outcomes: list[Applied | BaseException | None] = [None] * len(jobs)
    said: list[tuple[int, Said]] = []
    tables: list[LiveTable] = []
    failure: Exception | None = None
    order = sorted(range(len(jobs)), key=lambda i: jobs[i].partie_id)  # stable: a partie's words keep their order
    with ExitStack() as locks:
        try:
            with club.db.write_engine.begin() as conn:
                batch = Batch(conn, jobs)
                for i in order:
                    job = jobs[i]
                    try:
                        table = _table_for(club, batch, job.partie_id)
                        locks.enter_context(table.lock)  # held until the commit
                        tables.append(table)
                        outcome = _apply_in(batch, table, job, club.clock.now())
                    except ClubError as e:
                        outcomes[i] = e
                        continue
                    if isinstance(outcome, Applied):
                        outcomes[i] = outcome  # a resend: nothing new
                    else:
                        said.append((i, outcome))
                batch.flush()
        except Exception as e:
            failure = e
            for table in tables:
                club.tables.invalidate(table.partie_id)  # its engine may hold words never written
    if failure is not None:
        if len(jobs) > 1:
            return [outcome for job in jobs for outcome in apply_words(club, [job])]
        return [failure]
    for i, s in said:
        outcomes[i] = s.applied
    with club.hub.batch():  # one wake-up of the event loop, one Redis round trip
        for _, s in said:
            tell_said(club, s)
    return outcomes  # type: ignore[return-value]


def _table_for(club: Club, batch: Batch, partie_id: int) -> LiveTable:
    table = club.tables.peek(partie_id)
    if table is None:
        batch.flush()
        with Session(bind=batch.conn) as s:  # joins the transaction
            table = open_table(club, s, get_partie(s, partie_id))
    return table


def _apply_in(batch: Batch, table: LiveTable, job: Word, now: datetime) -> Applied | Said:
    """Check ``job`` and apply it in the batch's open transaction; the caller holds the table's lock.

    No ORM objects and no statement of its own unless the partie needs it (a slow clock,
    a stale version, a cache behind the log): this is the hot path of every table. The
    cached table is moved on (with its snapshot) before the commit; if the commit fails,
    the caller drops the table from the cache.
    """
    conn = batch.conn
    partie_id, seat, word = job.partie_id, job.seat, job.word
    if not isinstance(word, str) or not word or len(word) > 64:
        raise Invalid("a word is a non-empty string of at most 64 characters", code="illegal_action")
    row = batch.parties.get(partie_id)
    if row is None:
        raise NotFound(f"there is no partie {partie_id}", code="no_such_partie")
    if job.action_id is not None:
        found = batch.action_ids.get((partie_id, job.action_id))
        if found:
            first_seq, first_seat, first_word = found
            if (first_seat, first_word) != (seat, word):
                raise Conflict("this action id was already used for another word", code="action_id_reused")
            return Applied(first_seq, first_seat, first_word, duplicate=True)
    if row.status != "running":
        raise Conflict("this partie is not being played", code="not_running")
    if job.source == "member" and row.seats[seat][2]:
        raise Forbidden("a computer player plays this seat now", code="seat_taken_over")
    bots = {s for s, kind, taken_over in row.seats if kind == "bot" or taken_over}
    if table.version < row.version:
        batch.flush()
        with Session(bind=conn) as s:
            table.catch_up(s)  # another instance wrote since this cache last looked
    if job.version != row.version:
        batch.flush()
        with Session(bind=conn) as s:
            current = state_frame(get_partie(s, partie_id), table.latest, seat if job.source == "member" else None)
        raise StaleVersion(f"the table is at version {row.version}, not {job.version}", current=current)
    engine = table.engine
    clock = clock_of(row.timer_seconds)
    clock.before_word(conn, partie_id, seat, now, job.source, batch.flush)
    if job.source == DEADLINE:
        if word != engine.deadline_word or not engine.accepts_deadline():
            raise Invalid(f"{word!r} is not this partie's deadline word now", code="illegal_action")
    else:
        legal = engine.legal_actions(seat)  # the engine alone says who may speak
        if not legal:
            raise Invalid("it is not your turn", code="not_your_turn")
        if word not in legal:
            raise Invalid(
                f"{word!r} is not legal now: {illegal_reason(engine, seat, word)}", code="illegal_action", legal=legal
            )
    deal_before = engine.deal_index
    to_act_before = list(table.latest.to_act) if table.history else []
    table.apply_quietly(seat, word)
    new_version, finished = table.version, engine.finished
    to_act = [] if finished else list(engine.seats_to_act())
    batch.inserts.append(
        {
            "partie_id": partie_id,
            "seq": new_version,
            "seat": seat,
            "word": word,
            "client_action_id": job.action_id,
            "member_id": job.member_id,
            "source": job.source,
            "created_at": now,
        }
    )
    deadline = clock.after_word(conn, partie_id, seat, job.source, to_act, finished, now, row.timer_seconds, bots,
                                batch.flush)
    values: dict[str, Any] = {"version": new_version, "deadline_at": deadline}
    if finished:
        values["status"] = "finished"
        values["finished_at"] = now
    if finished or engine.deal_index != deal_before:
        values["result"] = engine.result()
    batch.update(partie_id, values)
    row.version = new_version
    if finished:
        row.status = "finished"
    if job.action_id is not None:
        batch.action_ids[(partie_id, job.action_id)] = (new_version, seat, word)
    # The views of the new version now: a later word of the same batch (a resend, a stale
    # version) answers with this state.
    table.snapshot((seat, word), now, job.source)
    return Said(table, Applied(new_version, seat, word, duplicate=False), bots, to_act, finished, to_act_before)
