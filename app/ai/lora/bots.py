"""The Lora computer players: ``pocetnik`` (rules) and the search levels (PIMC).

PIMC (perfect-information Monte Carlo): deal the unseen cards many times consistently
with what the seat has seen, value every legal card on each deal with all cards open,
and play the card with the best average. Late in a trick contract, and in the layout,
the open-cards values are exact; early in a trick contract they come from rule-based
playouts, because the exact search would be too slow there.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.games.cards import CARD_BY_NAME, CARD_NAMES, mask_of
from app.games.lora.contracts import Contract
from app.games.lora.klub_options import club_points

from app.ai.common.rule_bot import CardRuleBot
from app.ai.common.search import SearchAborted
from app.ai.lora.house_choices import choose_contract, predict
from app.ai.lora.house_solver import RuleSolver
from app.ai.lora.knowledge import LoraKnowledge, read_view
from app.ai.lora.layout_solver import LayoutSolver
from app.ai.lora.playout import playout_value
from app.ai.lora.rules import layout_card, trick_card
from app.ai.lora.sampler import sample_hands
from app.ai.lora.trick_solver import TrickSolver, herc_context


def decision_rng(seed: int | str | None, view: dict[str, Any]) -> random.Random:
    """A generator that depends on the bot's seed and the decision only, not on history."""
    return random.Random(f"{seed}:{view.get('deal_index')}:{view.get('version')}:{view.get('seat')}")


def club_scored(know: LoraKnowledge) -> bool:
    """Is the deal scored as the Club's own contract (also under klub options)?"""
    return know.rule is None or know.rule.score is club_points


def house_word(view: dict[str, Any], legal: list[str], samples: int, rng: random.Random) -> str | None:
    """The word of a house-rules decision that is not a card (None: a card is due)."""
    first = legal[0]
    if first.startswith("ugovor "):
        return f"ugovor {choose_contract(view, hand_knowledge(view), samples, rng)}"
    if first.startswith("prognoza "):
        return f"prognoza {predict(view, hand_knowledge(view), samples, rng)}"
    return None


def hand_knowledge(view: dict[str, Any]) -> LoraKnowledge:
    """What a seat knows before the first card: his hand only."""
    deal = view["deal"]
    hand = mask_of(CARD_BY_NAME[w] for w in deal["hand"])
    return LoraKnowledge(seat=view["seat"], contract=Contract.STO_VISE, hand=hand,
                         hand_sizes=list(deal["hand_sizes"]), turn=view["seat"])


class LoraRuleBot(CardRuleBot):
    """Level ``pocetnik``: plays by a few rules of thumb, with no lookahead."""

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if len(legal) > 1:
            word = house_word(view, legal, 0, decision_rng(self.seed, view))
            if word is not None:
                return word
        return super().choose(view, legal)

    def card(self, view: dict[str, Any], legal: list[str]) -> int:
        know = read_view(view)
        if know.contract is Contract.LORA:
            return layout_card(know.hand, know.hand & know.next_cards, know.start_rank)
        return trick_card(know.contract, know.hand, [x for _, x in know.trick])


@dataclass(frozen=True)
class SearchLevel:
    samples: int  # deals of the unseen cards per decision, at most
    min_samples: int  # ... at least, whatever the node budget says
    exact_cards: int  # solve trick contracts exactly once at most this many cards are in hands
    trick_nodes: int  # node budget of the exact trick search per decision
    playouts: int  # rule-based playouts per card early in a trick contract
    layout_nodes: int  # node budget of the layout search per decision


ISKUSAN = SearchLevel(samples=10, min_samples=4, exact_cards=12, trick_nodes=1_500, playouts=8, layout_nodes=20_000)
MAJSTOR = SearchLevel(samples=40, min_samples=8, exact_cards=20, trick_nodes=4_000, playouts=36, layout_nodes=100_000)


