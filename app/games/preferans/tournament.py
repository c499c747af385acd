"""Preferans in a tournament (rulings P13, T3-T5).

A round has ``deljenja`` hands (P13). A board's result is the change the hand made in
the seat's result of section 15, turned so that more is better (T4: the papir before and
after the hand): its own line and the odlazak u bulu of its falls; the otpis that ends a
round belongs to no hand. Totals are the results of section 15, where less is better.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import GameError
from app.games.preferans.settings import DEFAULT_DELJENJA, DELJENJA_STEP, normalize_settings
from app.games.tournament import TournamentRules, check_place_points, points_by_places

PLACE_POINTS = (3, 2, 0)  # T5
FIRST_ALONE_IN_PLUS = 4
SECOND_IN_MINUS = 1


def round_settings(settings: Mapping[str, Any], hands: int | None) -> dict[str, Any]:
    """The tournament's settings with the round's hands (P13; default 24), checked."""
    out = {**settings, "deljenja": DEFAULT_DELJENJA if hands is None else hands}
    normalize_settings(out)
    return out


def boards(engine: Any) -> list[list[float]]:
    """Each ended hand's change of each seat's result, more is better."""
    return [[-x for x in change] for change in engine.hand_results()]


def board_line(engine: Any, deal_index: int) -> dict[str, Any]:
    """The hand as its papir line says: the contract (None when all passed), dealer,
    declarer, whether it passed (None when it was not played: refe), the kontra factor
    and how it ended (``refe``, ``prolaz`` or ``played``)."""
    if not isinstance(deal_index, int) or not 0 <= deal_index < engine.hands_ended:
        raise GameError(f"hand {deal_index!r} has not ended (hands ended: {engine.hands_ended})")
    line = next(line for line in engine.papir()["lines"] if line.get("deal") == deal_index and "dealer" in line)
    return {"contract": line.get("contract"), "dealer": line["dealer"], "declarer": line.get("declarer"),
            "made": line.get("passed"), "slot": deal_index, "kontra": line.get("kontra", 1), "end": line["kind"]}


def place_points(result: Mapping[str, Any], custom: Sequence[float] | None = None) -> list[float]:
    """T5: 3 / 2 / 0 by place; a first place alone in plus (the only winning result,
    below 0 in section 15) gets 4, a second place in minus (above 0) gets 1. The
    organizer's own table replaces all of it."""
    places = list(result["places"])
    if custom is not None:
        return points_by_places(places, check_place_points(custom, len(places)))
    points = points_by_places(places, PLACE_POINTS)
    results = list(result["results"])
    first, second = places.index(1), places.index(2)
    if [s for s, r in enumerate(results) if r < 0] == [first]:
        points[first] = float(FIRST_ALONE_IN_PLUS)
    if results[second] > 0:
        points[second] = float(SECOND_IN_MINUS)
    return points


def totals(result: Mapping[str, Any]) -> list[float]:
    """The results of section 15 (less is better)."""
    return list(result["results"])


PREFERANS_TOURNAMENT = TournamentRules(
    round_settings=round_settings, boards=boards, board_line=board_line, place_points=place_points, totals=totals,
    board_higher_better=True, total_higher_better=False, round_hands=DEFAULT_DELJENJA,
    hands_step=DELJENJA_STEP,
)
