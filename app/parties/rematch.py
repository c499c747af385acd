"""Revanš: a finished partie proposed again, at the same table.

The same game, settings and timer, the same players (computer players at their levels),
everyone keeping his neighbours: the seats are the old ones turned round so that the
member who asks sits at seat 0, proposes and deals first (docs/rulings.md, "Club"). The
other members are invited and answer as to any proposal; computer seats are filled at
once. A member who asks for a revanš that another player of the partie has already
proposed (still open) takes his seat in that proposal instead of making a second one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Partie, PartieSeat
from app.errors import Conflict, Forbidden
from app.members.service import CurrentMember
from app.parties import proposals
from app.parties.lookup import get_partie, seat_of

if TYPE_CHECKING:
    from app.club import Club


@dataclass(frozen=True)
class Rematch:
    partie_id: int
    created: bool  # False: an open revanš of the same partie was answered instead


def rotated(partie: Partie, first: int) -> list[PartieSeat]:
    """The seats of ``partie`` in their order round the table, starting with seat ``first``."""
    n = len(partie.seats)
    return [partie.seats[(first + i) % n] for i in range(n)]


def seat_specs(seats: list[PartieSeat]) -> list[proposals.SeatSpec]:
    """The proposal's seats after the proposer's: members invited by name, computer
    players at the level they had."""
    out = []
    for row in seats:
        if row.kind == "bot":
            out.append(proposals.SeatSpec("bot", bot=row.bot))
        else:
            out.append(proposals.SeatSpec("member", row.member.name if row.member else None))
    return out


def rematch(club: Club, member: CurrentMember, partie_id: int) -> Rematch:
    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        seat = seat_of(partie, member.id)
        if partie.exhibition or seat is None:
            raise Forbidden("only a player of this partie may ask for a revanš", code="not_a_player")
        if partie.status != "finished":
            raise Conflict("a revanš is asked for once the partie is over", code="not_finished")
        pending = _open_rematch(s, partie, member.id)
        game, settings, timer = partie.game, dict(partie.settings or {}), partie.timer_seconds
        bank, weekends_off, weekend_zone = partie.bank_seconds, bool(partie.weekends_off), partie.weekend_zone
        others = seat_specs(rotated(partie, seat)[1:])
    if pending is not None:
        pending_id, answer = pending
        if answer != "accepted":
            proposals.answer(club, member, pending_id, True)
        return Rematch(pending_id, created=False)
    new_id = proposals.propose(club, member, game, settings, timer, others, rematch_of=partie_id,
                               bank=bank, weekends_off=weekends_off, weekend_zone=weekend_zone)
    return Rematch(new_id, created=True)


def _open_rematch(s: Session, partie: Partie, member_id: int) -> tuple[int, str | None] | None:
    """The id and this member's answer of an open proposal that is a revanš of ``partie`` made since it
    ended: the same game, settings, timer, members and computer players."""
    def table(p: Partie) -> tuple:
        members = sorted(row.member_id for row in p.seats if row.member_id is not None)
        bots = sorted(row.bot or "" for row in p.seats if row.kind == "bot")
        return p.game, p.timer_seconds, len(p.seats), members, bots

    wanted = table(partie)
    candidates = s.scalars(
        select(Partie)
        .join(PartieSeat, PartieSeat.partie_id == Partie.id)
        .where(Partie.status == "proposed", Partie.game == partie.game, PartieSeat.member_id == member_id,
               Partie.created_at >= partie.finished_at)
        .order_by(Partie.id)
    ).all()
    for p in candidates:
        if table(p) == wanted and (p.settings or {}) == (partie.settings or {}):
            return p.id, next(row.answer for row in p.seats if row.member_id == member_id)
    return None
