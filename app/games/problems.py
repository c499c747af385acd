"""What a game tells the Club's problems (app/problems/, issue 41) about its decisions.

A problem is a decision of a finished deal where one word is clearly best with every hand
open (the replay's analysis values it). The Club's problems package knows no game: what a
decision is about (its theme, for the filters), how the question is put in words, what
the values count (points, chips, tricks) and how big a loss and a lead make a clear
problem all come from the game's :class:`ProblemRules`, its descriptor's ``problems``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.games.descriptor import Text


@dataclass(frozen=True)
class Margin:
    """A decision is a problem when the word said lost at least ``threshold`` against the
    best one and the best beats every other word by at least ``margin`` (in one unit)."""

    threshold: float
    margin: float


@dataclass(frozen=True)
class Decision:
    """A decision as the problems show it: its theme (a code, for the filters, and its
    name), and the question the member answers."""

    theme: str
    theme_name: Text
    question: Text


# (the engine before the word, the seat to decide, its legal words, the partie's settings)
Describe = Callable[[Any, int, list[str], Mapping[str, Any]], Decision]


@dataclass(frozen=True)
class ProblemRules:
    # The analysis' unit (None: the descriptor's ``analysis_unit``; preferans' bids are
    # valued in "points") -> how big a clear problem is.
    margins: Mapping[str | None, Margin]
    describe: Describe
    # A unit's name in words, as the answer says it ("2 poena više").
    units: Mapping[str, Text] = field(default_factory=dict)

    def margin_of(self, unit: str | None) -> Margin | None:
        return self.margins.get(unit)


UNITS = {
    "points": Text("poena", "points"),
    "chips": Text("žetona", "chips"),
    "tricks": Text("štiha", "tricks"),
}
