"""Slow parties (dopisna partija): hours or days per decision, a time bank, vacation.

A partie is slow when its decision timer is an hour or more (:func:`is_slow`; the live
timer is 15 to 300 seconds): 1, 3, 12 or 24 hours or 3 days per decision. Each player
has his own clock, kept in his seat's row (``partie_seats``), so the timers survive
restarts and any instance may act on them:

- a decision begins when his seat enters the table's turn (``to_act``) and ends when he
  (or the timer, or a computer player for him) says a word, or the turn leaves him;
- it may take the decision time; what it takes beyond that comes out of his **time
  bank** (``bank_left``, the partie's ``bank_seconds`` at the start, never refilled);
- when the decision time and the bank are gone, his **vacation** is spent, an hour at a
  time (``vacation_hours`` of the decision, ``members.vacation_hours_used`` of the year):
  KLUB_VACATION_DAYS_PER_YEAR days a calendar year (UTC);
- when that is gone too, the timer says the game's safe word for him, as at a live table
  (the bot runner, source ``timer``), and his seat counts one more ``timeouts``; after
  three the others may vote his seat to a computer player (app/tables/presence.py), and
  he may take it back;
- time that does not count: the weekends of a partie that leaves them out (Saturday
  00:00 to Monday 00:00 in its proposer's time zone, ``weekend_zone``) and his holiday ("on holiday until", switched on ahead
  and paid for at once, in whole hours, from the same yearly vacation);
- once 80% of the decision time has counted, one reminder (notice ``reminder``) if he
  has not looked at the table since the decision began; ``reminded`` keeps it to one.

The word path calls :func:`after_word` in the word's transaction; everything else that
moves a clock (a start, a holiday, a takeover, a spent vacation hour) locks the partie's
row first, so a due decision is made exactly once however many instances look at it.
Docs: docs/rulings.md ("Slow parties"), docs/server.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.db.database import for_update
from app.db.models import Member, Partie, PartieSeat
from app.errors import Conflict, Invalid
from app.parties.lookup import get_partie, open_table
from app.parties.visibility import check_may_watch
from app.realtime import notices
from app.zones import zone

if TYPE_CHECKING:
    from app.club import Club

HOUR = 3600
# The slow timers a proposal may choose: per decision 1, 3, 12 or 24 hours, or 3 days.
SLOW_TIMERS = (HOUR, 3 * HOUR, 12 * HOUR, 24 * HOUR, 72 * HOUR)
# The bank: whole hours, at most a week; a proposal that names none gets twice the decision time.
BANK_MAX = 7 * 24 * HOUR
BANK_FACTOR = 2
REMINDER_SHARE = 0.8  # the reminder: once 80% of the decision time has counted
TIMEOUTS_FOR_VOTE = 3  # timed-out words after which the others may hand the seat over
UTC = timezone.utc


def is_slow(timer_seconds: int | None) -> bool:
    """A slow partie: a decision timer of an hour or more (the live one is 15-300 s)."""
    return bool(timer_seconds) and timer_seconds >= HOUR


def check_slow_options(timer: int, bank: int | None, weekends_off: bool) -> tuple[int | None, bool]:
    """The bank (seconds) and weekend choice of a proposal with ``timer``; 422 when wrong."""
    if not is_slow(timer):
        if bank is not None or weekends_off:
            raise Invalid("a time bank and weekends off go with a slow timer (an hour or more per decision)",
                          code="invalid_slow_options")
        return None, False
    if bank is None:
        bank = BANK_FACTOR * timer
    if isinstance(bank, bool) or not isinstance(bank, int) or not 0 <= bank <= BANK_MAX or bank % HOUR:
        raise Invalid(f"the time bank is whole hours, 0 to {BANK_MAX // HOUR} hours (in seconds)", code="invalid_bank")
    return bank, bool(weekends_off)


# -- time that counts ---------------------------------------------------------------------


@dataclass(frozen=True)
class Pauses:
    """What does not count on one player's clock: weekends (a partie's choice, in ``zone``,
    an IANA name; None: UTC) and his holiday."""

    weekends: bool = False
    holiday: tuple[datetime, datetime] | None = None
    zone: str | None = None


def _weekend_ending_after(t: datetime, zone_name: str | None = None) -> tuple[datetime, datetime]:
    """The weekend (Saturday 00:00 to Monday 00:00 of the zone's wall clock) that ends after ``t``."""
    tz = zone(zone_name)
    t = t.astimezone(tz)
    monday = datetime(t.year, t.month, t.day, tzinfo=tz) - timedelta(days=t.weekday())  # wall-clock days
    return (monday + timedelta(days=5)).astimezone(UTC), (monday + timedelta(days=7)).astimezone(UTC)


def _next_pause(p: datetime, pauses: Pauses) -> tuple[datetime, datetime] | None:
    """The first stretch that does not count and ends after ``p`` (touching ones joined)."""
    spans = []
    if pauses.weekends:
        spans.append(_weekend_ending_after(p, pauses.zone))
    holiday = pauses.holiday
    if holiday is not None and holiday[1] > p and holiday[1] > holiday[0]:
        spans.append(holiday)
    if not spans:
        return None
    start, end = min(spans)
    while True:
        grown = end
        if pauses.weekends:
            w0, w1 = _weekend_ending_after(end, pauses.zone)
            if w0 <= end:
                grown = max(grown, w1)
        if holiday is not None and holiday[0] <= grown < holiday[1]:
            grown = holiday[1]
        if grown == end:
            return start, end
        end = grown


def counted(start: datetime, end: datetime, pauses: Pauses) -> float:
    """The seconds between ``start`` and ``end`` that count."""
    total, p = 0.0, start
    while p < end:
        span = _next_pause(p, pauses)
        if span is None or span[0] >= end:
            return total + (end - p).total_seconds()
        if span[0] > p:
            total += (span[0] - p).total_seconds()
        p = span[1]
    return total


def reach(start: datetime, seconds: float, pauses: Pauses) -> datetime:
    """The moment at which ``seconds`` that count have passed since ``start``."""
    p, left = start, seconds
    while left > 0:
        span = _next_pause(p, pauses)
        if span is None:
            break
        if span[0] > p:
            room = (span[0] - p).total_seconds()
            if left <= room:
                break
            left -= room
        p = span[1]
    return p + timedelta(seconds=max(0.0, left))


def paused(now: datetime, pauses: Pauses) -> bool:
    span = _next_pause(now, pauses)
    return span is not None and span[0] <= now


# -- the seats' clocks -----------------------------------------------------------------------


def _holidays(s: Session, partie: Partie) -> dict[int, tuple[datetime, datetime] | None]:
    """Each member's holiday, read now (a seat's ``member`` may be older than its member_id)."""
    ids = [row.member_id for row in partie.seats if row.member_id is not None]
    if not ids:
        return {}
    rows = s.execute(select(Member.id, Member.holiday_from, Member.holiday_until).where(Member.id.in_(ids)))
    return {mid: (start, end) if start is not None and end is not None else None for mid, start, end in rows}


def _pauses(partie: Partie, holidays: dict, row: PartieSeat) -> Pauses:
    return Pauses(bool(partie.weekends_off), holidays.get(row.member_id), partie.weekend_zone)


def _person(row: PartieSeat) -> bool:
    return row.member_id is not None and not row.played_by_bot


def _used(row: PartieSeat, pauses: Pauses, now: datetime) -> float:
    if row.clock_from is None:
        return 0.0
    return row.used_seconds + counted(row.clock_from, now, pauses)


def _times(row: PartieSeat, timer: int, pauses: Pauses) -> None:
    """The seat's deadline (decision time, bank and the vacation hours it took) and reminder."""
    allowance = timer + (row.bank_left or 0) + HOUR * row.vacation_hours
    row.deadline_at = reach(row.clock_from, allowance - row.used_seconds, pauses)
    row.remind_at = None if row.reminded else reach(row.clock_from, REMINDER_SHARE * timer - row.used_seconds, pauses)


def _start(row: PartieSeat, now: datetime, timer: int, pauses: Pauses) -> None:
    row.turn_since = row.clock_from = now
    row.used_seconds = row.vacation_hours = 0
    row.reminded = False
    _times(row, timer, pauses)


def _end(row: PartieSeat, now: datetime, timer: int, pauses: Pauses, charge: bool) -> None:
    if charge:
        over = max(0.0, _used(row, pauses, now) - timer)
        row.bank_left = max(0, (row.bank_left or 0) - math.ceil(over))
    row.turn_since = row.clock_from = row.deadline_at = row.remind_at = None
    row.used_seconds = row.vacation_hours = 0
    row.reminded = False


def _checkpoint(row: PartieSeat, now: datetime, pauses: Pauses) -> None:
    """Fold the time counted so far into ``used_seconds`` (before the pauses change)."""
    if row.clock_from is not None:
        row.used_seconds = int(_used(row, pauses, now))
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
    holidays = _holidays(s, partie)
    for row in partie.seats:
        pauses = _pauses(partie, holidays, row)
        waited = _person(row) and row.seat in to_act
        running = row.turn_since is not None
        if timer_word and row.seat == spoke:
            row.timeouts += 1
        if running and (not waited or row.seat == spoke):
            _end(row, now, timer, pauses, charge=_person(row))
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
    if not is_slow(partie.timer_seconds) or partie.status != "running":
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


# -- vacation ----------------------------------------------------------------------------


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
        if not _person(row) or row.turn_since is None or row.deadline_at is None or row.deadline_at > now:
            return NOT_DUE
        member = _locked_member(club, s, row.member_id)
        left = vacation_left(club, member, now)
        pauses = _pauses(partie, _holidays(s, partie), row)
        spent = 0
        while row.deadline_at <= now and spent < left:
            row.vacation_hours += 1
            spent += 1
            _times(row, partie.timer_seconds, pauses)
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
    rounded up; a holiday already on is moved), or come back now (``None``: the whole
    hours not used are given back). His running clocks stand still meanwhile."""
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
            holidays = _holidays(s, partie)
            for row in partie.seats:
                if row.member_id == member_id and row.turn_since is not None:
                    _checkpoint(row, now, _pauses(partie, holidays, row))
                    mine.append((partie, row))
        if on and member.vacation_year == now.year:  # what is not used of the old one comes back
            _use_hours(member, now, -int((member.holiday_until - now).total_seconds() // HOUR))
        if until is None:
            member.holiday_until = now
        else:
            need = math.ceil((until - now).total_seconds() / HOUR)
            left = vacation_left(club, member, now)
            if need > left:
                raise Invalid(f"you have {left} vacation hours left this year; this holiday takes {need}",
                              code="not_enough_vacation", hours_left=left)
            _use_hours(member, now, need)
            member.holiday_from = member.holiday_from if on else now
            member.holiday_until = until
        s.flush()
        for partie in parties:
            holidays = _holidays(s, partie)
            for row in partie.seats:
                if row.member_id == member_id and row.turn_since is not None:
                    _times(row, partie.timer_seconds, _pauses(partie, holidays, row))
            partie.deadline_at = deadline_of(partie)
        out = vacation_info(club, member, now)
        changed = [p.id for p in parties]
    for partie_id in changed:
        club.notify_partie(partie_id, {"kind": "seats"})
    return out


# -- reminders and looks -------------------------------------------------------------------


def due_reminders(club: Club) -> list[tuple[int, int]]:
    with club.db.read() as s:
        return [tuple(r) for r in s.execute(
            select(PartieSeat.partie_id, PartieSeat.seat).join(Partie, Partie.id == PartieSeat.partie_id)
            .where(PartieSeat.remind_at <= club.clock.now(), PartieSeat.reminded.is_(False),
                   Partie.status == "running")
        )]


def send_reminder(club: Club, partie_id: int, seat: int) -> bool:
    """The reminder of a seat's decision, once: the row is marked in the same transaction
    that finds it due, so two instances never both send it. Not sent when the member
    looked at the table since the decision began (or has it open now). True: sent."""
    now = club.clock.now()
    with club.db.write() as s:
        marked = s.execute(
            update(PartieSeat)
            .where(PartieSeat.partie_id == partie_id, PartieSeat.seat == seat, PartieSeat.reminded.is_(False),
                   PartieSeat.remind_at <= now, PartieSeat.turn_since.is_not(None))
            .values(reminded=True, remind_at=None)
        ).rowcount
        if marked != 1:
            return False
        row = s.execute(
            select(PartieSeat.member_id, PartieSeat.turn_since, PartieSeat.seen_at, PartieSeat.away,
                   PartieSeat.deadline_at, Partie.game)
            .join(Partie, Partie.id == PartieSeat.partie_id)
            .where(PartieSeat.partie_id == partie_id, PartieSeat.seat == seat)
        ).one()
    member_id, since, seen, away, deadline, game = row
    looked = seen is not None and (seen >= since or not away)
    if looked or member_id is None:
        return False
    left = max(0, int((deadline - now).total_seconds())) if deadline is not None else None
    notices.tell(club.hub, [member_id], "reminder", partie=partie_id, game=game, left=left)
    return True


def looked(club: Club, partie_id: int, member_id: int) -> None:
    """The member read his table (his view over REST) while a decision waits for him."""
    unseen = (PartieSeat.partie_id == partie_id, PartieSeat.member_id == member_id, PartieSeat.turn_since.is_not(None),
              PartieSeat.seen_at.is_(None) | (PartieSeat.seen_at < PartieSeat.turn_since))
    with club.db.read() as s:  # once per decision: no write for every read of the table
        if s.scalar(select(PartieSeat.seat).where(*unseen)) is None:
            return
    with club.db.write() as s:
        s.execute(update(PartieSeat).where(*unseen).values(seen_at=club.clock.now()))


# -- what the pages show -----------------------------------------------------------------


def clocks(s: Session, partie: Partie, now: datetime) -> list[dict[str, Any] | None]:
    """Each seat's clock as the table shows it (None: a computer player's seat): the
    decision time and bank left, the vacation hours this decision took, all that is left
    (``left``) and when it runs out, whether it stands still now (a weekend, a holiday)."""
    timer = partie.timer_seconds or 0
    holidays = _holidays(s, partie)
    out: list[dict[str, Any] | None] = []
    for row in partie.seats:
        if not _person(row):
            out.append(None)
            continue
        pauses = _pauses(partie, holidays, row)
        bank = row.bank_left or 0
        clock: dict[str, Any] = {"seat": row.seat, "running": row.turn_since is not None, "decision": timer,
                                 "bank": bank, "vacation": 0, "left": timer + bank, "deadline": None,
                                 "paused": paused(now, pauses), "timeouts": row.timeouts}
        if row.turn_since is not None:
            used = _used(row, pauses, now)
            allowance = timer + bank + HOUR * row.vacation_hours
            clock.update(decision=int(max(0.0, timer - used)), bank=int(max(0.0, bank - max(0.0, used - timer))),
                         vacation=row.vacation_hours, left=int(max(0.0, allowance - used)),
                         deadline=row.deadline_at.isoformat() if row.deadline_at else None)
        out.append(clock)
    return out


def slow_frame(s: Session, partie: Partie, now: datetime) -> dict[str, Any] | None:
    """What a table's state frame says of a slow partie (None for a live one)."""
    if not is_slow(partie.timer_seconds):
        return None
    return {"timer": partie.timer_seconds, "bank": partie.bank_seconds, "weekends_off": bool(partie.weekends_off),
            "weekend_zone": partie.weekend_zone if partie.weekends_off else None,
            "now": now.isoformat(), "clocks": clocks(s, partie, now), "timeouts_for_vote": TIMEOUTS_FOR_VOTE}


