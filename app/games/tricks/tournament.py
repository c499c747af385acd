"""A trick game of the Lora family in a tournament (rulings T3-T5): Lora's and Lórum's
rounds, boards and lines.

A round is the partie's whole schedule (T3): the settings are the tournament's as they
are. A board's result is the deal's points as the sheet writes them (Lórum: the chips
won or paid), void deals included, each at its deal index.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import GameError
from app.games.tournament import TournamentRules, points_by_places, table_or_custom

PLACE_POINTS = (3, 2, 1, 0)  # T5; a table of three players takes the first three


def round_settings(settings: Mapping[str, Any], hands: int | None) -> dict[str, Any]:
    """T3: the round plays the settings' whole schedule; ``hands`` has no say."""
    return dict(settings)


def boards(engine: Any) -> list[list[float]]:
    """Each ended deal's points (Lora) or chips (Lórum) per seat, as ``result()["deals"]``."""
    return [list(points) for points in engine.points]


def board_line(engine: Any, deal_index: int) -> dict[str, Any]:
    """The deal's contract as the record names it, its dealer and slot, and ``void`` for a
    void deal."""
    if not isinstance(deal_index, int) or not 0 <= deal_index < len(engine.points):
        raise GameError(f"deal {deal_index!r} has not ended (deals ended: {len(engine.points)})")
    line: dict[str, Any] = {"contract": engine.contract_label(deal_index), "dealer": engine.deal_dealer(deal_index),
                            "declarer": None, "made": None, "slot": engine.deals[deal_index].slot}
    if engine.voids[deal_index]:
        line["void"] = True
    return line


def place_points(result: Mapping[str, Any], custom: Sequence[float] | None = None) -> list[float]:
    places = list(result["places"])
    return points_by_places(places, table_or_custom(PLACE_POINTS, custom, len(places)))


def totals(result: Mapping[str, Any]) -> list[float]:
    return list(result["totals"])


# Lora's way (the lowest is best); a game replaces what differs.
TRICK_TOURNAMENT = TournamentRules(
    round_settings=round_settings, boards=boards, board_line=board_line, place_points=place_points, totals=totals,
    board_higher_better=False, total_higher_better=False,
)
