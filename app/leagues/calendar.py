"""A league's calendar: its evenings' dates and start instants, pure.

Every week on the league's weekday at its wall time in its zone, from its first date on
(the first such weekday on or after it), the skipped dates left out, until the season has
its N evenings. A wall time that a change of clocks skips or repeats is read as
``zoneinfo`` reads it (the first of a repeated hour).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

MAX_WEEKS = 520  # a calendar whose skips leave nothing in ten years is refused


def parse_time(text: str) -> time:
    """``HH:MM`` (ValueError otherwise)."""
    if not isinstance(text, str) or len(text) != 5 or text[2] != ":":
        raise ValueError(text)
    return time(int(text[:2]), int(text[3:]))


def evening_dates(weekday: int, first: date, evenings: int, skipped: set[date] | frozenset[date]) -> list[date]:
    day = first + timedelta(days=(weekday - first.weekday()) % 7)
    out: list[date] = []
    for _ in range(MAX_WEEKS):
        if len(out) == evenings:
            return out
        if day not in skipped:
            out.append(day)
        day += timedelta(weeks=1)
    raise ValueError("the skipped dates leave too few evenings")


def starts(weekday: int, first: date, evenings: int, skipped: set[date] | frozenset[date], at: str,
           zone: str) -> list[datetime]:
    """Each evening's start, in UTC, first to last."""
    wall = parse_time(at)
    tz = ZoneInfo(zone)
    return [datetime.combine(d, wall, tzinfo=tz).astimezone(timezone.utc)
            for d in evening_dates(weekday, first, evenings, skipped)]


def calendar_starts(league) -> list[datetime]:
    """A league row's (app/db/models/leagues.py) evenings' starts by its calendar alone, and
    its final's (a week after the last evening, the skipped dates left out) when it has one."""
    skipped = frozenset(date.fromisoformat(d) for d in league.skipped_dates or [])
    count = league.evenings + (1 if league.final_top else 0)
    return starts(league.weekday, league.first_date, count, skipped, league.start_time, league.zone)


def league_starts(league) -> list[datetime]:
    """The evenings' starts, those an organizer moved by hand (``league.moves``) at their
    new time (app/leagues/organizing.py keeps them in order)."""
    out = calendar_starts(league)
    for key, at in (league.moves or {}).items():
        no = int(key)
        if 1 <= no <= len(out):
            out[no - 1] = datetime.fromisoformat(at).astimezone(timezone.utc)
    return out
