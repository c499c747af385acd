"""What a tournament asks of a game (issue 25, rulings T3-T5), and what the games share.

Each game's descriptor carries one :class:`TournamentRules` (``descriptor.tournament``),
filled in the game's own package; the tournament domain reads only these, never a
game's name. The pieces every game uses alike (points by place, shared between tied
places; the organizer's own table checked) are here, once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.games.base import SettingsError


def never(settings: Mapping[str, Any]) -> bool:
    return False


@dataclass(frozen=True)
class TournamentRules:
    """A game's part of a tournament.

    - ``round_settings(settings, hands)``: the settings of a round's partie (T3), from the
      tournament's settings and its hands per round (None: the game's default; a game
      whose round is its whole schedule ignores it). :class:`SettingsError` if refused.
    - ``boards(engine)``: for every deal index ended so far (0, 1, ...), each seat's result
      on that board (T4), in the direction ``boards_higher_better`` says.
    - ``board_line(engine, deal_index)``: what a traveller row shows of one board of one
      table, JSON-able: always ``contract`` (as the record names it: a number or a code,
      None when nothing was played), ``dealer``, ``declarer`` and ``made`` (None where the
      game has no declarer), and ``slot``, the schedule's place of the deal: two tables'
      deal k are the same board when their slots agree, which they always do except after
      a Libyan Lora deal voided by its play (docs/rulings.md, "Tournaments"); a game may
      add its own keys.
    - ``place_points(result, custom)``: each seat's place points (T5) from a partie's
      ``result()``; ``custom``, the organizer's table by place (first place first),
      replaces the game's default (:func:`check_place_points`).
    - ``totals(result)``: each seat's total result in the partie (T5's last tiebreak), in
      the direction ``totals_higher_better`` says.
    - ``board_higher_better`` / ``total_higher_better``: the directions under the game's
      own rules; ``turned_by(settings)`` is True for house rules that turn both around
      (Croatian Lora: the highest total wins). Ask :meth:`boards_higher_better` and
      :meth:`totals_higher_better` with the tournament's settings.
    """

    round_settings: Callable[[Mapping[str, Any], int | None], dict[str, Any]]
    boards: Callable[[Any], list[list[float]]]
    board_line: Callable[[Any, int], dict[str, Any]]
    place_points: Callable[[Mapping[str, Any], Sequence[float] | None], list[float]]
    totals: Callable[[Mapping[str, Any]], list[float]]
    board_higher_better: bool = True
    total_higher_better: bool = True
    turned_by: Callable[[Mapping[str, Any]], bool] = never
    # A game whose round counts hands (preferans, P13): a round's hands when the tournament
    # names none; the organizer's form asks for them. None: a round is the game's whole
    # schedule (``round_settings`` ignores the hands).
    round_hands: int | None = None
    # ... and the number a round's hands are a multiple of (preferans: 3, a turn of dealers).
    hands_step: int = 1

    def boards_higher_better(self, settings: Mapping[str, Any]) -> bool:
        """Is a higher board result the better one, in a partie with these settings?"""
        return self.board_higher_better != self.turned_by(settings)

    def totals_higher_better(self, settings: Mapping[str, Any]) -> bool:
        """Is a higher total the better one, in a partie with these settings?"""
        return self.total_higher_better != self.turned_by(settings)


def check_place_points(custom: object, n_seats: int) -> tuple[float, ...]:
    """The organizer's place points (T5): one finite number per place of a table of
    ``n_seats``, first place first, never more for a worse place; else SettingsError."""
    if not isinstance(custom, (list, tuple)):
        raise SettingsError(f"place points are a list of numbers, one per place, got {custom!r}")
    if len(custom) != n_seats:
        raise SettingsError(f"place points: a table of {n_seats} seats needs {n_seats} numbers, got {len(custom)}")
    for x in custom:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise SettingsError(f"place points are numbers, got {x!r}")
    if any(a < b for a, b in zip(custom, custom[1:])):
        raise SettingsError(f"place points may not grow with the place (first place first), got {list(custom)}")
    return tuple(float(x) for x in custom)


def points_by_places(places: Sequence[int], table: Sequence[float]) -> list[float]:
    """Each seat's points of ``table`` (first place first) by its 1-based place; seats
    sharing a place share equally the points of the places they cover (1, 1, 3, 4 with
    3/2/1/0: 2.5, 2.5, 1, 0). Places past the table's end get 0."""
    order = sorted(range(len(places)), key=lambda s: places[s])
    points = [0.0] * len(places)
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and places[order[j]] == places[order[i]]:
            j += 1
        share = sum(table[k] if k < len(table) else 0.0 for k in range(i, j)) / (j - i)
        for s in order[i:j]:
            points[s] = share
        i = j
    return points


def table_or_custom(default: Sequence[float], custom: Sequence[float] | None, n_seats: int) -> tuple[float, ...]:
    """The place points to use: the organizer's (checked), else the game's first ``n_seats``."""
    if custom is not None:
        return check_place_points(custom, n_seats)
    return tuple(float(x) for x in default[:n_seats])


__all__ = ["TournamentRules", "check_place_points", "never", "points_by_places", "table_or_custom"]
