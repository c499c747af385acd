"""A member's unread count: what waits for him.

``count`` = the proposals that invite him and wait for his answer (``invitations``) +
the running tables where it is his turn (``turns``: his seat is in the table's
``to_act`` and no computer player plays it for him), except a table he sits at now
(his seat's socket is open: app/tables/viewers.py), where the table itself says it is
his turn. Both are read from the database and the tables whenever asked, so the number
survives reloads and drops by itself when he answers or plays; nothing is marked as
read. What does not wait for him (an acceptance of his proposal, a partie that started
or ended) is told to his pages as a notice but does not count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from sqlalchemy import and_, bindparam, or_, select

from app.db.models import Partie, PartieSeat
from app.parties.lookup import get_partie, open_table

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from app.club import Club

# One query for both parts: the proposals that wait for his answer, and his seats at
# running tables (with the version the database has, to trust a cached table at it).
_MINE = (
    select(Partie.id, Partie.status, Partie.version, PartieSeat.seat)
    .join(PartieSeat, PartieSeat.partie_id == Partie.id)
    .where(PartieSeat.member_id == bindparam("member"),
           or_(and_(Partie.status == "proposed", PartieSeat.answer == "invited", PartieSeat.seat != 0),
               and_(Partie.status == "running", PartieSeat.taken_over.is_(False))))
    .order_by(Partie.id)
)


class UnreadCount(TypedDict):
    count: int
    invitations: list[int]  # proposals waiting for his answer
    turns: list[int]  # tables where it is his turn (not those he sits at now)


def unread(club: Club, member_id: int) -> UnreadCount:
    here = club.viewers.seated_at(member_id)
    with club.db.read() as s:
        rows = s.execute(_MINE, {"member": member_id}).all()
        invitations = [pid for pid, status, _, _ in rows if status == "proposed"]
        turns = [pid for pid, status, version, seat in rows
                 if status == "running" and pid not in here and _to_act(club, s, pid, version, seat)]
    return UnreadCount(count=len(invitations) + len(turns), invitations=invitations, turns=turns)


def _to_act(club: Club, s: Session, partie_id: int, version: int, seat: int) -> bool:
    """Whether the seat is to act at the table: from this instance's cached table when it
    is at the database's version (a round's hundred new tables are counted without
    reading each partie again), else from the table read and brought up to date."""
    table = club.tables.peek(partie_id)
    if table is not None:
        with table.lock:
            if table.history and table.version == version:
                return seat in table.latest.to_act
    table = open_table(club, s, get_partie(s, partie_id))
    with table.lock:
        return seat in table.latest.to_act
