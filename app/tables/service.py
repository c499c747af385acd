"""Playing at a table: views for a seat, and applying a word to the action log.

A word is applied in one write transaction that locks the partie row (PostgreSQL) or
the database (SQLite ``BEGIN IMMEDIATE``), checks the version and the rules, appends
the action and bumps the version; the notice goes out only after the commit, so nothing
acknowledged or broadcast can be lost.
"""

from __future__ import annotations

import copy
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session, joinedload

from app.club import Club
from app.db.database import for_update
from app.db.models import Action, Partie, PartieSeat
from app.db.types import utcnow
from app.errors import ClubError, Conflict, Forbidden, Invalid, NotFound
from app.games.base import GameError
from app.members.service import CurrentMember
from app.tables.cache import LiveTable, Snapshot, deadline_after, deadline_for, to_json
from app.tables.engines import public_word

T = TypeVar("T")

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
_INSERT_ACTION = insert(_ACTIONS)
_UPDATE_PARTIE = update(_PARTIES).where(_PARTIES.c.id == bindparam("pid"))


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


def get_partie(session: Session, partie_id: int, lock: bool = False, db=None) -> Partie:
    # One query for the partie and its seats: this runs for every word said.
    stmt = select(Partie).where(Partie.id == partie_id).options(joinedload(Partie.seats))
    if lock and db is not None:
        stmt = for_update(stmt, db, of=Partie)
    partie = session.scalar(stmt)
    if partie is None:
        raise NotFound(f"there is no partie {partie_id}", code="no_such_partie")
    return partie


def seat_of(partie: Partie, member_id: int | None) -> int | None:
    if member_id is None:
        return None
    for seat in partie.seats:
        if seat.member_id == member_id:
            return seat.seat
    return None


def player_name(seat: PartieSeat) -> str:
    if seat.member is not None:
        return seat.member.name
    return f"AI {seat.seat + 1}"


def seats_info(partie: Partie) -> list[dict[str, Any]]:
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "name": player_name(s) if s.kind != "open" or s.member else None,
            "answer": s.answer,
            "away": s.away,
            "computer": s.played_by_bot,
            "taken_over": s.taken_over,
            "takeover_votes": list(s.takeover_votes or []),
        }
        for s in partie.seats
    ]


def bot_seats(partie: Partie) -> set[int]:
    return {s.seat for s in partie.seats if s.played_by_bot}


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def event_frame(game: str, snap: Snapshot, seat: int | None, timer: int | None, bots: set[int]) -> dict:
    """One versioned event as ``seat`` may see it."""
    frame: dict[str, Any] = {"type": "event", "version": snap.version}
    if snap.action is not None:
        actor, word = snap.action
        frame["action"] = {"seat": actor, "word": public_word(game, word, own=actor == seat)}
    frame.update(_table_part(snap, seat, timer, bots))
    return frame


def event_text(game: str, snap: Snapshot, seat: int | None, timer: int | None, bots: set[int]) -> str:
    """:func:`event_frame` as JSON text, serialized once per (version, seat, deadline) and shared."""
    deadline = _iso(deadline_after(snap, timer, bots))

    def build() -> str:
        parts = ['{"type":"event","version":', str(snap.version)]
        if snap.action is not None:
            actor, word = snap.action
            parts += [',"action":', to_json({"seat": actor, "word": public_word(game, word, own=actor == seat)})]
        parts += [
            ',"view":', snap.view_json_for(seat),
            ',"legal":', to_json(snap.legal_for(seat)),
            ',"to_act":', to_json(snap.to_act),
            ',"deal_index":', to_json(snap.deal_index),
            ',"finished":', to_json(snap.finished),
            ',"deadline":', to_json(deadline),
            "}",
        ]
        return "".join(parts)

    return snap.frame_text((seat, deadline), build)


def _table_part(snap: Snapshot, seat: int | None, timer: int | None, bots: set[int]) -> dict[str, Any]:
    return {
        "view": snap.view_for(seat),
        "legal": snap.legal_for(seat),
        "to_act": snap.to_act,
        "deal_index": snap.deal_index,
        "finished": snap.finished,
        "deadline": _iso(deadline_after(snap, timer, bots)),
    }


