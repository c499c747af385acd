"""What follows a committed word (app/tables/service.py): the table's notice, the turns it
began and ended, the partie's end, the computer players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.parties.events import PartieFinished
from app.realtime import notices
from app.tables.cache import LiveTable
from app.tables.words import Applied

if TYPE_CHECKING:
    from app.club import Club


@dataclass
class Said:
    """A word applied inside a transaction, for what follows its commit."""

    table: LiveTable
    applied: Applied
    bots: set[int]
    to_act: list[int]
    finished: bool
    to_act_before: list[int]  # the turn before this word


def tell_said(club: Club, s: Said) -> None:
    """What follows a committed word: the table's notice, the turns, the end, the computer players."""
    club.notify_partie(s.table.partie_id, {"kind": "advance", "version": s.applied.version})
    _tell_turns(club, s)
    if s.finished:
        club.finished.publish(PartieFinished(s.table.partie_id, s.table.game, s.table.engine.result()))
        # Its members hear it on every page (a toast with the way to its archive).
        notices.tell(club.hub, list(s.table.member_seats), "ended",
                     partie=s.table.partie_id, game=s.table.game, version=s.applied.version)
    if s.bots and (s.finished or s.bots.intersection(s.to_act)):
        # A computer seat is to act (or forgets the partie that ended); a person whose time
        # runs out is the deadline watcher's.
        club.poke_bots(s.table.partie_id)


def _tell_turns(club: Club, s: Said) -> None:
    """The members whose turn this word began hear ``turn``, those whose turn it ended
    ``moved`` (their unread counts: app/parties/unread.py); seats of computer players
    and words that leave the turn as it was tell nobody."""
    seats = {seat: member for member, seat in s.table.member_seats.items() if seat not in s.bots}
    if not seats:
        return
    began = [seats[x] for x in s.to_act if x in seats and x not in s.to_act_before]
    ended = [seats[x] for x in s.to_act_before if x in seats and x not in s.to_act]
    about = {"partie": s.table.partie_id, "game": s.table.game, "version": s.applied.version}
    if began:
        notices.tell(club.hub, began, "turn", **about)
    if ended:
        notices.tell(club.hub, ended, "moved", **about)
