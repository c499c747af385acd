"""Reading a table: the state for a seat, and the events after a version (to catch up)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from sqlalchemy import and_, bindparam, select
from sqlalchemy.orm import joinedload

from app.db.models import Partie, TournamentRound
from app.errors import NotFound
from app.members.service import touch_member
from app.parties.lookup import bot_seats, get_partie, open_table, seat_of
from app.parties.clocks import clock_of
from app.tables.cache import Snapshot
from app.tables.frames import event_frame, event_text, state_frame
from app.tables.shapes import StateFrame
from app.parties.visibility import check_may_watch

if TYPE_CHECKING:
    from app.club import Club
    from app.members.service import CurrentMember

T = TypeVar("T")


# The partie, its seats and, at a tournament table, whether its round's deadline passed
# (rulings T3): one query for the read that every socket opening and seats notice makes.
_PARTIE_AND_ROUND = (
    select(Partie, TournamentRound.overdue)
    .outerjoin(TournamentRound, and_(TournamentRound.tournament_id == Partie.tournament_id,
                                     TournamentRound.round_no == Partie.tournament_round))
    .where(Partie.id == bindparam("pid"))
    .options(joinedload(Partie.seats))
)


def table_state(club: Club, partie_id: int, member: CurrentMember | None) -> StateFrame:
    with club.db.read() as s:
        row = s.execute(_PARTIE_AND_ROUND, {"pid": partie_id}).unique().first()
        if row is None:
            raise NotFound(f"there is no partie {partie_id}", code="no_such_partie")
        partie, overdue = row
        seat = seat_of(partie, member.id if member else None)
        check_may_watch(s, partie, member.id if member else None)
        if partie.status not in ("running", "finished"):
            return state_frame(partie, None, seat)
        table = open_table(club, s, partie)
        with table.lock:
            frame = state_frame(partie, table.latest, seat)
        clocks = clock_of(partie.timer_seconds).frame(s, partie, club.clock.now())
        if clocks is not None:  # every seat's clock (app/parties/slow.py)
            frame["slow"] = clocks
        if partie.tournament_id is not None:
            frame["round_time_up"] = bool(overdue)
        return frame


def pinged(club: Club, partie_id: int, member_id: int) -> tuple[int, str] | None:
    """A ping at a table: the member was there now; the partie's version and status as the
    database has them (None: no such partie), to compare the socket with."""
    touch_member(club.db, member_id)
    with club.db.read() as s:
        row = s.execute(select(Partie.version, Partie.status).where(Partie.id == partie_id)).first()
    return (row[0], row[1]) if row is not None else None


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


def _events_since(club: Club, partie_id: int, seat: int | None | Callable[[Partie], int | None], since: int,
                  render: Callable[[Partie, int | None, Snapshot], T],
                  viewer: CurrentMember | None = None) -> tuple[list[T], StateFrame | None]:
    """``seat``: the seat, or how to find it in the partie (read once for both);
    ``viewer``: a member asking over REST, who must be allowed to watch the table."""
    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        if viewer is not None:
            check_may_watch(s, partie, viewer.id)
        if callable(seat):
            seat = seat(partie)
        if partie.status not in ("running", "finished"):
            return [], state_frame(partie, None, seat)
        table = open_table(club, s, partie)
        with table.lock:
            snaps = table.events_since(since)
            if snaps is None:
                return [], state_frame(partie, table.latest, seat)
            return [render(partie, seat, snap) for snap in snaps], None


def event_texts_since(
    club: Club, partie_id: int, seat: int | None, since: int
) -> tuple[list[tuple[int, bool, str]], StateFrame | None]:
    """:func:`events_since` with the events as ``(version, finished, text)``."""
    def render(partie: Partie, seat: int | None, snap: Snapshot) -> tuple[int, bool, str]:
        return snap.version, snap.finished, event_text(partie.game, snap, seat, partie.timer_seconds, bot_seats(partie))

    return _events_since(club, partie_id, seat, since, render)


def events_since(club: Club, partie_id: int, member: CurrentMember | None,
                 since: int) -> tuple[list[dict], StateFrame | None]:
    """The event frames after ``since`` for the member's seat (a spectator's if he has
    none), or (``[]``, a state frame) to resync."""
    def render(partie: Partie, seat: int | None, snap: Snapshot) -> dict:
        return event_frame(partie.game, snap, seat, partie.timer_seconds, bot_seats(partie))

    return _events_since(club, partie_id, lambda partie: seat_of(partie, member.id if member else None), since, render,
                         member)
