"""Playing at a table: views for a seat, and applying a word to the action log.

A word is applied in a write transaction that locks the partie row (PostgreSQL) or
the database (SQLite ``BEGIN IMMEDIATE``), checks the version and the rules, appends
the action and bumps the version; the notice goes out only after the commit, so nothing
acknowledged or broadcast can be lost. The words of a process go through one thread
that commits the words waiting together (:mod:`app.tables.writer`), on SQLite and on
PostgreSQL alike; a batch locks its parties in id order, so two instances' batches
never wait on each other in a cycle.
"""

from __future__ import annotations

import copy
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session

from app.db.models import Action, Partie, PartieSeat
from app.db.prepared import Prepared
from app.errors import ClubError, Conflict, Forbidden, Invalid, NotFound
from app.games.base import GameError
from app.parties import slow
from app.parties.events import PartieFinished
from app.parties.lookup import get_partie, open_table, seat_of
from app.realtime import notices
from app.tables.cache import LiveTable, deadline_for
from app.tables.frames import state_frame
from app.tables.writer import WordWriter

if TYPE_CHECKING:
    from app.club import Club
    from app.members.service import CurrentMember

_PARTIES = Partie.__table__
_SEATS = PartieSeat.__table__
_ACTIONS = Action.__table__
# The statements of a word, built once (SQLAlchemy then reuses their compiled form).
# The partie's row with one row per seat (version, status, timer, seat, kind, taken_over).
_PARTIE_ROWS = (
    select(
        _PARTIES.c.version, _PARTIES.c.status, _PARTIES.c.timer_seconds,
        _SEATS.c.seat, _SEATS.c.kind, _SEATS.c.taken_over,
    )
    .select_from(_PARTIES.outerjoin(_SEATS, _SEATS.c.partie_id == _PARTIES.c.id))
    .where(_PARTIES.c.id == bindparam("pid"))
    .order_by(_SEATS.c.seat)
)
_PARTIE_ROWS_LOCKED = _PARTIE_ROWS.with_for_update(of=_PARTIES)
_FIRST_OF_ID = select(_ACTIONS.c.seq, _ACTIONS.c.seat, _ACTIONS.c.word).where(
    _ACTIONS.c.partie_id == bindparam("pid"), _ACTIONS.c.client_action_id == bindparam("aid")
)
_ACTION_COLUMNS = ("partie_id", "seq", "seat", "word", "client_action_id", "member_id", "source", "created_at")
_INSERT_ACTION = insert(_ACTIONS).values({k: bindparam(k) for k in _ACTION_COLUMNS})
# Run on the driver's cursor (app/db/prepared.py): the hot path of every table.
_PARTIE_ROWS_P = Prepared(_PARTIE_ROWS)
_PARTIE_ROWS_LOCKED_P = Prepared(_PARTIE_ROWS_LOCKED)
_FIRST_OF_ID_P = Prepared(_FIRST_OF_ID)
_INSERT_ACTION_P = Prepared(_INSERT_ACTION)
_UPDATES_P: dict[tuple[str, ...], Prepared] = {}


def _update_partie(columns: tuple[str, ...]) -> Prepared:
    """The partie's UPDATE setting ``columns`` (a word sets 2 to 5 of them)."""
    prepared = _UPDATES_P.get(columns)
    if prepared is None:
        stmt = update(_PARTIES).where(_PARTIES.c.id == bindparam("pid")).values({c: bindparam(c) for c in columns})
        prepared = _UPDATES_P[columns] = Prepared(stmt)
    return prepared


class StaleVersion(Conflict):
    code = "stale_version"


@dataclass(frozen=True)
class Applied:
    version: int
    seat: int
    word: str
    duplicate: bool  # a resend of an action id that was already applied


def illegal_reason(engine: Any, seat: int, word: str) -> str:
    """The engine's own reason for refusing ``word``, asked of a copy (the error path only)."""
    try:
        copy.deepcopy(engine).apply(seat, word)
    except GameError as e:
        return str(e)
    return "the rules do not allow it now"


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


# The source of a round's deadline word (app/tournaments/rounds.py): the server's, never in
# a seat's legal words; the game's engine alone accepts or refuses it.
DEADLINE = "deadline"


@dataclass(frozen=True)
class Word:
    """A word to apply: who says it, at which version, with which client action id."""

    partie_id: int
    seat: int
    word: str
    version: int
    action_id: str | None
    member_id: int | None
    source: str  # member, bot or timer


@dataclass
class _Said:
    """A word applied inside a transaction, for what follows its commit."""

    table: LiveTable
    applied: Applied
    bots: set[int]
    to_act: list[int]
    finished: bool
    to_act_before: list[int]  # the turn before this word


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
    said: list[tuple[int, _Said]] = []
    tables: list[LiveTable] = []
    failure: Exception | None = None
    order = sorted(range(len(jobs)), key=lambda i: jobs[i].partie_id)  # stable: a partie's words keep their order
    with ExitStack() as locks:
        try:
            with club.db.write_engine.begin() as conn:
                for i in order:
                    job = jobs[i]
                    try:
                        table = _table_for(club, conn, job.partie_id)
                        locks.enter_context(table.lock)  # held until the commit
                        tables.append(table)
                        outcome = _apply_in(conn, table, job, club.clock.now())
                    except ClubError as e:
                        outcomes[i] = e
                        continue
                    if isinstance(outcome, Applied):
                        outcomes[i] = outcome  # a resend: nothing new
                    else:
                        said.append((i, outcome))
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
            _tell_said(club, s)
    return outcomes  # type: ignore[return-value]


