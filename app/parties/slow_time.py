"""The time that counts on a slow partie's clock (app/parties/slow.py): all of it but the
weekends of a partie that leaves them out and the player's holiday."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from app.zones import zone

HOUR = 3600
UTC = timezone.utc


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
