"""The Lora computer players: ``pocetnik`` (rules) and the search levels (PIMC).

PIMC (perfect-information Monte Carlo): deal the unseen cards many times consistently
with what the seat has seen, value every legal card on each deal with all cards open,
and play the card with the best average. Late in a trick contract, and in the layout,
the open-cards values are exact; early in a trick contract they come from rule-based
playouts, because the exact search would be too slow there.

Libyan Lora (three or four seats, a kitty, bets) is valued by its own points and the
bets that touch the seat (``libyan.py``, ``libyan_solver.py``, the layout search's
kitty place); its bets and the kitty's card are decided in ``betting.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.games.cards import CARD_BY_NAME, CARD_NAMES, mask_of
from app.games.tricks.contracts import Contract
from app.games.lora.klub_options import club_points

from app.ai.common.rule_bot import CardRuleBot
from app.ai.lora.betting import is_bet_word, is_kitty_word, rule_bet_word, rule_kitty_word, search_bet_word
from app.ai.lora.house_choices import choose_contract, predict
from app.ai.lora.knowledge import LoraKnowledge, read_view
from app.ai.lora.layout_solver import LayoutSolver
from app.ai.lora.libyan import LibyanPlayout, bet_targets, thumb_contract
from app.ai.lora.libyan_solver import LibyanSolver
from app.ai.tricks.pimc import PimcBot, SearchLevel, decision_rng
from app.ai.tricks.playout import playout_value
from app.ai.tricks.rule_solver import RuleSolver
from app.ai.tricks.rules import layout_card, trick_card
from app.ai.tricks.sampler import World, sample_world
from app.ai.tricks.trick_solver import TrickSolver, herc_context

HAND_PLACES = 4  # the trick searches take four hand masks (a three-seat table's fourth is empty)


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


def padded(hands: list[int]) -> list[int]:
    """Four hand masks for the trick searches (empty ones after a three-seat table's)."""
    return list(hands) + [0] * (HAND_PLACES - len(hands))


def thumb(know: LoraKnowledge) -> Contract:
    """The Club contract whose rules of thumb this seat follows now."""
    rule = know.libyan
    if rule is None:
        return know.contract
    return thumb_contract(rule, know.trick_counts[know.seat], bet_targets(know)[know.seat])


class LoraRuleBot(CardRuleBot):
    """Level ``pocetnik``: plays by a few rules of thumb, with no lookahead."""

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if len(legal) > 1:
            word = house_word(view, legal, 0, decision_rng(self.seed, view))
            if word is not None:
                return word
            if is_bet_word(legal):
                know = read_view(view)
                assert know.libyan is not None
                return rule_bet_word(legal, know.libyan, know.hand)
            if is_kitty_word(legal):
                return rule_kitty_word(read_view(view), legal)
        return super().choose(view, legal)

    def card(self, view: dict[str, Any], legal: list[str]) -> int:
        know = read_view(view)
        if know.contract is Contract.LORA:
            return layout_card(know.hand, know.hand & know.next_cards, know.start_rank)
        return trick_card(thumb(know), know.hand, [x for _, x in know.trick], know.n)


@dataclass(frozen=True)
class LoraLevel(SearchLevel):
    """A search level with Libyan Lora's bets (opklade)."""

    bet_samples: int = 0  # simulated deals per bet decision
    bet_inner: int = 0  # ... per world, from the other side's seat, when answering a bet
    bet_edge: float = 0.3  # bet when P(true) - P(false) is at least this


ISKUSAN = LoraLevel(samples=10, min_samples=4, exact_cards=12, trick_nodes=1_500, playouts=8, layout_nodes=20_000,
                      bet_samples=16, bet_inner=6, bet_edge=0.3)
# majstor values by rule-based playouts until 12 cards are left: measured stronger than an
# earlier exact search (20 or 24 cards), whose paranoid opponents on sampled deals duck
# too much (docs/performance.md, issue 16)
MAJSTOR = LoraLevel(samples=40, min_samples=8, exact_cards=12, trick_nodes=4_000, playouts=64, layout_nodes=100_000,
                      bet_samples=48, bet_inner=12, bet_edge=0.2)


class LoraSearchBot(PimcBot):
    """Levels ``iskusan`` and ``majstor``: PIMC over open-cards search."""

    level: LoraLevel

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self.seed, view)
        word = house_word(view, legal, self.level.min_samples, rng)
        if word is not None:
            return word
        know = read_view(view)
        if is_bet_word(legal):
            level = self.level
            return search_bet_word(view, legal, know, lambda: self.deal_world(know, rng),
                                   max(1, level.bet_samples), max(1, level.bet_inner), level.bet_edge, rng)
        if is_kitty_word(legal):
            return self._kitty_word(know, legal, rng)
        cards = [CARD_BY_NAME[w] for w in legal]
        if know.contract is Contract.LORA:
            totals = self._layout_totals(know, cards, rng)
        else:
            totals = self._trick_totals(know, cards, rng)
        best = min(cards, key=lambda c: (totals[c], c))
        return CARD_NAMES[best]

    # -- trick contracts ------------------------------------------------------

    def deal_world(self, know: LoraKnowledge, rng: random.Random) -> World:
        """One deal of the hidden cards to decide on: the hands and the kitty."""
        return sample_world(know, rng)

    def _exact_trick_totals(self, know: LoraKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:
        """Average exact values; raises SearchAborted if too few samples fit the budget."""
        ctx = herc_context(know.seat, know.taken)

        def solve(world: World, limit: int) -> tuple[dict[int, int], int]:
            hands, kitty = world
            if know.libyan is not None:  # its own points, bets and kitty, on three or four seats
                libyan = LibyanSolver(know, kitty, node_limit=limit)
                return libyan.move_values(padded(hands), know.trick), libyan.nodes
            # a house contract is searched with its own points, the Club's by the fast solver
            solver = TrickSolver(know.contract, know.seat, node_limit=limit) if club_scored(know) \
                else RuleSolver(know, node_limit=limit)
            return solver.move_values(hands, know.trick, ctx), solver.nodes

        totals, _ = self._solved_totals(know, cards, rng, self.level.trick_nodes, solve, need_min_samples=True)
        return totals

    def _playout_totals(self, know: LoraKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:
        totals = dict.fromkeys(cards, 0.0)
        for _ in range(self.level.playouts):
            hands, kitty = self.deal_world(know, rng)
            if know.libyan is not None:
                playout = LibyanPlayout(know, kitty)
                for c in cards:
                    totals[c] += playout.value(hands, know.trick, c)
                continue
            for c in cards:
                totals[c] += playout_value(know.contract, know.seat, hands, know.trick, c, know.taken)
        return totals

    # -- the layout -----------------------------------------------------------

    def _layout_solver(self, know: LoraKnowledge, limit: int) -> LayoutSolver:
        if know.rule is None:
            return LayoutSolver(know.seat, know.start_rank, node_limit=limit)
        if know.libyan is None:  # the house rule's own layout line (a dalje may cost, the first out may gain)
            return LayoutSolver(know.seat, know.start_rank, limit, know.rule.layout, know.passes, know.sign)
        # Libyan: its line, the doubling, the bets and, with three seats, the kitty's place
        return LayoutSolver(know.seat, know.start_rank, limit, know.rule.layout, know.passes, know.sign,
                            know.n, know.dealer if know.kitty_place else None, True, know.bets)

    def _layout_totals(self, know: LoraKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:
        def solve(world: World, limit: int) -> tuple[dict[int, int], int]:
            hands, kitty = world
            solver = self._layout_solver(know, limit)
            return solver.move_values(hands, know.next_cards, kitty), solver.nodes

        totals, done = self._solved_totals(know, cards, rng, self.level.layout_nodes, solve, need_min_samples=False)
        if not done:  # too big to search: the rules decide
            rule = layout_card(know.hand, know.hand & know.next_cards, know.start_rank)
            return {c: (0.0 if c == rule else 1.0) for c in cards}
        return totals

    def _kitty_word(self, know: LoraKnowledge, legal: list[str], rng: random.Random) -> str:
        """The kitty's card (three-seat Libyan layout): the one the layout search values best
        for me, the dealer; by the rule when the search is too big."""
        cards = [CARD_BY_NAME[w.split()[1]] for w in legal]

        def solve(world: World, limit: int) -> tuple[dict[int, int], int]:
            hands, kitty = world
            solver = self._layout_solver(know, limit)
            return solver.kitty_values(hands, know.next_cards, kitty), solver.nodes

        totals, done = self._solved_totals(know, cards, rng, self.level.layout_nodes, solve, need_min_samples=False)
        if not done:
            return rule_kitty_word(know, legal)
        best = min(cards, key=lambda c: (totals[c], c))
        return f"{legal[0].split()[0]} {CARD_NAMES[best]}"
