"""Libyan Lora's bets (``opklade``, rulings V12) and the kitty's card in the three-seat
layout (V11), for the computer players.

The search levels decide a bet by simulation: the unseen cards are dealt many times
consistently with what the seat has seen, each world is played to the end on the
engine's own deal by the rules of thumb in every seat (a seat with a bet playing for
it), and the seat's count (hearts, queens, tricks, the 6th / 8th trick, its own dalje)
is read off. A bet that comes true gives -10 and a false one +10 (doubled by kontra,
again by rekontra; a void deal voids it), so ``kladim N`` is said for the N whose
chance of coming true beats its chance of failing by the level's margin.

The answers weigh each world by what the other side's word says about his hand: the
bettor said ``kladim N`` because his hand made N likely, the kontra-sayer because his
made it unlikely. So in each of my worlds the other side's own chance is estimated from
his hand there (a smaller simulation from his seat), and the world counts as much as
that chance says he would have spoken so. An opponent says ``kontra`` when the bet is
clearly unlikely over the weighted worlds, the bettor ``rekontra`` when clearly likely.

The rule-based level (``pocetnik``) bets only on a hand without high cards (nothing
taken: ``kladim 0``) and on not winning the 6th trick with few high cards; he never
says kontra or rekontra. The kitty's card is the one that opens my own longest run.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from app.games.cards import ACE, JACK, KING, QUEEN, CARD_NAMES, cards_of
from app.games.lora.bets import DA, KLADIM, KONTRA, MOZE, NE, NE_KLADIM, REKONTRA, Bet
from app.games.tricks.deal import DALJE, Deal
from app.games.lora.house import HouseTable
from app.games.lora.libijska import KITTY, LibyanLayoutDeal, LibyanRule, LibyanTrickDeal

from app.ai.lora.knowledge import LoraKnowledge
from app.ai.lora.libyan import bet_targets, thumb_contract
from app.ai.tricks.rules import layout_card, trick_card
from app.ai.tricks.sampler import World, sample_world

ANSWERS = (KONTRA, REKONTRA, MOZE)
KONTRA_EDGE = 0.3  # kontra when P(false) - P(true) >= this over the weighted worlds
REKONTRA_EDGE = 0.3  # rekontra when P(true) - P(false) >= this
WEIGHT_FLOOR = 0.05  # a world the other side's word makes unlikely still counts a little
HIGH_RANKS = (JACK, QUEEN, KING, ACE)

Outcome = list[int] | None  # every seat's count at the end of a simulated deal; None: void


def is_bet_word(legal: list[str]) -> bool:
    """Is this a decision of the bet round (a bet, or an answer to one)?"""
    first = legal[0]
    return first.startswith(KLADIM) or first == NE_KLADIM or first in ANSWERS


def is_kitty_word(legal: list[str]) -> bool:
    return legal[0].startswith(KITTY + " ")


def target_of(word: str) -> int | bool:
    """The target of ``kladim N`` / ``kladim da`` / ``kladim ne``."""
    value = word.split()[1]
    return value == DA if value in (DA, NE) else int(value)


def came_true(outcome: Outcome, seat: int, target: int | bool) -> bool | None:
    """Did ``seat``'s bet on ``target`` come true in a simulated deal (None: void)?"""
    if outcome is None:
        return None
    return Bet(seat, target).points(outcome[seat], len(outcome))[seat] < 0


def chances(outcomes: list[Outcome], seat: int, target: int | bool) -> tuple[float, float]:
    """(P(true), P(false)) of ``seat``'s bet on ``target`` over the simulated deals."""
    results = [came_true(o, seat, target) for o in outcomes]
    n = len(results) or 1
    return sum(1 for r in results if r is True) / n, sum(1 for r in results if r is False) / n


# -- simulation ----------------------------------------------------------------------


class Simulator:
    """Plays worlds of this deal to the end on the engine's deal, by the rules of thumb."""

    def __init__(self, view: dict[str, Any], know: LoraKnowledge):
        deal_view = view["deal"]
        table = HouseTable({k: v for k, v in deal_view["settings"].items() if k != "opklade"})
        rule = table.rules[deal_view["contract"]]
        assert isinstance(rule, LibyanRule) and rule.counts is not None
        self.table = table
        self.rule = rule
        self.first = deal_view["first"]
        self.targets = bet_targets(know)  # the bets said so far are public

    def outcome(self, world: World) -> Outcome:
        """Every seat's count at the end of this world's deal (None: void)."""
        hands, kitty = world
        deal = self.table.contract_deal(self.rule.code, [cards_of(h) for h in hands], self.first, cards_of(kitty))
        play_by_rules(deal, self.rule, self.targets)
        assert self.rule.counts is not None
        return None if deal.void else self.rule.counts(deal)

    def outcomes(self, worlds: Callable[[], World], samples: int) -> list[Outcome]:
        return [self.outcome(worlds()) for _ in range(samples)]


def play_by_rules(deal: Deal, rule: LibyanRule, targets: list[int | bool | None]) -> None:
    """Every seat plays by the rules of thumb until the deal ends (the dealer picks the
    kitty's card by :func:`kitty_card`)."""
    while not deal.ended:
        seat = deal.turn
        if isinstance(deal, LibyanLayoutDeal):
            if deal.kitty_turn:
                c = kitty_card(deal.hands[seat], deal.kitty & deal.next_cards, deal.start_rank)
                deal.say(seat, f"{KITTY} {CARD_NAMES[c] if c >= 0 else DALJE}")
                continue
            legal = deal.legal_mask(seat)
            if not legal:
                deal.say(seat, DALJE)
            else:
                deal.play(seat, layout_card(deal.hands[seat], legal, deal.start_rank))
        else:
            assert isinstance(deal, LibyanTrickDeal)
            contract = thumb_contract(rule, deal.trick_counts[seat], targets[seat])
            deal.play(seat, trick_card(contract, deal.hands[seat], [c for _, c in deal.trick], deal.n))


