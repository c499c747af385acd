"""Leaving a table, coming back, and handing an absent player's seat to a computer.

A player may leave and come back at any time; the others see the seat as away. When
every other person at the table agrees, a computer player takes the away seat for the
rest of the partie.
"""

from __future__ import annotations

from typing import Any

from app.club import Club
from app.errors import Conflict, Invalid
from app.members.service import CurrentMember
from app.parties.lookup import get_partie, my_running_seat, seat_of, seats_info


def set_away(club: Club, member: CurrentMember, partie_id: int, away: bool) -> list[dict[str, Any]]:
    with club.db.write() as s:
        partie, row = my_running_seat(club, s, partie_id, member)
        changed = row.away != away
        row.away = away
        if not away:
            row.takeover_votes = []
        seats = seats_info(partie)
    if changed:
        club.notify_partie(partie_id, {"kind": "seats"})
    return seats


def mark_connected(club: Club, partie_id: int, member_id: int, connected: bool) -> None:
    """A player's socket opened or closed: he is back, or away."""
    with club.db.write() as s:
        partie = get_partie(s, partie_id, lock=True, db=club.db)
        seat = seat_of(partie, member_id)
        if seat is None or partie.status != "running":
            return
        row = partie.seats[seat]
        if row.away == (not connected):
            return
        row.away = not connected
        if connected:
            row.takeover_votes = []
    club.notify_partie(partie_id, {"kind": "seats"})


def vote_takeover(club: Club, member: CurrentMember, partie_id: int, seat_no: int, agree: bool = True) -> list[dict[str, Any]]:
    """Agree (or stop agreeing) that a computer player takes the away seat ``seat_no``."""
    taken = False
    with club.db.write() as s:
        partie, mine = my_running_seat(club, s, partie_id, member)
        if not 0 <= seat_no < len(partie.seats) or seat_no == mine.seat:
            raise Invalid("name another player's seat", code="invalid_seat")
        target = partie.seats[seat_no]
        if target.played_by_bot:
            raise Conflict("a computer player already plays that seat", code="already_computer")
        if not target.away:
            raise Conflict("that player is at the table", code="not_away")
        votes = set(target.takeover_votes or [])
        votes.add(mine.seat) if agree else votes.discard(mine.seat)
        others = {row.seat for row in partie.seats if not row.played_by_bot and row.seat != seat_no}
        if others <= votes:
            target.taken_over = True
            target.takeover_votes = []
            taken = True
        else:
            target.takeover_votes = sorted(votes)
        seats = seats_info(partie)
    club.notify_partie(partie_id, {"kind": "seats"})
    if taken:
        club.poke_bots(partie_id)
    return seats
