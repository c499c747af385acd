"""A member leaves a running partie for good, or ends one no other member plays in.

- :func:`leave`: a computer player takes his seat for the rest of the partie at once
  (the seat is ``taken_over``, as when the others agree to it, ``app/tables/presence.py``);
  his name stays on the seat, in the record and the archive, and the partie leaves his
  running tables ("Moji stolovi") and his unread count. What else follows is told to
  ``club.left``'s hooks inside the same transaction (a tournament table: he withdraws
  from the tournament, rulings T10, app/tournaments/withdrawal.py).
- :func:`end`: a partie whose other seats are all computer players (or members whose
  seats computer players took over) ends at once as ``abandoned``: no rating (only
  finished parties are rated), nothing more is played, and it is gone from his running
  tables. The archive keeps it among the unfinished parties.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.db.models import Partie, PartieSeat
from app.errors import Conflict
from app.members.service import CurrentMember
from app.parties.clocks import clock_of
from app.parties.events import SeatLeft
from app.parties.lookup import my_running_seat, seats_info
from app.realtime import notices

if TYPE_CHECKING:
    from app.club import Club

ABANDONED = "abandoned"


def _my_seat(club: Club, s, partie_id: int, member: CurrentMember) -> tuple[Partie, PartieSeat]:
    # "not_at_table": ERROR_TEXTS words "not_a_player" for the revanš
    return my_running_seat(club, s, partie_id, member, code="not_at_table")


def other_members(partie: Partie, member_id: int) -> list[PartieSeat]:
    """The seats of the other members who still play themselves."""
    return [row for row in partie.seats if row.member_id not in (None, member_id) and not row.taken_over]


def leave(club: Club, member: CurrentMember, partie_id: int) -> dict[str, Any]:
    """Leave the partie for good: a computer player plays my seat from now on."""
    with club.db.write() as s:
        partie, row = _my_seat(club, s, partie_id, member)
        if row.taken_over and not row.reclaimable:  # (a seat voted away in a slow partie may still be left)
            raise Conflict("a computer player already plays your seat", code="already_left")
        row.taken_over = True
        row.away = True
        row.takeover_votes = []
        for other in partie.seats:  # my agreement to hand another seat over no longer counts
            if row.seat in (other.takeover_votes or []):
                other.takeover_votes = [v for v in other.takeover_votes if v != row.seat]
        row.reclaimable = False  # left for good: not to be taken back
        clock_of(partie.timer_seconds).resettle(club, s, partie)  # a slow partie: my clock stops
        afters = club.left.during(SeatLeft(s, partie, member.id))
        out = {"status": partie.status, "seats": seats_info(partie)}
        game = partie.game
    club.notify_partie(partie_id, {"kind": "seats"})
    club.hub.publish(notices.LOBBY_CHANNEL, {"kind": "proposals", "partie": partie_id})
    notices.tell(club.hub, [member.id], "answered", partie=partie_id, by=member.name, game=game)
    club.poke_bots(partie_id)
    for after in afters:
        after()
    return out


def end(club: Club, member: CurrentMember, partie_id: int) -> dict[str, Any]:
    """End at once a partie no other member plays in (it is abandoned, not rated)."""
    with club.db.write() as s:
        partie, _row = _my_seat(club, s, partie_id, member)
        if partie.tournament_id is not None:
            raise Conflict("a tournament table is played to its end; leave it instead (a computer player takes "
                           "your seat)", code="tournament_table")
        if other_members(partie, member.id):
            raise Conflict("other members play at this table; leave it instead (a computer player takes your seat)",
                           code="other_members")
        partie.status = ABANDONED
        partie.finished_at = club.clock.now()
        partie.deadline_at = None
        out = {"status": partie.status, "seats": seats_info(partie)}
        game = partie.game
    club.notify_partie(partie_id, {"kind": "seats"})
    club.hub.publish(notices.LOBBY_CHANNEL, {"kind": "proposals", "partie": partie_id})
    notices.tell(club.hub, [member.id], "answered", partie=partie_id, by=member.name, game=game)
    return out