def _tell_said(club: Club, s: _Said) -> None:
    """What follows a committed word: the table's notice, the turns, the end, the computer players."""
    club.notify_partie(s.table.partie_id, {"kind": "advance", "version": s.applied.version})
    _tell_turns(club, s)
    if s.finished:
        club.finished.publish(PartieFinished(s.table.partie_id, s.table.game, s.table.engine.result()))
        # Its members hear it on every page (a toast with the way to its archive).
        notices.tell(club.hub, list(s.table.member_seats), "ended",
                     partie=s.table.partie_id, game=s.table.game, version=s.applied.version)
    if s.bots and (s.finished or s.bots.intersection(s.to_act)):
        # A computer seat is to act (or forgets the partie that ended); a person whose time
        # runs out is the deadline watcher's.
        club.poke_bots(s.table.partie_id)


def _tell_turns(club: Club, s: _Said) -> None:
    """The members whose turn this word began hear ``turn``, those whose turn it ended
    ``moved`` (their unread counts: app/parties/unread.py); seats of computer players
    and words that leave the turn as it was tell nobody."""
    seats = {seat: member for member, seat in s.table.member_seats.items() if seat not in s.bots}
    if not seats:
        return
    began = [seats[x] for x in s.to_act if x in seats and x not in s.to_act_before]
    ended = [seats[x] for x in s.to_act_before if x in seats and x not in s.to_act]
    about = {"partie": s.table.partie_id, "game": s.table.game, "version": s.applied.version}
    if began:
        notices.tell(club.hub, began, "turn", **about)
    if ended:
        notices.tell(club.hub, ended, "moved", **about)


def _table_for(club: Club, conn, partie_id: int) -> LiveTable:
    table = club.tables.peek(partie_id)
    if table is None:
        with Session(bind=conn) as s:  # joins the transaction
            table = open_table(club, s, get_partie(s, partie_id))
    return table


def _apply_in(conn, table: LiveTable, job: Word, now: datetime) -> Applied | _Said:
    """Check ``job`` and apply it in the open transaction ``conn``; the caller holds the table's lock.

    Core statements on the connection, no ORM objects: this is the hot path of every
    table. The cached table is moved on (with its snapshot) before the commit; if the
    commit fails, the caller drops the table from the cache.
    """
    partie_id, seat, word = job.partie_id, job.seat, job.word
    if not isinstance(word, str) or not word or len(word) > 64:
        raise Invalid("a word is a non-empty string of at most 64 characters", code="illegal_action")
    select_rows = _PARTIE_ROWS_P if conn.dialect.name == "sqlite" else _PARTIE_ROWS_LOCKED_P
    rows = select_rows.rows(conn, {"pid": partie_id})
    if not rows:
        raise NotFound(f"there is no partie {partie_id}", code="no_such_partie")
    partie_version, status, timer_seconds = rows[0][:3]
    # (seat, kind, taken_over) per seat, in seat order
    seat_rows = [r[3:] for r in rows if r[3] is not None]
    if job.action_id is not None:
        found = _FIRST_OF_ID_P.rows(conn, {"pid": partie_id, "aid": job.action_id})
        if found:
            first_seq, first_seat, first_word = found[0]
            if (first_seat, first_word) != (seat, word):
                raise Conflict("this action id was already used for another word", code="action_id_reused")
            return Applied(first_seq, first_seat, first_word, duplicate=True)
    if status != "running":
        raise Conflict("this partie is not being played", code="not_running")
    if job.source == "member" and seat_rows[seat][2]:
        raise Forbidden("a computer player plays this seat now", code="seat_taken_over")
    bots = {s for s, kind, taken_over in seat_rows if kind == "bot" or taken_over}
    if table.version < partie_version:
        with Session(bind=conn) as s:
            table.catch_up(s)  # another instance wrote since this cache last looked
    if job.version != partie_version:
        with Session(bind=conn) as s:
            current = state_frame(get_partie(s, partie_id), table.latest, seat if job.source == "member" else None)
        raise StaleVersion(f"the table is at version {partie_version}, not {job.version}", current=current)
    engine = table.engine
    slow_clocks = slow.is_slow(timer_seconds)
    if slow_clocks and job.source == "timer":
        slow.check_due(conn, partie_id, seat, now)  # checked before the engine moves
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
    _INSERT_ACTION_P.rows(
        conn,
        {
            "partie_id": partie_id,
            "seq": new_version,
            "seat": seat,
            "word": word,
            "client_action_id": job.action_id,
            "member_id": job.member_id,
            "source": job.source,
            "created_at": now,
        },
    )
    if slow_clocks:  # each player's own clock (app/parties/slow.py)
        deadline = slow.after_word(conn, partie_id, to_act, now, seat, job.source)
    else:
        deadline = deadline_for(to_act, finished, now, timer_seconds, bots)
    values: dict[str, Any] = {"pid": partie_id, "version": new_version, "deadline_at": deadline}
    if finished:
        values["status"] = "finished"
        values["finished_at"] = now
    if finished or engine.deal_index != deal_before:
        values["result"] = engine.result()
    _update_partie(tuple(k for k in values if k != "pid")).rows(conn, values)
    # The views of the new version now: a later word of the same batch (a resend, a stale
    # version) answers with this state.
    table.snapshot((seat, word), now, job.source)
    return _Said(table, Applied(new_version, seat, word, duplicate=False), bots, to_act, finished, to_act_before)
