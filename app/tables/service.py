"""Playing at a table: views for a seat, and applying a word to the action log.

A word is applied in one write transaction that locks the partie row (PostgreSQL) or
the database (SQLite ``BEGIN IMMEDIATE``), checks the version and the rules, appends
the action and bumps the version; the notice goes out only after the commit, so nothing
acknowledged or broadcast can be lost.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from app.club import Club
from app.db.database import for_update
from app.db.models import Action, Partie, PartieSeat
from app.db.types import utcnow
from app.errors import ClubError, Conflict, Forbidden, Invalid, NotFound
from app.games.base import GameError
from app.members.service import CurrentMember
from app.tables.cache import LiveTable, Snapshot, deadline_after, deadline_for
from app.tables.engines import public_word


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


def cached_events_since(
    club: Club, partie_id: int, seat: int | None, since: int, known_version: int, blocking: bool = True
) -> list[dict] | None:
    """Like :func:`events_since` from memory only: None unless the cache has ``known_version``."""
    table = club.tables.peek(partie_id)
    if table is None or not table.lock.acquire(blocking=blocking):
        return None
    try:
        if table.broken or table.version < known_version:
            return None
        snaps = table.events_since(since)
        if snaps is None:
            return None
        return [event_frame(table.game, snap, seat, table.timer, table.bot_seats) for snap in snaps]
    finally:
        table.lock.release()


def events_since(club: Club, partie_id: int, seat: int | None, since: int) -> tuple[list[dict], dict | None]:
    """The event frames after ``since`` for a seat, or (``[]``, a state frame) to resync."""
    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        if partie.status not in ("running", "finished"):
            return [], state_frame(partie, None, seat)
        table = open_table(club, s, partie)
        with table.lock:
            snaps = table.events_since(since)
            if snaps is None:
                return [], state_frame(partie, table.latest, seat)
            bots = bot_seats(partie)
            return [event_frame(partie.game, snap, seat, partie.timer_seconds, bots) for snap in snaps], None


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
    with table.lock:
        mutated = False
        try:
            with db.write() as s:
                partie = get_partie(s, partie_id, lock=True, db=db)
                if action_id is not None:
                    first = s.scalar(
                        select(Action).where(Action.partie_id == partie_id, Action.client_action_id == action_id)
                    )
                    if first is not None:
                        if (first.seat, first.word) != (seat, word):
                            raise Conflict(
                                "this action id was already used for another word", code="action_id_reused"
                            )
                        return Applied(first.seq, first.seat, first.word, duplicate=True)
                if partie.status != "running":
                    raise Conflict("this partie is not being played", code="not_running")
                seat_row = partie.seats[seat]
                if source == "member" and seat_row.taken_over:
                    raise Forbidden("a computer player plays this seat now", code="seat_taken_over")
                if table.version < partie.version:
                    table.catch_up(s)  # another instance wrote since this cache last looked
                if version != partie.version:
                    raise StaleVersion(
                        f"the table is at version {partie.version}, not {version}",
                        current=state_frame(partie, table.latest, seat if source == "member" else None),
                    )
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
                s.add(
                    Action(
                        partie_id=partie_id,
                        seq=new_version,
                        seat=seat,
                        word=word,
                        client_action_id=action_id,
                        member_id=member_id,
                        source=source,
                        created_at=now,
                    )
                )
                partie.version = new_version
                partie.deadline_at = deadline_for(to_act, finished, now, partie.timer_seconds, bot_seats(partie))
                if finished:
                    partie.status = "finished"
                    partie.finished_at = now
                if finished or engine.deal_index != deal_before:
                    partie.result = engine.result()
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
    club.poke_bots(partie_id)
    return Applied(new_version, seat, word, duplicate=False)
