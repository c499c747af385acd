"""A rating history as an SVG line chart, laid out on the server (the template draws it:
no script, no inline style; the look is in klub.css)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

WIDTH, HEIGHT = 600, 180
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 44, 12, 12, 22


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    rating: int
    partie_id: int
    date: str
    place: int | None


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str  # the polyline's "x,y x,y ..."
    dots: list[Dot]
    ticks: list[tuple[float, int]] = field(default_factory=list)  # (y, rating) of the grid lines
    left: int = PAD_LEFT
    right: int = WIDTH - PAD_RIGHT


def rating_chart(history: list[dict[str, Any]]) -> Chart | None:
    """The chart of ``history`` (oldest first: ``rating``, ``partie_id``, ``finished_at``,
    ``place``); None without a rated partie."""
    rated = [h for h in history if h.get("rating") is not None]
    if not rated:
        return None
    ratings = [int(h["rating"]) for h in rated]
    low, high = min(ratings), max(ratings)
    margin = max(10, (high - low) // 10)
    low, high = low - margin, high + margin
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def y_of(rating: float) -> float:
        return round(PAD_TOP + (high - rating) / (high - low) * inner_h, 1)

    step = inner_w / (len(rated) - 1) if len(rated) > 1 else 0.0
    dots = [
        Dot(round(PAD_LEFT + (i * step if len(rated) > 1 else inner_w / 2), 1), y_of(r), r, int(h["partie_id"]),
            str(h.get("finished_at") or "")[:10], h.get("place"))
        for i, (h, r) in enumerate(zip(rated, ratings))
    ]
    ticks = [(y_of(v), v) for v in _tick_values(low, high)]
    return Chart(WIDTH, HEIGHT, " ".join(f"{d.x},{d.y}" for d in dots), dots, ticks)


def _tick_values(low: int, high: int, count: int = 4) -> list[int]:
    """Round rating values for the grid lines between ``low`` and ``high``."""
    span = high - low
    step = next(s for s in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**9) if span / s <= count)
    first = -(-low // step) * step
    return list(range(first, high + 1, step))
