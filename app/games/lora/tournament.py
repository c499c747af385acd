"""Lora in a tournament: the trick games' rounds, boards and lines
(:mod:`app.games.tricks.tournament`); Croatian Lora counts the other way (V9)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from app.games.tricks.settings import LIVE_KEYS
from app.games.tricks.tournament import TRICK_TOURNAMENT
from app.games.lora.variants import Schedule


def highest_wins(settings: Mapping[str, Any]) -> bool:
    """Croatian Lora counts the other way: the highest points are the best (V9)."""
    rules = {k: v for k, v in settings.items() if k not in LIVE_KEYS}
    return bool(rules) and Schedule.of(rules).highest_wins


LORA_TOURNAMENT = replace(TRICK_TOURNAMENT, turned_by=highest_wins)
