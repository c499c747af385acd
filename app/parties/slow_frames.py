"""What the pages and a table's state frame show of a slow partie's clocks
(app/parties/slow.py)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from app.db.models import Member, Partie
from app.parties.lookup import get_partie
from app.parties.slow import TIMEOUTS_FOR_VOTE, is_slow
from app.parties.slow_clocks import holidays_of, is_person, pauses_of, used_of
from app.parties.slow_time import HOUR, paused, standing
from app.parties.slow_vacation import vacation_left
from app.parties.visibility import check_may_watch

if TYPE_CHECKING:
    from app.club import Club


def clocks(s: Session, partie: Partie, now: datetime) -> list[dict[str, Any] | None]:
    """Each seat's clock as the table shows it (None: a computer player's seat): the
    decision time and bank left, the vacation hours this decision took, all that is left
    (``left``) and when it runs out, whether it stands still now (a weekend, a holiday)."""
    timer = partie.timer_seconds or 0
    holidays = holidays_of(s, partie)
    out: list[dict[str, Any] | None] = []
    for row in partie.seats:
        if not is_person(row):
            out.append(None)
            continue
        pauses = pauses_of(partie, holidays, row)
        bank = row.bank_left or 0
        clock: dict[str, Any] = {"seat": row.seat, "running": row.turn_since is not None, "decision": timer,
                                 "bank": bank, "vacation": 0, "left": timer + bank, "deadline": None,
                                 "paused": paused(now, pauses), "timeouts": row.timeouts,
                                 # why it stands and until when: [{"why": "weekend"|"holiday", "until": ISO}]
                                 "stands": [{"why": why, "until": end.isoformat()} for why, end in standing(now, pauses)]}
        if row.turn_since is not None:
            used = used_of(row, pauses, now)
            allowance = timer + bank + HOUR * row.vacation_hours
            clock.update(decision=int(max(0.0, timer - used)), bank=int(max(0.0, bank - max(0.0, used - timer))),
                         vacation=row.vacation_hours, left=int(max(0.0, allowance - used)),
                         deadline=row.deadline_at.isoformat() if row.deadline_at else None)
        out.append(clock)
    return out


def my_clock(club: Club, s: Session, partie: Partie, seat: int, member_id: int, now: datetime) -> dict[str, Any] | None:
    """A member's clock at his slow table as the lobby shows it: with ``vacation_left``
    (his year's vacation hours still to spend) and ``with_vacation`` (all the time that
    counts before the timer speaks for him: what is left, and the vacation spent then)."""
    clock = clocks(s, partie, now)[seat]
    if clock is not None:
        hours = vacation_left(club, s.get(Member, member_id), now)
        clock.update(vacation_left=hours, with_vacation=clock["left"] + HOUR * hours)
    return clock


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
