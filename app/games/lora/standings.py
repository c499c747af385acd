"""Places at the end of a Lora partie (section 7, rulings L4)."""

from __future__ import annotations

from collections.abc import Sequence


def places(totals: Sequence[int], deal_points: Sequence[Sequence[int]]) -> list[int]:
    """1-based places: lowest total first; on equal totals, fewer deals with positive
    points first; still equal, the place is shared and the next one skipped (1, 1, 3, 4)."""
    n = len(totals)
    positive = [sum(1 for p in deal_points if p[s] > 0) for s in range(n)]
    keys = [(totals[s], positive[s]) for s in range(n)]
    return [1 + sum(1 for other in keys if other < keys[s]) for s in range(n)]


def places_highest_first(totals: Sequence[int], deal_points: Sequence[Sequence[int]]) -> list[int]:
    """Croatian Lora (rulings V9): highest total first; on equal totals, fewer deals with
    negative points first; still equal, shared."""
    return places([-t for t in totals], [[-p for p in deal] for deal in deal_points])
