"""Open-cards values of a Lora decision, for the replay's analysis (:mod:`app.analysis`).

The values are the ``majstor`` bot's (:class:`~app.ai.lora.bots.LoraSearchBot`) on one
deal of the hidden cards, the true one (:class:`~app.ai.lora.oracle.LoraOracle`): the
exact trick search late in a trick contract, rule-based playouts early in it, the layout
search in contract 7, each contract with its own points (house rules, Libyan Lora with
its bets and kitty). A value is the seat's cost from there on: its points, lower is
better (minus its points where the highest total wins), so only the differences between
the cards of one decision mean something.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.games.cards import CARD_BY_NAME
from app.games.lora import LoraPartie
from app.games.tricks.contracts import Contract

from app.ai.lora.betting import is_kitty_word
from app.ai.lora.knowledge import LoraKnowledge, read_view
from app.ai.lora.oracle import LoraOracle
from app.ai.tricks.pimc import decision_rng
from app.ai.tricks.sampler import World

Solve = Callable[[World, int], tuple[dict[int, int], int]]


class _Analyst(LoraOracle):
    """The oracle, noting whether its last search finished: when the layout search does
    not fit its budget the bot falls back on its rule, whose 0/1 values are no points."""

    searched = True

    def _solved_totals(self, know: LoraKnowledge, cards: list[int], rng: random.Random, budget: int,
                       solve: Solve, need_min_samples: bool) -> tuple[dict[int, float], int]:
        totals, done = super()._solved_totals(know, cards, rng, budget, solve, need_min_samples)
        self.searched = done > 0
        return totals, done

    def kitty_totals(self, know: LoraKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:
        """The dealer's cost of each card he may play for the kitty (three-seat Libyan layout),
        by the layout search the bot decides it with."""
        def solve(world: World, limit: int) -> tuple[dict[int, int], int]:
            hands, kitty = world
            solver = self._layout_solver(know, limit)
            return solver.kitty_values(hands, know.next_cards, kitty), solver.nodes

        totals, _ = self._solved_totals(know, cards, rng, self.level.layout_nodes, solve, need_min_samples=False)
        return totals


def open_values(partie: LoraPartie, seat: int, legal: list[str], said: str | None = None) -> dict[str, float] | None:
    """Each legal word's value for ``seat`` now, every hand open (lower is better); None for
    a decision that is not a card (the contract chosen, a prediction, a bet) or one the
    search cannot value (a layout too big for its budget)."""
    kitty = is_kitty_word(legal)
    names = [w.split()[1] for w in legal] if kitty else legal
    if len(legal) < 2 or not all(n in CARD_BY_NAME for n in names):
        return None  # no choice, or no card: the contract chosen, a prediction, a bet
    cards = [CARD_BY_NAME[n] for n in names]
    view: dict[str, Any] = partie.view(seat)
    know = read_view(view)
    oracle = _Analyst(partie)
    rng = decision_rng(None, view)
    if kitty:
        totals = oracle.kitty_totals(know, cards, rng)
    elif know.contract is Contract.LORA:
        totals = oracle._layout_totals(know, cards, rng)
    else:
        totals = oracle._trick_totals(know, cards, rng)
    if not oracle.searched:
        return None
    return {word: float(totals[c]) for word, c in zip(legal, cards)}