class LoraSearchBot:
    """Levels ``iskusan`` and ``majstor``: PIMC over open-cards search."""

    def __init__(self, level: SearchLevel, seed: int | str | None = None):
        self.level = level
        self.seed = seed

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self.seed, view)
        word = house_word(view, legal, self.level.min_samples, rng)
        if word is not None:
            return word
        know = read_view(view)
        cards = [CARD_BY_NAME[w] for w in legal]
        if know.contract is Contract.LORA:
            totals = self._layout_totals(know, cards, rng)
        else:
            totals = self._trick_totals(know, cards, rng)
        best = min(cards, key=lambda c: (totals[c], c))
        return CARD_NAMES[best]

    # -- trick contracts ------------------------------------------------------

    def _trick_totals(self, know: LoraKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:
        in_hands = sum(know.hand_sizes)
        if in_hands <= self.level.exact_cards:
            try:
                return self._exact_trick_totals(know, cards, rng)
            except SearchAborted:
                pass
        return self._playout_totals(know, cards, rng)

    def deal_hands(self, know: LoraKnowledge, rng: random.Random) -> list[int]:
        """One deal of the hidden cards to decide on."""
        return sample_hands(know, rng)

    def _exact_trick_totals(self, know: LoraKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:
        """Average exact values; raises SearchAborted if too few samples fit the budget."""
        ctx = herc_context(know.seat, know.taken)

        def solve(hands: list[int], limit: int) -> tuple[dict[int, int], int]:
            # a house contract is searched with its own points, the Club's by the fast solver
            solver = TrickSolver(know.contract, know.seat, node_limit=limit) if club_scored(know) \
                else RuleSolver(know, node_limit=limit)
            return solver.move_values(hands, know.trick, ctx), solver.nodes

        totals, _ = self._solved_totals(know, cards, rng, self.level.trick_nodes, solve, need_min_samples=True)
        return totals

    def _solved_totals(
        self, know: LoraKnowledge, cards: list[int], rng: random.Random, budget: int,
        solve: Callable[[list[int], int], tuple[dict[int, int], int]], need_min_samples: bool,
    ) -> tuple[dict[int, float], int]:
        """(the sum of each card's exact value over sampled deals, how many deals were
        solved). Deals are drawn until ``level.samples``, or until the nodes spent reach
        ``budget`` once ``level.min_samples`` are done; ``solve(hands, node_limit)`` gives
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
            hands = self.deal_hands(know, rng)
            try:
                values, used = solve(hands, hard_cap - nodes)
            except SearchAborted:
                if need_min_samples and i < level.min_samples:
                    raise
                break
            nodes += used
            done += 1
            for c in cards:
                totals[c] += values[c]
        return totals, done

    def _playout_totals(self, know: LoraKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:
        totals = dict.fromkeys(cards, 0.0)
        for _ in range(self.level.playouts):
            hands = self.deal_hands(know, rng)
            for c in cards:
                totals[c] += playout_value(know.contract, know.seat, hands, know.trick, c, know.taken)
        return totals

    # -- the layout -----------------------------------------------------------

    def _layout_totals(self, know: LoraKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:
        def solve(hands: list[int], limit: int) -> tuple[dict[int, int], int]:
            if know.rule is None:
                solver = LayoutSolver(know.seat, know.start_rank, node_limit=limit)
            else:  # the house rule's own layout line (a dalje may cost, the first out may gain)
                solver = LayoutSolver(know.seat, know.start_rank, limit, know.rule.layout, know.passes, know.sign)
            return solver.move_values(hands, know.next_cards), solver.nodes

        totals, done = self._solved_totals(know, cards, rng, self.level.layout_nodes, solve, need_min_samples=False)
        if not done:  # too big to search: the rules decide
            rule = layout_card(know.hand, know.hand & know.next_cards, know.start_rank)
            return {c: (0.0 if c == rule else 1.0) for c in cards}
        return totals
