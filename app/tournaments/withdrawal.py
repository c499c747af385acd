"""Withdrawing from a tournament (rulings T7, T10; docs/rulings.md, "Tournaments: how the
Club runs them").

- Before his first round (before the start, or a late join whose round has not begun)
  :func:`leave` undoes the registration: he may join again while late joins are open.
- Afterwards a withdrawal is for good: he is seated in no later round, he is not ranked
  and the standings list him as withdrawn (:func:`withdrawn`); the rounds he played, and
  the computer player's rest of his seat, stay in the others' scores.
- Leaving his table during a round ("Napusti partiju", app/parties/leaving.py) is such a
  withdrawal: :func:`on_seat_left`, a hook of that transaction, withdraws him with it.
  :func:`leave` during a round does the same the other way round: it withdraws him and
  leaves his running table for him, so the computer player finishes his seat at once.

A seat the others handed to the computer player while he was away is no withdrawal: he
stays registered and is seated in the next round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from app.db.database import for_update
from app.db.models import Partie, PartieSeat, Tournament, TournamentPlayer
from app.errors import Conflict, NotFound
from app.members.service import CurrentMember
from app.parties import leaving
from app.parties.events import SeatLeft
from app.realtime import notices

if TYPE_CHECKING:
    from app.club import Club


def withdrawn(p: TournamentPlayer) -> bool:
    """Withdrawn for good (by himself, between rounds or by leaving his table); a player the
    organizer removed is not listed at all."""
    return p.left_round is not None and not p.removed


def changed(club: Club, tournament_id: int) -> None:
    """The tournament's page reads its live part again (app/tournaments/rounds.py's channel)."""
    club.hub.publish(f"{notices.TOURNAMENT_PREFIX}{tournament_id}", {"kind": "tournament", "tournament": tournament_id})


def leave(club: Club, member: CurrentMember, tournament_id: int) -> dict[str, Any]:
    """"Povuci": before his first round the registration is undone; afterwards he withdraws
    for good, and a seat he still plays in the running round goes to the computer player."""
    running: int | None = None
    with club.db.write() as s:
        t = s.scalar(for_update(select(Tournament).where(Tournament.id == tournament_id), club.db))
        if t is None:
            raise NotFound(f"there is no tournament {tournament_id}", code="no_such_tournament")
        row = s.get(TournamentPlayer, (t.id, member.id))
        if row is None or row.left_round is not None or row.removed:
            raise Conflict("you are not registered", code="not_registered")
        if t.status == "finished":
            raise Conflict("this tournament is over", code="tournament_over")
        if t.current_round < row.joined_round:  # no round of his has begun
            s.delete(row)
        else:
            row.left_round = t.current_round + 1
            running = s.scalar(
                select(Partie.id).join(PartieSeat, PartieSeat.partie_id == Partie.id)
                .where(Partie.tournament_id == t.id, Partie.tournament_round == t.current_round,
                       Partie.status == "running", PartieSeat.member_id == member.id,
                       PartieSeat.taken_over.is_(False)))
    if running is not None:
        try:
            leaving.leave(club, member, running)
        except Conflict:  # the partie ended meanwhile (or the others handed his seat over)
            pass
    changed(club, tournament_id)
    return {"registered": False}


def on_seat_left(club: Club) -> Callable[[SeatLeft], Callable[[], None] | None]:
    """The hook of ``club.left``: a member who leaves a tournament table withdraws (T10), in
    the same transaction as the seat the computer player takes."""
    def hook(notice: SeatLeft) -> Callable[[], None] | None:
        partie = notice.partie
        if partie.tournament_id is None or partie.tournament_round is None:
            return None
        row = notice.session.get(TournamentPlayer, (partie.tournament_id, notice.member_id))
        if row is None or row.removed or row.left_round is not None:
            return None
        row.left_round = partie.tournament_round + 1
        tournament_id = partie.tournament_id
        return lambda: changed(club, tournament_id)

    return hook


def subscribe(club: Club) -> None:
    club.left.subscribe(on_seat_left(club))
