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

from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from app.db.models import Partie, PartieSeat
from app.parties.lookup import open_table

if TYPE_CHECKING:
    from app.club import Club


def unread(club: Club, member_id: int) -> dict[str, Any]:
    with club.db.read() as s:
        invitations = list(s.scalars(
            select(Partie.id)
            .join(PartieSeat, PartieSeat.partie_id == Partie.id)
            .where(Partie.status == "proposed", PartieSeat.member_id == member_id, PartieSeat.answer == "invited",
                   PartieSeat.seat != 0)
            .order_by(Partie.id)
        ))
        playing = s.scalars(
            select(Partie)
            .join(PartieSeat, PartieSeat.partie_id == Partie.id)
            .where(Partie.status == "running", PartieSeat.member_id == member_id, PartieSeat.taken_over.is_(False))
            .order_by(Partie.id)
        ).all()
        turns = []
        here = club.viewers.seated_at(member_id)
        for partie in playing:
            if partie.id in here:
                continue
            seat = next(row.seat for row in partie.seats if row.member_id == member_id)
            table = open_table(club, s, partie)
            with table.lock:
                if seat in table.latest.to_act:
                    turns.append(partie.id)
    return {"count": len(invitations) + len(turns), "invitations": invitations, "turns": turns}
