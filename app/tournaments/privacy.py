"""T8: while its round runs, a tournament table is open only to its own players.

The rule reads stricter than T8's words (which name the tournament's players): nobody
else watches, replays or exports a table of a running round either, since a spectator
could pass its cards on to a player of another table with the same deals
(docs/rulings.md, "Tournaments"). The robot field's table is hidden the same way.
Once the round has ended, every table is open as any partie is.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, and_, exists, or_, select
from sqlalchemy.orm import Session

from app.bots.fairplay import owner_watching
from app.db.models import Member, Partie, PartieSeat, TournamentRound
from app.errors import Forbidden
from app.parties.lookup import seat_of


def hidden_from(s: Session, partie: Partie, member_id: int | None) -> bool:
    if partie.tournament_id is None:
        return False
    rnd = s.get(TournamentRound, (partie.tournament_id, partie.tournament_round))
    if rnd is None or rnd.ended_at is not None:
        return False
    return seat_of(partie, member_id) is None


def check_may_watch(s: Session, partie: Partie, member_id: int | None) -> None:
    if hidden_from(s, partie, member_id):
        raise Forbidden("a tournament table is open only to its players until its round ends",
                        code="tournament_table_hidden")
    if owner_watching(partie, member_id):
        # Fair play (app/bots/fairplay.py): the owner of a bot at this table waits for its end.
        raise Forbidden("you cannot watch a table where your bot plays until it ends", code="own_bot_table")


def open_to(viewer_id: int | None) -> ColumnElement[bool]:
    """The parties a member may find in lists: all but the tables of running tournament
    rounds where he does not sit, and the running tables of his bots."""
    ended = exists().where(and_(TournamentRound.tournament_id == Partie.tournament_id,
                                TournamentRound.round_no == Partie.tournament_round,
                                TournamentRound.ended_at.is_not(None)))
    mine = Partie.id.in_(select(PartieSeat.partie_id).where(PartieSeat.member_id == viewer_id))
    visible = or_(Partie.tournament_id.is_(None), ended, *([mine] if viewer_id is not None else []))
    if viewer_id is None:
        return visible
    my_bots = select(Member.id).where(Member.bot_owner_id == viewer_id)
    my_bot_plays = Partie.id.in_(select(PartieSeat.partie_id).where(PartieSeat.member_id.in_(my_bots)))
    return and_(visible, or_(Partie.status.not_in(("proposed", "running")), ~my_bot_plays))