def table_clocks(club: Club, partie_id: int, member_id: int | None) -> dict[str, Any]:
    """The clocks of a table (for whoever may watch it)."""
    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        check_may_watch(s, partie, member_id)
        return {"version": partie.version, "slow": slow_frame(s, partie, club.clock.now())}


# -- the cap ---------------------------------------------------------------------------------


def slow_count(s: Session, member_id: int) -> int:
    """The slow parties a member plays, or has proposed or accepted, now (a seat a computer
    player took for good no longer counts; one voted away, which he may take back, does)."""
    return s.scalar(
        select(func.count(func.distinct(Partie.id))).join(PartieSeat, PartieSeat.partie_id == Partie.id)
        .where(Partie.status.in_(("proposed", "running")), Partie.timer_seconds >= HOUR,
               PartieSeat.member_id == member_id, PartieSeat.answer == "accepted",
               PartieSeat.taken_over.is_(False) | PartieSeat.reclaimable.is_(True))
    ) or 0


def check_cap(club: Club, s: Session, member_id: int, name: str) -> None:
    cap = club.settings.slow_parties_max
    if slow_count(s, member_id) >= cap:
        raise Conflict(f"{name} plays {cap} slow parties at once already, the most the Club allows; "
                       "finish one first", code="too_many_slow", most=cap)