def state_frame(partie: Partie, snap: Snapshot | None, seat: int | None) -> dict[str, Any]:
    """The whole picture for ``seat``: sent on connect and whenever a client must resync."""
    frame: dict[str, Any] = {
        "type": "state",
        "partie": partie.id,
        "game": partie.game,
        "status": partie.status,
        "settings": partie.settings,
        "timer": partie.timer_seconds,
        "seat": seat,
        "seats": seats_info(partie),
        "version": partie.version,
    }
    if snap is not None:
        frame["version"] = snap.version
        frame.update(_table_part(snap, seat, partie.timer_seconds, bot_seats(partie)))
    return frame


def open_table(club: Club, session: Session, partie: Partie) -> LiveTable:
    if partie.status not in ("running", "finished"):
        raise Conflict("this partie has not started", code="not_started")
    return club.tables.get(session, partie)


def table_state(club: Club, partie_id: int, member: CurrentMember | None) -> dict[str, Any]:
    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        seat = seat_of(partie, member.id if member else None)
        if partie.status not in ("running", "finished"):
            return state_frame(partie, None, seat)
        table = open_table(club, s, partie)
        with table.lock:
            return state_frame(partie, table.latest, seat)


def cached_event_texts_since(
    club: Club, partie_id: int, seat: int | None, since: int, known_version: int, blocking: bool = True
) -> list[tuple[int, bool, str]] | None:
    """The event frames after ``since`` for a seat from memory only, as ``(version,
    finished, text)`` (the frames as sent, shared): None unless the cache reaches
    ``known_version``.

    ``blocking`` (a worker thread, not the event loop): a cached table behind
    ``known_version`` (another instance applied the word) reads only the new actions of
    the log, once for all the connections of this process, instead of each connection
    reloading the partie.
    """
    table = club.tables.peek(partie_id)
    if table is None or not table.lock.acquire(blocking=blocking):
        return None
    try:
        if table.broken:
            return None
        if table.version < known_version:
            if not blocking or not table.history:
                return None
            try:
                with club.db.read() as s:
                    table.catch_up(s)
            except Exception:
                club.tables.invalidate(partie_id)  # the full path reloads it
                return None
            if table.version < known_version:
                return None
        snaps = table.events_since(since)
        if snaps is None:
            return None
        return [
            (snap.version, snap.finished, event_text(table.game, snap, seat, table.timer, table.bot_seats))
            for snap in snaps
        ]
    finally:
        table.lock.release()


def _events_since(club: Club, partie_id: int, seat: int | None, since: int,
                  render: Callable[[Partie, Snapshot], T]) -> tuple[list[T], dict | None]:
    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        if partie.status not in ("running", "finished"):
            return [], state_frame(partie, None, seat)
        table = open_table(club, s, partie)
        with table.lock:
            snaps = table.events_since(since)
            if snaps is None:
                return [], state_frame(partie, table.latest, seat)
            return [render(partie, snap) for snap in snaps], None


def event_texts_since(
    club: Club, partie_id: int, seat: int | None, since: int
) -> tuple[list[tuple[int, bool, str]], dict | None]:
    """:func:`events_since` with the events as ``(version, finished, text)``."""
    def render(partie: Partie, snap: Snapshot) -> tuple[int, bool, str]:
        return snap.version, snap.finished, event_text(partie.game, snap, seat, partie.timer_seconds, bot_seats(partie))

    return _events_since(club, partie_id, seat, since, render)


def events_since(club: Club, partie_id: int, seat: int | None, since: int) -> tuple[list[dict], dict | None]:
    """The event frames after ``since`` for a seat, or (``[]``, a state frame) to resync."""
    def render(partie: Partie, snap: Snapshot) -> dict:
        return event_frame(partie.game, snap, seat, partie.timer_seconds, bot_seats(partie))

    return _events_since(club, partie_id, seat, since, render)


def submit(
    club: Club,
    partie_id: int,
    member: CurrentMember,
    word: str,
    version: int,
    action_id: str | None,
) -> Applied:
    """A member's word for his own seat."""
    table = club.tables.peek(partie_id)
    if table is not None and member.id in table.member_seats:
        seat = table.member_seats[member.id]  # seats never change hands once a partie runs
    else:
        with club.db.read() as s:
            seat = seat_of(get_partie(s, partie_id), member.id)
    if seat is None:
        raise Forbidden("you do not play at this table", code="not_a_player")
    return apply_word(club, partie_id, seat, word, version, action_id, member.id, "member")


_sqlite_write_locks: "weakref.WeakKeyDictionary[Any, threading.Lock]" = weakref.WeakKeyDictionary()
_locks_lock = threading.Lock()


