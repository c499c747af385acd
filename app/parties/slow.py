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
Here: what a slow partie is (its timers, bank and weekend options) and the cap on how
many a member plays at once. The time that counts: :mod:`app.parties.slow_time`; the
seats' clocks: :mod:`app.parties.slow_clocks`; vacation and holidays:
:mod:`app.parties.slow_vacation`; reminders: :mod:`app.parties.slow_reminders`; what the
pages show: :mod:`app.parties.slow_frames`.
Docs: docs/rulings.md ("Slow parties"), docs/server.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Partie, PartieSeat
from app.errors import Conflict, Invalid
from app.parties.slow_time import HOUR

if TYPE_CHECKING:
    from app.club import Club

# The slow timers a proposal may choose: per decision 1, 3, 12 or 24 hours, or 3 days.
SLOW_TIMERS = (HOUR, 3 * HOUR, 12 * HOUR, 24 * HOUR, 72 * HOUR)
# The bank: whole hours, at most a week; a proposal that names none gets twice the decision time.
BANK_MAX = 7 * 24 * HOUR
BANK_FACTOR = 2
TIMEOUTS_FOR_VOTE = 3  # timed-out words after which the others may hand the seat over


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
