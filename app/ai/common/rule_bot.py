"""The frame of a rule-based card player: it reads its seat's view and picks a card."""

from __future__ import annotations

from typing import Any

from app.games.cards import CARD_NAMES


class CardRuleBot:
    """Says the only legal word at once; otherwise the card ``card`` picks by its rules,
    or the first legal word if that card is not legal (the rules never look further)."""

    def __init__(self, seed: int | str | None = None):
        self.seed = seed

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        word = CARD_NAMES[self.card(view, legal)]
        return word if word in legal else legal[0]

    def card(self, view: dict[str, Any], legal: list[str]) -> int:
        raise NotImplementedError