# -- the words -------------------------------------------------------------------------


def choose_bet(legal: list[str], outcomes: list[Outcome], seat: int, edge: float) -> str:
    """``kladim ...`` on the target most likely to come true, if its chance beats its
    chance of failing by ``edge``; else ``ne kladim``."""
    best_word, best_gain = NE_KLADIM, edge
    for word in legal:
        if word == NE_KLADIM:
            continue
        p_true, p_false = chances(outcomes, seat, target_of(word))
        if p_true - p_false >= best_gain:
            best_word, best_gain = word, p_true - p_false
    return best_word


def answer(legal: list[str], p_true: float, p_false: float) -> str:
    """``kontra`` to an unlikely bet, ``rekontra`` to a kontra on a likely one of mine, else ``moze``."""
    if KONTRA in legal and p_false - p_true >= KONTRA_EDGE:
        return KONTRA
    if REKONTRA in legal and p_true - p_false >= REKONTRA_EDGE:
        return REKONTRA
    return MOZE


def seat_knowledge(know: LoraKnowledge, seat: int, hand: int) -> LoraKnowledge:
    """What ``seat`` knows in the bet round when he holds ``hand`` (the rest is public)."""
    return dataclasses.replace(know, seat=seat, hand=hand, forbidden=[0] * know.n)


def weighted_chances(view: dict[str, Any], know: LoraKnowledge, worlds: Callable[[], World], samples: int,
                     inner: int, bet: Bet, judge: int, rng: random.Random) -> tuple[float, float]:
    """(P(true), P(false)) of ``bet`` over my worlds, each weighted by how well it fits the
    word ``judge`` said: the bettor's ``kladim`` (his own chance of it coming true, less
    his chance of it failing) or the kontra-sayer's ``kontra`` (the reverse)."""
    sign = 1 if judge == bet.seat else -1
    simulator = Simulator(view, know)
    weight_true = weight_false = total = 0.0
    for _ in range(samples):
        world = worlds()
        outcome = simulator.outcome(world)
        theirs = seat_knowledge(know, judge, world[0][judge])
        j_true, j_false = chances(simulator.outcomes(lambda: sample_world(theirs, rng), inner), bet.seat, bet.target)
        weight = max(sign * (j_true - j_false), 0.0) + WEIGHT_FLOOR
        total += weight
        result = came_true(outcome, bet.seat, bet.target)
        if result is True:
            weight_true += weight
        elif result is False:
            weight_false += weight
    return weight_true / total, weight_false / total


def bet_under_answer(view: dict[str, Any], know: LoraKnowledge) -> Bet:
    """The bet whose answers are being said (the round answers bets in the order said)."""
    n = know.n
    first = view["deal"]["first"]
    bets = sorted(know.bets, key=lambda b: (b.seat - first) % n)
    index = answered = 0
    kontra = False
    for _, word in view["deal"]["actions"]:
        if word not in ANSWERS:
            continue
        if kontra:  # the bettor's answer to the kontra closes this bet
            index, answered, kontra = index + 1, 0, False
        elif word == KONTRA:
            kontra = True
        else:
            answered += 1
            if answered == n - 1:
                index, answered = index + 1, 0
    return bets[index]


def search_bet_word(view: dict[str, Any], legal: list[str], know: LoraKnowledge, worlds: Callable[[], World],
                    samples: int, inner: int, edge: float, rng: random.Random) -> str:
    """The search levels' word in the bet round: ``samples`` worlds (each judged by the
    other side's ``inner`` simulations when answering a bet)."""
    if legal[0] in ANSWERS:
        bet = bet_under_answer(view, know)
        judge = bet.seat if bet.seat != know.seat else bet.kontra_by
        assert judge is not None
        return answer(legal, *weighted_chances(view, know, worlds, samples, inner, bet, judge, rng))
    return choose_bet(legal, Simulator(view, know).outcomes(worlds, samples), know.seat, edge)


def rule_bet_word(legal: list[str], rule: LibyanRule, hand: int) -> str:
    """pocetnik's word in the bet round."""
    if legal[0] in ANSWERS:
        return MOZE
    high = sum(1 for c in cards_of(hand) if c & 7 in HIGH_RANKS)
    tops = sum(1 for c in cards_of(hand) if c & 7 in (ACE, KING))
    queens = sum(1 for c in cards_of(hand) if c & 7 == QUEEN)
    word = NE_KLADIM
    if rule.code in ("herc", "stihovi") and not high:
        word = f"{KLADIM} 0"
    elif rule.code == "dame" and not queens and not tops:
        word = f"{KLADIM} 0"
    elif rule.code == "sesti" and tops <= 1:
        word = f"{KLADIM} {NE}"
    return word if word in legal else NE_KLADIM


def kitty_card(hand: int, playable: int, start_rank: int | None) -> int:
    """The kitty's card the dealer plays: the one that opens his own longest run (-1: none)."""
    if not playable:
        return -1
    return layout_card(hand, playable, start_rank)


def rule_kitty_word(know: LoraKnowledge, legal: list[str]) -> str:
    c = kitty_card(know.hand, know.kitty & know.next_cards, know.start_rank)
    word = f"{KITTY} {CARD_NAMES[c]}" if c >= 0 else f"{KITTY} {DALJE}"
    return word if word in legal else legal[0]
