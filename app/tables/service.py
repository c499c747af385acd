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
import re
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, bindparam, insert, or_, select, update
from sqlalchemy.orm import Session

from app.db.models import Action, Partie, PartieSeat
from app.db.prepared import Prepared
from app.errors import ClubError, Conflict, Forbidden, Invalid, NotFound
from app.games.base import GameError
from app.parties import slow
from app.parties.slow_clocks import after_word, check_due
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
# The statements of a batch of words, built once per size (SQLAlchemy compiles each once
# per dialect, app/db/prepared.py): the hot path of every table.
_ACTION_COLUMNS = ("partie_id", "seq", "seat", "word", "client_action_id", "member_id", "source", "created_at")
_INSERT_ACTION_P = Prepared(insert(_ACTIONS).values({k: bindparam(k) for k in _ACTION_COLUMNS}))
_STATEMENTS: dict[tuple, Prepared] = {}


def _parties_rows(n: int, lock: bool) -> Prepared:
    """The rows of ``n`` parties (``p0``..), one per seat (id, version, status, timer, seat,
    kind, taken_over), in the order of the parties' ids: the order their rows are locked."""
    key = ("parties", n, lock)
    prepared = _STATEMENTS.get(key)
    if prepared is None:
        stmt = (
            select(
                _PARTIES.c.id, _PARTIES.c.version, _PARTIES.c.status, _PARTIES.c.timer_seconds,
                _SEATS.c.seat, _SEATS.c.kind, _SEATS.c.taken_over,
            )
            .select_from(_PARTIES.outerjoin(_SEATS, _SEATS.c.partie_id == _PARTIES.c.id))
            .where(_PARTIES.c.id.in_([bindparam(f"p{i}") for i in range(n)]))
            .order_by(_PARTIES.c.id, _SEATS.c.seat)
        )
        prepared = _STATEMENTS[key] = Prepared(stmt.with_for_update(of=_PARTIES) if lock else stmt)
    return prepared


def _actions_of_ids(n: int) -> Prepared:
    """The actions of ``n`` (partie ``p{i}``, client action id ``a{i}``) pairs."""
    key = ("ids", n)
    prepared = _STATEMENTS.get(key)
    if prepared is None:
        c = _ACTIONS.c
        stmt = select(c.partie_id, c.client_action_id, c.seq, c.seat, c.word).where(
            or_(*(and_(c.partie_id == bindparam(f"p{i}"), c.client_action_id == bindparam(f"a{i}")) for i in range(n)))
        )
        prepared = _STATEMENTS[key] = Prepared(stmt)
    return prepared


def _update_partie(columns: tuple[str, ...]) -> Prepared:
    """The partie's UPDATE setting ``columns`` (a word sets 2 to 5 of them)."""
    key = ("update", columns)
    prepared = _STATEMENTS.get(key)
    if prepared is None:
        stmt = update(_PARTIES).where(_PARTIES.c.id == bindparam("pid")).values({c: bindparam(c) for c in columns})
        prepared = _STATEMENTS[key] = Prepared(stmt)
    return prepared


@dataclass
class _PartieRow:
    """A partie's row as the batch leaves it."""

    version: int
    status: str
    timer_seconds: int | None
    seats: list[tuple[int, str, bool]]  # (seat, kind, taken_over) in seat order


class _Batch:
    """The database side of a batch of words in its transaction: its parties' rows (locked
    in id order on PostgreSQL) and the actions its ids name, read once for all its words;
    its writes (the actions, the parties' new versions) sent together before the commit.
    So a batch costs a handful of round trips however many words it has."""

    def __init__(self, conn, jobs: list[Word]):
        self.conn = conn
        self.inserts: list[dict[str, Any]] = []
        self.updates: dict[int, dict[str, Any]] = {}  # partie id -> the columns its words set
        pids = sorted({job.partie_id for job in jobs})
        rows = _parties_rows(len(pids), lock=conn.dialect.name != "sqlite").rows(
            conn, {f"p{i}": pid for i, pid in enumerate(pids)}
        )
        self.parties: dict[int, _PartieRow] = {}
        for pid, version, status, timer_seconds, seat, kind, taken_over in rows:
            row = self.parties.get(pid)
            if row is None:
                row = self.parties[pid] = _PartieRow(version, status, timer_seconds, [])
            if seat is not None:
                row.seats.append((seat, kind, taken_over))
        named = list({(job.partie_id, job.action_id) for job in jobs if job.action_id is not None})
        self.action_ids: dict[tuple[int, str], tuple[int, int, str]] = {}
        if named:
            params = {}
            for i, (pid, aid) in enumerate(named):
                params[f"p{i}"], params[f"a{i}"] = pid, aid
            for pid, aid, seq, seat, word in _actions_of_ids(len(named)).rows(conn, params):
                self.action_ids[(pid, aid)] = (seq, seat, word)

    def update(self, partie_id: int, values: dict[str, Any]) -> None:
        self.updates.setdefault(partie_id, {"pid": partie_id}).update(values)

    def flush(self) -> None:
        """Send the writes held so far (before the commit, and before anything reads the
        database through the ORM in the middle of the batch)."""
        _INSERT_ACTION_P.run_many(self.conn, self.inserts)
        by_columns: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for values in self.updates.values():
            by_columns.setdefault(tuple(k for k in values if k != "pid"), []).append(values)
        for columns, params in by_columns.items():
            _update_partie(columns).run_many(self.conn, params)
        self.inserts, self.updates = [], {}


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


# A client's action id: 1 to 64 characters, no control character (it is stored and looked
# up, and PostgreSQL's text holds no NUL).
ACTION_ID_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]{1,64}$"
_ACTION_ID = re.compile(ACTION_ID_PATTERN)


def action_id_ok(action_id: object) -> bool:
    return isinstance(action_id, str) and _ACTION_ID.match(action_id) is not None


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
                batch = _Batch(conn, jobs)
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


def _table_for(club: Club, batch: _Batch, partie_id: int) -> LiveTable:
    table = club.tables.peek(partie_id)
    if table is None:
        batch.flush()
        with Session(bind=batch.conn) as s:  # joins the transaction
            table = open_table(club, s, get_partie(s, partie_id))
    return table


def _apply_in(batch: _Batch, table: LiveTable, job: Word, now: datetime) -> Applied | _Said:
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
    slow_clocks = slow.is_slow(row.timer_seconds)
    if slow_clocks and job.source == "timer":
        batch.flush()
        check_due(conn, partie_id, seat, now)  # checked before the engine moves
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
    if slow_clocks:  # each player's own clock (app/parties/slow.py)
        batch.flush()
        deadline = after_word(conn, partie_id, to_act, now, seat, job.source)
    else:
        deadline = deadline_for(to_act, finished, now, row.timer_seconds, bots)
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
    return _Said(table, Applied(new_version, seat, word, duplicate=False), bots, to_act, finished, to_act_before)
