"""Places 1..n from the totals, with shared places (1, 1, 3, 4) for players still equal."""

from __future__ import annotations

from collections.abc import Sequence


def places_by(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Place of each player when a smaller key ranks higher; equal keys share a place."""
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def deals_with(points: Sequence[Sequence[int]], seat: int, sign: int) -> int:
    """How many deals gave the seat points of the given sign (+1 positive, -1 negative)."""
    return sum(1 for deal in points if deal[seat] * sign > 0)


def penalty_places(totals: Sequence[int], points: Sequence[Sequence[int]]) -> list[int]:
    """Klub and libijska Lora (L4, V10): lowest total first; then fewer deals with
    positive points; then shared."""
    return places_by([(total, deals_with(points, seat, +1)) for seat, total in enumerate(totals)])


def reward_places(totals: Sequence[int], points: Sequence[Sequence[int]]) -> list[int]:
    """Hrvatska Lora (V9): highest total first; then fewer deals with negative points;
    then shared."""
    return places_by([(-total, deals_with(points, seat, -1)) for seat, total in enumerate(totals)])


def lorum_places(totals: Sequence[int]) -> list[int]:
    """Lórum: the higher total wins; equal totals are a draw and share the place."""
    return places_by([(-total,) for total in totals])
