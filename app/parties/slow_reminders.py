"""The reminders of a slow partie's decisions (app/parties/slow.py): one, once 80% of the
decision time has counted, if the player has not looked at the table since it began."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select, update

from app.db.models import Partie, PartieSeat
from app.realtime import notices

if TYPE_CHECKING:
    from app.club import Club


def due_reminders(club: Club) -> list[tuple[int, int]]:
    with club.db.read() as s:
        return [tuple(r) for r in s.execute(
            select(PartieSeat.partie_id, PartieSeat.seat).join(Partie, Partie.id == PartieSeat.partie_id)
            .where(PartieSeat.remind_at <= club.clock.now(), PartieSeat.reminded.is_(False),
                   Partie.status == "running")
        )]


def send_reminder(club: Club, partie_id: int, seat: int) -> bool:
    """The reminder of a seat's decision, once: the row is marked in the same transaction
    that finds it due, so two instances never both send it. Not sent when the member
    looked at the table since the decision began (or has it open now). True: sent."""
    now = club.clock.now()
    with club.db.write() as s:
        marked = s.execute(
            update(PartieSeat)
            .where(PartieSeat.partie_id == partie_id, PartieSeat.seat == seat, PartieSeat.reminded.is_(False),
                   PartieSeat.remind_at <= now, PartieSeat.turn_since.is_not(None))
            .values(reminded=True, remind_at=None)
        ).rowcount
        if marked != 1:
            return False
        row = s.execute(
            select(PartieSeat.member_id, PartieSeat.turn_since, PartieSeat.seen_at, PartieSeat.away,
                   PartieSeat.deadline_at, Partie.game)
            .join(Partie, Partie.id == PartieSeat.partie_id)
            .where(PartieSeat.partie_id == partie_id, PartieSeat.seat == seat)
        ).one()
    member_id, since, seen, away, deadline, game = row
    looked = seen is not None and (seen >= since or not away)
    if looked or member_id is None:
        return False
    left = max(0, int((deadline - now).total_seconds())) if deadline is not None else None
    notices.tell(club.hub, [member_id], "reminder", partie=partie_id, game=game, left=left)
    return True


def looked(club: Club, partie_id: int, member_id: int) -> None:
    """The member read his table (his view over REST) while a decision waits for him."""
    unseen = (PartieSeat.partie_id == partie_id, PartieSeat.member_id == member_id, PartieSeat.turn_since.is_not(None),
              PartieSeat.seen_at.is_(None) | (PartieSeat.seen_at < PartieSeat.turn_since))
    with club.db.read() as s:  # once per decision: no write for every read of the table
        if s.scalar(select(PartieSeat.seat).where(*unseen)) is None:
            return
    with club.db.write() as s:
        s.execute(update(PartieSeat).where(*unseen).values(seen_at=club.clock.now()))
