"""PIMC (perfect-information Monte Carlo), as the trick games' search levels play it: deal
the unseen cards many times consistently with what the seat has seen, value every legal
card on each deal with all cards open, and play the card with the best average. A game's
bot says how a deal is drawn and how a card is valued exactly (few cards left) or by
rule-based playouts (early in a deal, where the exact search would be too slow)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.ai.common.search import SearchAborted
from app.ai.tricks.knowledge import TrickKnowledge


def decision_rng(seed: int | str | None, view: dict[str, Any]) -> random.Random:
    """A generator that depends on the bot's seed and the decision only, not on history."""
    return random.Random(f"{seed}:{view.get('deal_index')}:{view.get('version')}:{view.get('seat')}")


@dataclass(frozen=True)
class SearchLevel:
    samples: int  # deals of the unseen cards per decision, at most
    min_samples: int  # ... at least, whatever the node budget says
    exact_cards: int  # solve trick contracts exactly once at most this many cards are in hands
    trick_nodes: int  # node budget of the exact trick search per decision
    playouts: int  # rule-based playouts per card early in a trick contract
    layout_nodes: int  # node budget of the layout search per decision


class PimcBot:
    """A search level's player; a game's subclass draws the worlds and values the cards."""

    def __init__(self, level: SearchLevel, seed: int | str | None = None):
        self.level = level
        self.seed = seed

    def deal_world(self, know: Any, rng: random.Random) -> Any:
        """One deal of the hidden cards to decide on."""
        raise NotImplementedError

    def _exact_trick_totals(self, know: Any, cards: list[int], rng: random.Random) -> dict[int, float]:
        """Average exact values; raises SearchAborted if too few samples fit the budget."""
        raise NotImplementedError

    def _playout_totals(self, know: Any, cards: list[int], rng: random.Random) -> dict[int, float]:
        raise NotImplementedError

    def _trick_totals(self, know: TrickKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:
        in_hands = sum(know.hand_sizes)
        if in_hands <= self.level.exact_cards:
            try:
                return self._exact_trick_totals(know, cards, rng)
            except SearchAborted:
                pass
        return self._playout_totals(know, cards, rng)

    def _solved_totals(
        self, know: Any, cards: list[int], rng: random.Random, budget: int,
        solve: Callable[[Any, int], tuple[dict[int, int], int]], need_min_samples: bool,
    ) -> tuple[dict[int, float], int]:
        """(the sum of each card's exact value over sampled deals, how many deals were
        solved). Deals are drawn until ``level.samples``, or until the nodes spent reach
        ``budget`` once ``level.min_samples`` are done; ``solve(world, node_limit)`` gives
        (values, nodes) and may abort with SearchAborted, which ends the sampling, or
        with ``need_min_samples`` is raised while fewer than the minimum were done."""
        level = self.level
        hard_cap = budget * 3 // 2
        totals = dict.fromkeys(cards, 0.0)
        nodes = 0
        done = 0
        for i in range(level.samples):
            if i >= level.min_samples and nodes >= budget:
                break
            world = self.deal_world(know, rng)
            try:
                values, used = solve(world, hard_cap - nodes)
            except SearchAborted:
                if need_min_samples and i < level.min_samples:
                    raise
                break
            nodes += used
            done += 1
            for c in cards:
                totals[c] += values[c]
        return totals, done
