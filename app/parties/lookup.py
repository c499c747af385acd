"""Reading a partie and its seats, and its live table: shared by the archive, the
proposals, the tables and the computer players."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, joinedload

from app.ai.levels import EVERY_LEVEL
from app.db.models import Partie, PartieSeat
from app.errors import Conflict, Forbidden, NotFound

if TYPE_CHECKING:
    from app.club import Club
    from app.tables.cache import LiveTable


# One query for the partie and its seats (each with its member): this runs for every read
# of a table and every word of a computer player. Built once: a statement made per call
# (and its cache key, with the loader option) cost about a third of the query.
_PARTIE = select(Partie).where(Partie.id == bindparam("pid")).options(joinedload(Partie.seats))
_PARTIE_LOCKED = _PARTIE.with_for_update(of=Partie)


def get_partie(session: Session, partie_id: int, lock: bool = False, db=None) -> Partie:
    stmt = _PARTIE_LOCKED if lock and db is not None and not db.is_sqlite else _PARTIE
    partie = session.scalar(stmt, {"pid": partie_id})
    if partie is None:
        raise NotFound(f"there is no partie {partie_id}", code="no_such_partie")
    return partie


def my_running_seat(club: Club, s: Session, partie_id: int, member, code: str = "not_a_player") -> tuple[Partie, PartieSeat]:
    """The running partie (locked) and the member's seat row; 403 ``code`` if he has none."""
    partie = get_partie(s, partie_id, lock=True, db=club.db)
    seat = seat_of(partie, member.id)
    if seat is None:
        raise Forbidden("you do not play at this table", code=code)
    if partie.status != "running":
        raise Conflict("this partie is not being played", code="not_running")
    return partie, partie.seats[seat]


def seat_of(partie: Partie, member_id: int | None) -> int | None:
    if member_id is None:
        return None
    for seat in partie.seats:
        if seat.member_id == member_id:
            return seat.seat
    return None


def computer_name(seat: int) -> str:
    """The name a computer player's seat has in records and views ("AI 1" for seat 0)."""
    return f"AI {seat + 1}"


# The names the screens give the computer players ("Računar Mile", "Computer Mile"): a
# seat's name is its level's name at the seat's number (app/ai/levels.py). Records,
# exports and the API keep "AI n" (computer_name).
BOT_NAMES: dict[str, tuple[str, ...]] = {code: level.names for code, level in EVERY_LEVEL.items()}


def bot_name(seat: PartieSeat) -> str | None:
    """The shown name of a computer player's seat (None for a member's seat, even one a
    computer plays for him: that keeps the member's name)."""
    if seat.kind != "bot" or seat.member is not None:
        return None
    names = BOT_NAMES.get(seat.bot or "", BOT_NAMES["iskusan"])
    return names[seat.seat % len(names)]


def player_name(seat: PartieSeat) -> str:
    if seat.member is not None:
        return seat.member.name
    return computer_name(seat.seat)


class SeatInfo(TypedDict):
    """A seat as every reader of the table sees it (state and seats frames, the API)."""

    seat: int
    kind: str
    name: str | None
    bot_name: str | None
    bot_owner: str | None
    answer: str | None
    decline_reason: str | None
    away: bool
    computer: bool
    taken_over: bool
    takeover_votes: list[int]
    timeouts: int
    reclaimable: bool


def seats_info(partie: Partie) -> list[SeatInfo]:
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "name": player_name(s) if s.kind not in ("open", "bot_open") or s.member else None,
            "bot_name": bot_name(s),  # shown as "Računar {bot_name}" (the record keeps "name")
            # a bot account (app/bots/): its owner's name, shown with it everywhere
            "bot_owner": s.member.bot_owner_name if s.member is not None else None,
            "answer": s.answer,
            "decline_reason": s.decline_reason if s.answer == "declined" else None,  # app/parties/declines.py
            "away": s.away,
            "computer": s.played_by_bot,
            "taken_over": s.taken_over,
            "takeover_votes": list(s.takeover_votes or []),
            # slow parties (app/parties/slow.py): the words the timer said for him; whether he
            # may take back the seat the others voted to a computer player
            "timeouts": s.timeouts or 0,
            "reclaimable": bool(s.reclaimable),
        }
        for s in partie.seats
    ]


def bot_seats(partie: Partie) -> set[int]:
    return {s.seat for s in partie.seats if s.played_by_bot}


def open_table(club: Club, session: Session, partie: Partie) -> LiveTable:
    """The partie's live table (engine and snapshots), from the cache or built from the log."""
    # an abandoned partie (app/parties/leaving.py) keeps its table for the archive
    if partie.status not in ("running", "finished", "abandoned"):
        raise Conflict("this partie has not started", code="not_started")
    return club.tables.get(session, partie)