def _word_lock(db) -> threading.Lock | None:
    """SQLite: one word at a time per process waits for the database in Python, not in
    SQLite's busy handler (which sleeps up to 100 ms between tries while the file is free)."""
    if not db.is_sqlite:
        return None
    with _locks_lock:
        lock = _sqlite_write_locks.get(db)
        if lock is None:
            lock = _sqlite_write_locks[db] = threading.Lock()
        return lock


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
    if not isinstance(word, str) or not word or len(word) > 64:
        raise Invalid("a word is a non-empty string of at most 64 characters", code="illegal_action")
    db = club.db
    table = club.tables.peek(partie_id)
    if table is None:
        with db.read() as s:
            table = open_table(club, s, get_partie(s, partie_id))
    word_lock = _word_lock(db)
    with table.lock:
        mutated = False
        try:
            if word_lock is not None:
                word_lock.acquire()
            try:
                # One write transaction (BEGIN IMMEDIATE on SQLite) of Core statements on a
                # connection: the columns needed, no ORM session or objects on the hot path.
                with db.write_engine.begin() as conn:
                    rows = conn.execute(
                        _PARTIE_ROWS if db.is_sqlite else _PARTIE_ROWS_LOCKED, {"pid": partie_id}
                    ).all()
                    if not rows:
                        raise NotFound(f"there is no partie {partie_id}", code="no_such_partie")
                    partie_version, status, timer_seconds = rows[0][:3]
                    seat_rows = [r for r in rows if r.seat is not None]
                    if action_id is not None:
                        first = conn.execute(_FIRST_OF_ID, {"pid": partie_id, "aid": action_id}).one_or_none()
                        if first is not None:
                            if (first.seat, first.word) != (seat, word):
                                raise Conflict(
                                    "this action id was already used for another word", code="action_id_reused"
                                )
                            return Applied(first.seq, first.seat, first.word, duplicate=True)
                    if status != "running":
                        raise Conflict("this partie is not being played", code="not_running")
                    seat_row = seat_rows[seat]
                    if source == "member" and seat_row.taken_over:
                        raise Forbidden("a computer player plays this seat now", code="seat_taken_over")
                    bots = {r.seat for r in seat_rows if r.kind == "bot" or r.taken_over}
                    if table.version < partie_version:
                        with Session(bind=conn) as s:  # joins this transaction
                            table.catch_up(s)  # another instance wrote since this cache last looked
                    if version != partie_version:
                        with Session(bind=conn) as s:
                            current = state_frame(
                                get_partie(s, partie_id), table.latest, seat if source == "member" else None
                            )
                        raise StaleVersion(f"the table is at version {partie_version}, not {version}", current=current)
                    engine = table.engine
                    legal = engine.legal_actions(seat)  # the engine alone says who may speak
                    if not legal:
                        raise Invalid("it is not your turn", code="not_your_turn")
                    if word not in legal:
                        raise Invalid(
                            f"{word!r} is not legal now: {illegal_reason(engine, seat, word)}",
                            code="illegal_action",
                            legal=legal,
                        )
                    now = utcnow()
                    deal_before = engine.deal_index
                    mutated = True
                    table.apply_quietly(seat, word)
                    new_version, finished = table.version, engine.finished
                    to_act = [] if finished else list(engine.seats_to_act())
                    conn.execute(
                        _INSERT_ACTION,
                        {
                            "partie_id": partie_id,
                            "seq": new_version,
                            "seat": seat,
                            "word": word,
                            "client_action_id": action_id,
                            "member_id": member_id,
                            "source": source,
                            "created_at": now,
                        },
                    )
                    values: dict[str, Any] = {
                        "pid": partie_id,
                        "version": new_version,
                        "deadline_at": deadline_for(to_act, finished, now, timer_seconds, bots),
                    }
                    if finished:
                        values["status"] = "finished"
                        values["finished_at"] = now
                    if finished or engine.deal_index != deal_before:
                        values["result"] = engine.result()
                    conn.execute(_UPDATE_PARTIE, values)
            finally:
                if word_lock is not None:
                    word_lock.release()
            # Committed: now the views of the new version (outside the database lock).
            table.snapshot((seat, word), now)
        except ClubError:
            if mutated:
                club.tables.invalidate(partie_id)
            raise
        except Exception:
            club.tables.invalidate(partie_id)
            raise
    club.notify_partie(partie_id, {"kind": "advance", "version": new_version})
    if bots and (finished or bots.intersection(to_act)):
        # A computer seat is to act (or forgets the partie that ended); a person whose time
        # runs out is the deadline watcher's.
        club.poke_bots(partie_id)
    return Applied(new_version, seat, word, duplicate=False)
