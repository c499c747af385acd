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

from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import bindparam, select

from app.errors import Conflict, Invalid
from app.members.service import CurrentMember
from app.parties.clocks import clock_of
from app.db.models import Partie, PartieSeat
from app.parties.lookup import my_running_seat, seats_info
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


class Presence(NamedTuple):
    """A change of presence as the table's sockets are told it: the seat, whether its
    player is away now, and the seats' version it made (``Partie.seats_version``)."""

    seat: int
    away: bool
    seats_version: int


# The running partie's seats' version and timer, locked for the change of presence: a
# socket opens or closes at every arrival of a round, so these are a few columns of the
# tables, no partie or seat loaded.
_PARTIES, _SEATS = Partie.__table__, PartieSeat.__table__
_RUNNING = select(_PARTIES.c.seats_version, _PARTIES.c.timer_seconds).where(_PARTIES.c.id == bindparam("pid"),
                                                                            _PARTIES.c.status == "running")
_RUNNING_LOCKED = _RUNNING.with_for_update()
_MY_SEAT = (_SEATS.c.partie_id == bindparam("pid"), _SEATS.c.member_id == bindparam("mid"))
# He comes (his takeover votes end) or goes, when that changes his seat.
_CAME = _SEATS.update().where(*_MY_SEAT, _SEATS.c.away.is_(True)).values(away=False, takeover_votes=[]).returning(_SEATS.c.seat)
_WENT = _SEATS.update().where(*_MY_SEAT, _SEATS.c.away.is_(False)).values(away=True).returning(_SEATS.c.seat)
_NEXT_SEATS_VERSION = _PARTIES.update().where(_PARTIES.c.id == bindparam("pid")).values(seats_version=bindparam("v"))


def mark_connected(club: Club, partie_id: int, member_id: int, connected: bool) -> Presence | None:
    """A player's socket opened or closed: he is back, or away. When that changed his seat,
    the change is told to the table's sockets, which apply it to the seats they show
    without reading them (app/tables/connection.py), and returned (None: nothing changed,
    or a slow partie's, whose sockets read the seats with their clocks)."""
    ids = {"pid": partie_id, "mid": member_id}
    with club.db.write() as s:
        conn = s.connection()
        partie = conn.execute(_RUNNING if club.db.is_sqlite else _RUNNING_LOCKED, ids).first()
        if partie is None:
            return None
        version, timer = partie
        clock = clock_of(timer)
        looked = clock.looked(club.clock.now())
        if looked:
            conn.execute(_SEATS.update().where(*_MY_SEAT).values(**looked), ids)
        seat = conn.execute(_CAME if connected else _WENT, ids).scalar()
        if seat is None:
            return None
        conn.execute(_NEXT_SEATS_VERSION, {"pid": partie_id, "v": version + 1})
    change = Presence(seat, not connected, version + 1)
    if not clock.tells_presence:
        club.notify_partie(partie_id, {"kind": "seats"})
        return None
    club.notify_partie(partie_id, {"kind": "seats", "presence": [change._asdict()]})
    return change


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
        for column, value in clock.looked(club.clock.now()).items():
            setattr(row, column, value)
        clock.resettle(club, s, partie)
        seats = seats_info(partie)
    club.notify_partie(partie_id, {"kind": "seats"})
    club.hub.publish(notices.LOBBY_CHANNEL, {"kind": "proposals", "partie": partie_id})
    notices.tell(club.hub, [member.id], "answered", partie=partie_id, by=member.name, game=partie.game)
    return seats
