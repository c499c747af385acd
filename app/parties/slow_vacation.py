"""Vacation and holidays for slow parties (app/parties/slow.py): KLUB_VACATION_DAYS_PER_YEAR
days a calendar year, spent an hour at a time when a clock runs out, or paid at once for
a holiday during which the member's clocks stand still. The routes: app/parties/vacation.py."""

from __future__ import annotations

import math
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.database import for_update
from app.db.models import Member, Partie, PartieSeat
from app.errors import Conflict, Invalid
from app.parties.lookup import get_partie
from app.parties.slow_clocks import checkpoint, deadline_of, holidays_of, is_person, pauses_of, set_times
from app.parties.slow_time import HOUR, UTC, charged_hours

if TYPE_CHECKING:
    from app.club import Club


def hours_per_year(club: Club) -> int:
    return max(0, club.settings.vacation_days_per_year) * 24


def vacation_left(club: Club, member: Member, now: datetime) -> int:
    used = member.vacation_hours_used if member.vacation_year == now.year else 0
    return max(0, hours_per_year(club) - used)


def _use_hours(member: Member, now: datetime, hours: int) -> None:
    """Spend (or give back, negative) vacation hours of this calendar year."""
    if member.vacation_year != now.year:
        member.vacation_year, member.vacation_hours_used = now.year, 0
    member.vacation_hours_used = max(0, member.vacation_hours_used + hours)


def _locked_member(club: Club, s: Session, member_id: int) -> Member:
    stmt = for_update(select(Member).where(Member.id == member_id), club.db).execution_options(populate_existing=True)
    return s.scalar(stmt)


SPENT, NOT_DUE, EXHAUSTED = "spent", "not_due", "exhausted"


def spend_vacation(club: Club, partie_id: int, seat: int, version: int) -> str:
    """A seat's clock ran out: spend its member's vacation, an hour at a time, until his
    deadline is ahead again (``spent``), or say there is none left (``exhausted``: the
    timer speaks). ``not_due``: someone acted first (another instance, the player)."""
    with club.db.write() as s:
        partie = get_partie(s, partie_id, lock=True, db=club.db)
        now = club.clock.now()
        if partie.status != "running" or partie.version != version:
            return NOT_DUE
        row = partie.seats[seat]
        if not is_person(row) or row.turn_since is None or row.deadline_at is None or row.deadline_at > now:
            return NOT_DUE
        member = _locked_member(club, s, row.member_id)
        left = vacation_left(club, member, now)
        pauses = pauses_of(partie, holidays_of(s, partie), row)
        spent = 0
        while row.deadline_at <= now and spent < left:
            row.vacation_hours += 1
            spent += 1
            set_times(row, partie.timer_seconds, pauses)
        if not spent:
            return EXHAUSTED
        _use_hours(member, now, spent)
        partie.deadline_at = deadline_of(partie)
    club.notify_partie(partie_id, {"kind": "seats"})  # the clocks changed
    return SPENT


def _my_slow_parties(club: Club, s: Session, member_id: int) -> list[Partie]:
    """The running slow parties the member plays himself, locked (ids in order)."""
    ids = list(s.scalars(
        select(Partie.id).join(PartieSeat, PartieSeat.partie_id == Partie.id)
        .where(Partie.status == "running", Partie.timer_seconds >= HOUR, PartieSeat.member_id == member_id,
               PartieSeat.taken_over.is_(False))
        .order_by(Partie.id)
    ))
    return [get_partie(s, pid, lock=True, db=club.db) for pid in ids]


def _weekend_zones(s: Session, member_id: int, running: list[Partie]) -> list[str | None] | None:
    """The weekend zones of the member's slow parties (running, or proposed and accepted)
    when every one of them leaves weekends out; None otherwise (none, or one counts them)."""
    proposed = s.scalars(
        select(Partie).join(PartieSeat, PartieSeat.partie_id == Partie.id)
        .where(Partie.status == "proposed", Partie.timer_seconds >= HOUR, PartieSeat.member_id == member_id,
               PartieSeat.answer == "accepted")
    ).all()
    parties = [*running, *proposed]
    if not parties or not all(p.weekends_off for p in parties):
        return None
    return [p.weekend_zone for p in parties]


def vacation_info(club: Club, member: Member, now: datetime) -> dict[str, Any]:
    on = member.holiday_until is not None and member.holiday_from is not None and member.holiday_until > now
    return {
        "year": now.year,
        "hours_per_year": hours_per_year(club),
        "hours_left": vacation_left(club, member, now),
        "holiday": {"from": member.holiday_from.isoformat(), "until": member.holiday_until.isoformat()} if on else None,
    }


def get_vacation(club: Club, member_id: int) -> dict[str, Any]:
    with club.db.read() as s:
        return vacation_info(club, s.get(Member, member_id), club.clock.now())


def set_holiday(club: Club, member_id: int, until: datetime | None) -> dict[str, Any]:
    """Go on holiday until ``until`` (paid at once from the year's vacation, whole hours
    rounded up, but for the weekend hours when all his slow parties leave weekends out:
    :func:`charged_hours`; a holiday already on is moved), or come back now (``None``: the
    whole hours not used are given back). His running clocks stand still meanwhile."""
    if until is not None and until.tzinfo is None:
        until = until.replace(tzinfo=UTC)
    with club.db.write() as s:
        now = club.clock.now()
        parties = _my_slow_parties(club, s, member_id)  # the parties first, then the member: the word path's order
        member = _locked_member(club, s, member_id)
        on = member.holiday_until is not None and member.holiday_from is not None and member.holiday_until > now
        if until is None and not on:
            raise Conflict("you are not on holiday", code="not_on_holiday")
        if until is not None and until <= now:
            raise Invalid("a holiday ends in the future", code="invalid_holiday")
        # His clocks: the time counted so far is kept, under the holiday that was.
        mine = []
        for partie in parties:
            holidays = holidays_of(s, partie)
            for row in partie.seats:
                if row.member_id == member_id and row.turn_since is not None:
                    checkpoint(row, now, pauses_of(partie, holidays, row))
                    mine.append((partie, row))
        # The hours a holiday costs leave out the weekends of his weekends-off parties.
        zones = _weekend_zones(s, member_id, parties)
        if on and member.vacation_year == now.year:  # what is not used of the old one comes back
            _use_hours(member, now, -charged_hours(now, member.holiday_until, zones, math.floor))
        if until is None:
            member.holiday_until = now
        else:
            need = charged_hours(now, until, zones)
            left = vacation_left(club, member, now)
            if need > left:
                raise Invalid(f"you have {left} vacation hours left this year; this holiday takes {need}",
                              code="not_enough_vacation", hours_left=left)
            _use_hours(member, now, need)
            member.holiday_from = member.holiday_from if on else now
            member.holiday_until = until
        s.flush()
        for partie in parties:
            holidays = holidays_of(s, partie)
            for row in partie.seats:
                if row.member_id == member_id and row.turn_since is not None:
                    set_times(row, partie.timer_seconds, pauses_of(partie, holidays, row))
            partie.deadline_at = deadline_of(partie)
        out = vacation_info(club, member, now)
        changed = [p.id for p in parties]
    for partie_id in changed:
        club.notify_partie(partie_id, {"kind": "seats"})
    return out
