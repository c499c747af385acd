"""Leaving a table, coming back, and handing an absent player's seat to a computer.

A player may leave and come back at any time; the others see the seat as away. When
every other person at the table agrees, a computer player takes the away seat for the
rest of the partie.

A slow partie (app/parties/slow.py) is played by members who are away most of the
time: there the others may vote a seat to a computer player only after the timer said
three words for it (``timeouts``), whether he is away or not; and he may take it back
(:func:`reclaim`) whenever he returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.errors import Conflict, Invalid
from app.members.service import CurrentMember
from app.parties.clocks import clock_of
from app.parties.lookup import get_partie, my_running_seat, seat_of, seats_info
from app.realtime import notices

if TYPE_CHECKING:
    from app.club import Club


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


def mark_connected(club: Club, partie_id: int, member_id: int, connected: bool) -> list[dict[str, Any]] | None:
    """A player's socket opened or closed: he is back, or away. The seats as they are now
    when that changed them (None: it did not), told to the table's sockets with the
    notice: a socket that shows them already need not read them (app/tables/connection.py)."""
    with club.db.write() as s:
        partie = get_partie(s, partie_id, lock=True, db=club.db)
        seat = seat_of(partie, member_id)
        if seat is None or partie.status != "running":
            return None
        row = partie.seats[seat]
        clock = clock_of(partie.timer_seconds)
        clock.looked(row, club.clock.now())
        if row.away == (not connected):
            return None
        row.away = not connected
        if connected:
            row.takeover_votes = []
        seats = clock.seats_told(partie)
    club.notify_partie(partie_id, {"kind": "seats", "seats": seats} if seats is not None else {"kind": "seats"})
    return seats


def vote_takeover(club: Club, member: CurrentMember, partie_id: int, seat_no: int, agree: bool = True) -> list[dict[str, Any]]:
    """Agree (or stop agreeing) that a computer player takes the away seat ``seat_no``."""
    taken = False
    with club.db.write() as s:
        partie, mine = my_running_seat(club, s, partie_id, member)
        if not 0 <= seat_no < len(partie.seats) or seat_no == mine.seat:
            raise Invalid("name another player's seat", code="invalid_seat")
        target = partie.seats[seat_no]
        clock = clock_of(partie.timer_seconds)
        if target.played_by_bot:
            raise Conflict("a computer player already plays that seat", code="already_computer")
        clock.check_takeover(target)
        votes = set(target.takeover_votes or [])
        votes.add(mine.seat) if agree else votes.discard(mine.seat)
        others = {row.seat for row in partie.seats if not row.played_by_bot and row.seat != seat_no}
        if others <= votes:
            target.taken_over = True
            target.takeover_votes = []
            target.reclaimable = clock.reclaimable  # he may take it back (reclaim)
            clock.resettle(club, s, partie)
            taken = True
        else:
            target.takeover_votes = sorted(votes)
        seats = seats_info(partie)
        member_id = target.member_id
    club.notify_partie(partie_id, {"kind": "seats"})
    if taken:
        club.hub.publish(notices.LOBBY_CHANNEL, {"kind": "proposals", "partie": partie_id})
        notices.tell(club.hub, [member_id], "answered", partie=partie_id, by=member.name, game=partie.game)
        club.poke_bots(partie_id)
    return seats


def reclaim(club: Club, member: CurrentMember, partie_id: int) -> list[dict[str, Any]]:
    """Take back my seat of a slow partie that the others handed to a computer player: I
    play it again from now on (a decision waiting for me starts its clock now), and the
    count of my timed-out words starts again."""
    with club.db.write() as s:
        partie, row = my_running_seat(club, s, partie_id, member)
        if not (row.taken_over and row.reclaimable):
            raise Conflict("a computer player does not play your seat for the others' vote; nothing to take back",
                           code="not_reclaimable")
        row.taken_over = row.reclaimable = row.away = False
        row.takeover_votes = []
        row.timeouts = 0
        clock = clock_of(partie.timer_seconds)
        clock.looked(row, club.clock.now())
        clock.resettle(club, s, partie)
        seats = seats_info(partie)
    club.notify_partie(partie_id, {"kind": "seats"})
    club.hub.publish(notices.LOBBY_CHANNEL, {"kind": "proposals", "partie": partie_id})
    notices.tell(club.hub, [member.id], "answered", partie=partie_id, by=member.name, game=partie.game)
    return seats
