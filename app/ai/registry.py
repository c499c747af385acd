"""Which class plays which level of which game: ``app/ai/<game>/`` builds its own; and
the open-cards values of a decision for the replay's analysis (``app/ai/<game>/analysis.py``).

A descriptor's ``bots`` names the package: a bare name is one under ``app/ai/``, a dotted
one a module of its own (a game whose package lives outside the Club's tree)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from app.ai import Bot, RandomBot
from app.games.registry import descriptor

# (the engine at the decision, the seat, its legal words, the word it said) -> each word's
# value for that seat, lower is better (at least the word said and a best one); None: this
# decision is not analysed.
OpenValues = Callable[[Any, int, list[str], str], "dict[str, float] | None"]


class UnitValues(dict):
    """Values in another unit than the game's ``analysis_unit`` (preferans' bids: points)."""

    def __init__(self, values: dict[str, float], unit: str):
        super().__init__(values)
        self.unit = unit


def _module(bots: str) -> str:
    return bots if "." in bots else f"app.ai.{bots}"


def build_bot(name: str, game: str, seed: int | str | None) -> Bot:
    if name == "random":
        return RandomBot(seed)
    return import_module(_module(descriptor(game).bots)).make_bot(name, seed)


def open_values_of(game: str) -> OpenValues | None:
    """The game's open-cards valuation (None: the game has no analysis)."""
    d = descriptor(game)
    if not d.analysis:
        return None
    values: OpenValues = import_module(f"{_module(d.bots)}.analysis").open_values
    return values
