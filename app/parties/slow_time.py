"""The time that counts on a slow partie's clock (app/parties/slow.py): all of it but the
weekends of a partie that leaves them out and the player's holiday."""

from __future__ import annotations

import math
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


def standing(now: datetime, pauses: Pauses) -> list[tuple[str, datetime]]:
    """Why a clock stands at ``now`` and until when, in order: ``("weekend", its end)``,
    ``("holiday", its end)``; a weekend and a holiday that touch are both named (the clock
    runs again at the last end). Empty: the clock counts."""
    out: list[tuple[str, datetime]] = []
    p = now
    while len(out) < 8:
        covering = []
        if pauses.holiday is not None and pauses.holiday[0] <= p < pauses.holiday[1]:
            covering.append((pauses.holiday[1], "holiday"))
        if pauses.weekends:
            w0, w1 = _weekend_ending_after(p, pauses.zone)
            if w0 <= p:
                covering.append((w1, "weekend"))
        if not covering:
            break
        end, why = max(covering)
        if out and out[-1][0] == why:
            out[-1] = (why, end)
        else:
            out.append((why, end))
        p = end
    return out


def weekend_spans(start: datetime, end: datetime, zone_name: str | None) -> list[tuple[datetime, datetime]]:
    """The weekends of ``zone_name`` between ``start`` and ``end``, cut to them."""
    out, p = [], start
    while p < end:
        w0, w1 = _weekend_ending_after(p, zone_name)
        if w0 >= end:
            break
        out.append((max(w0, start), min(w1, end)))
        p = w1
    return out


def _common(a: list[tuple[datetime, datetime]], b: list[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    out = []
    for a0, a1 in a:
        for b0, b1 in b:
            lo, hi = max(a0, b0), min(a1, b1)
            if lo < hi:
                out.append((lo, hi))
    return out


def charged_hours(start: datetime, end: datetime, weekend_zones: list[str | None] | None, rounding=math.ceil) -> int:
    """The whole hours a holiday from ``start`` to ``end`` costs (``rounding`` the part
    hour): its hours that would count on at least one of the member's slow parties. With
    ``weekend_zones`` (every one of his parties leaves weekends out, each in its zone)
    the hours that are a weekend in every one of them are free; None (no partie, or one
    that counts weekends): every hour (docs/rulings.md, "Slow parties")."""
    seconds = max(0.0, (end - start).total_seconds())
    if weekend_zones:
        free = [(start, end)]
        for name in dict.fromkeys(weekend_zones):
            free = _common(free, weekend_spans(start, end, name))
        seconds -= sum((b - a).total_seconds() for a, b in free)
    return int(rounding(max(0.0, seconds) / HOUR))
