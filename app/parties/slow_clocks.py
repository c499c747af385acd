"""The seats' clocks of a slow partie (app/parties/slow.py): each player's decision
time, bank and vacation hours, kept in his seat's row; moved by the word path, a start
and a seat that changes hands."""

from __future__ import annotations

import math
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Member, Partie, PartieSeat
from app.errors import Conflict
from app.parties.lookup import get_partie, open_table
from app.parties.slow_time import HOUR, Pauses, counted, reach

if TYPE_CHECKING:
    from app.club import Club

REMINDER_SHARE = 0.8  # the reminder: once 80% of the decision time has counted


def holidays_of(s: Session, partie: Partie) -> dict[int, tuple[datetime, datetime] | None]:
    """Each member's holiday, read now (a seat's ``member`` may be older than its member_id)."""
    ids = [row.member_id for row in partie.seats if row.member_id is not None]
    if not ids:
        return {}
    rows = s.execute(select(Member.id, Member.holiday_from, Member.holiday_until).where(Member.id.in_(ids)))
    return {mid: (start, end) if start is not None and end is not None else None for mid, start, end in rows}


def pauses_of(partie: Partie, holidays: dict, row: PartieSeat) -> Pauses:
    return Pauses(bool(partie.weekends_off), holidays.get(row.member_id), partie.weekend_zone)


def is_person(row: PartieSeat) -> bool:
    return row.member_id is not None and not row.played_by_bot


def used_of(row: PartieSeat, pauses: Pauses, now: datetime) -> float:
    if row.clock_from is None:
        return 0.0
    return row.used_seconds + counted(row.clock_from, now, pauses)


def set_times(row: PartieSeat, timer: int, pauses: Pauses) -> None:
    """The seat's deadline (decision time, bank and the vacation hours it took) and reminder."""
    allowance = timer + (row.bank_left or 0) + HOUR * row.vacation_hours
    row.deadline_at = reach(row.clock_from, allowance - row.used_seconds, pauses)
    row.remind_at = None if row.reminded else reach(row.clock_from, REMINDER_SHARE * timer - row.used_seconds, pauses)


def _start(row: PartieSeat, now: datetime, timer: int, pauses: Pauses) -> None:
    row.turn_since = row.clock_from = now
    row.used_seconds = row.vacation_hours = 0
    row.reminded = False
    set_times(row, timer, pauses)


def _end(row: PartieSeat, now: datetime, timer: int, pauses: Pauses, charge: bool) -> None:
    if charge:
        over = max(0.0, used_of(row, pauses, now) - timer)
        row.bank_left = max(0, (row.bank_left or 0) - math.ceil(over))
    row.turn_since = row.clock_from = row.deadline_at = row.remind_at = None
    row.used_seconds = row.vacation_hours = 0
    row.reminded = False


def checkpoint(row: PartieSeat, now: datetime, pauses: Pauses) -> None:
    """Fold the time counted so far into ``used_seconds`` (before the pauses change)."""
    if row.clock_from is not None:
        row.used_seconds = int(used_of(row, pauses, now))
        row.clock_from = now


def deadline_of(partie: Partie) -> datetime | None:
    """The partie's deadline: the first of its running clocks to run out."""
    times = [row.deadline_at for row in partie.seats if row.turn_since is not None and row.deadline_at is not None]
    return min(times) if times else None


def settle(s: Session, partie: Partie, to_act: list[int], now: datetime, spoke: int | None = None,
           timer_word: bool = False) -> datetime | None:
    """Move the clocks of ``partie`` to the turn ``to_act`` (after the word of seat
    ``spoke``, if one was said): a decision that ended is charged to the bank, one that
    began starts its clock; the others run on. Returns the partie's deadline."""
    timer = partie.timer_seconds or 0
    holidays = holidays_of(s, partie)
    for row in partie.seats:
        pauses = pauses_of(partie, holidays, row)
        waited = is_person(row) and row.seat in to_act
        running = row.turn_since is not None
        if timer_word and row.seat == spoke:
            row.timeouts += 1
        if running and (not waited or row.seat == spoke):
            _end(row, now, timer, pauses, charge=is_person(row))
            running = False
        if waited and not running:
            _start(row, now, timer, pauses)
    return deadline_of(partie)


def start_clocks(s: Session, partie: Partie, to_act: list[int], now: datetime) -> None:
    """A slow partie begins: every player's bank, and the first decisions' clocks."""
    for row in partie.seats:
        row.bank_left = (partie.bank_seconds or 0) if row.member_id is not None else None
    partie.deadline_at = settle(s, partie, to_act, now)


def resettle(club: Club, s: Session, partie: Partie) -> None:
    """The clocks after a seat changed hands (a takeover, a return, a member who left)."""
    if partie.status != "running":
        return
    table = open_table(club, s, partie)
    with table.lock:
        to_act = list(table.latest.to_act)
    partie.deadline_at = settle(s, partie, to_act, club.clock.now())


def after_word(conn, partie_id: int, to_act: list[int], now: datetime, seat: int, source: str) -> datetime | None:
    """In the word's transaction (``conn``, the partie's row locked): move the clocks and
    return the partie's new deadline."""
    with Session(bind=conn) as s:  # joins the transaction; closing it leaves the transaction alone
        partie = get_partie(s, partie_id)
        deadline = settle(s, partie, to_act, now, spoke=seat, timer_word=source == "timer")
        s.flush()
    return deadline


def check_due(conn, partie_id: int, seat: int, now: datetime) -> None:
    """The timer speaks for a seat only once its clock (bank and vacation included) ran out."""
    due = conn.execute(
        select(PartieSeat.deadline_at).where(PartieSeat.partie_id == partie_id, PartieSeat.seat == seat)
    ).scalar()
    if due is None or due > now:
        raise Conflict("this player's time has not run out", code="not_due")
