"""The house-rules decisions that are not cards: which contract to choose (``izbor``,
rulings V2-V3) and how many tricks to predict (``prognoza``, V9).

The search levels decide by simulation: the unseen cards are dealt many times
consistently with my hand, each candidate is played to the end by the rule-based player
in every seat on the engine's own deal, and the contract (or the count) that does best
on average is said. The rule-based level (``pocetnik``) reads its hand instead.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.cards import ACE, KING, SEVEN, EIGHT, NINE, QUEEN, HEARTS, JACK, CLUBS, SUIT_MASKS, card, cards_of
from app.games.tricks.contracts import N_SEATS, Contract
from app.games.tricks.deal import Deal, LayoutDeal
from app.games.lora.house import HouseTable
from app.games.lora.house_deals import BlindDeal, PrognozaDeal, TrickDeal

from app.ai.lora.knowledge import LoraKnowledge
from app.ai.tricks.rules import layout_card, trick_card
from app.ai.tricks.sampler import sample_hands


def rank_count(hand: int, ranks: tuple[int, ...]) -> int:
    return sum(1 for c in cards_of(hand) if c & 7 in ranks)


def predicted_tricks(hand: int) -> int:
    """pocetnik's prediction: aces, and kings of suits he holds two of."""
    kings = sum(1 for s in range(4) if (hand >> card(KING, s)) & 1 and (hand & SUIT_MASKS[s]).bit_count() >= 2)
    return rank_count(hand, (ACE,)) + kings // 2


def hand_cost(code: str, plays_like: Contract, hand: int, sign: int) -> float:
    """pocetnik's guess of a contract's cost for this hand (lower is better)."""
    high, low = rank_count(hand, (ACE, KING)), rank_count(hand, (SEVEN, EIGHT, NINE))
    guesses = {
        Contract.STO_VISE: -high * sign if sign > 0 else -high,
        Contract.STO_MANJE: -low,
        Contract.DAME: rank_count(hand, (QUEEN,)) * 2 + high - low,
        Contract.HERC: (hand & SUIT_MASKS[HEARTS]).bit_count() + high - low,
        Contract.ZANDAR_TREF: 6 if (hand >> card(JACK, CLUBS)) & 1 else high - low,
        Contract.KING_AND_LAST: 6 if (hand >> card(KING, HEARTS)) & 1 else high - low,
        Contract.LORA: -max(rank_count(hand, (r,)) for r in range(8)) * 2,
    }
    return float(guesses[plays_like])


def rule_card(deal: Deal, seat: int) -> int:
    """The rule-based player's legal card in an engine deal."""
    legal = deal.legal_mask(seat)
    hand = deal.hands[seat]
    if isinstance(deal, LayoutDeal):
        pick = layout_card(hand, legal, deal.start_rank)
    elif isinstance(deal, TrickDeal):
        pick = trick_card(deal.contract, hand, [c for _, c in deal.trick])
    else:
        pick = -1
    return pick if pick >= 0 and (legal >> pick) & 1 else (legal & -legal).bit_length() - 1


def play_to_the_end(deal: Deal) -> Deal:
    """Every seat plays by the rules until the deal ends (predictions: pocetnik's)."""
    while not deal.ended:
        seat = deal.turn
        if isinstance(deal, PrognozaDeal) and deal.predicting:
            deal.say(seat, f"prognoza {predicted_tricks(deal.hands[seat])}")
        elif not isinstance(deal, BlindDeal) and not deal.legal_mask(seat):
            deal.say(seat, "dalje")
        else:
            deal.play(seat, rule_card(deal, seat))
    return deal


def relative_cost(points: list[int], me: int, sign: int) -> float:
    """How much worse than the others' average I did (lower is better)."""
    others = sum(points[s] for s in range(N_SEATS) if s != me) / (N_SEATS - 1)
    return sign * (points[me] - others)


def choose_contract(view: dict[str, Any], know: LoraKnowledge, samples: int, rng: random.Random) -> str:
    """The code of the contract to say (``ugovor <code>``)."""
    table = HouseTable(view["deal"]["settings"])
    choices = list(view["deal"]["choices"])
    sign = -1 if table.schedule.highest_wins else 1
    me, first = know.seat, view["deal"]["first"]
    if samples <= 0:
        return min(choices, key=lambda c: hand_cost(c, table.rules[c].plays_like, know.hand, sign))
    totals = dict.fromkeys(choices, 0.0)
    for _ in range(samples):
        hands = sample_hands(know, rng)
        order = [cards_of(h) for h in hands]
        for code in choices:
            deal = play_to_the_end(table.contract_deal(code, order, first))
            assert deal.points is not None
            totals[code] += relative_cost(deal.points, me, sign)
    return min(choices, key=lambda c: (totals[c], choices.index(c)))


def predict(view: dict[str, Any], know: LoraKnowledge, samples: int, rng: random.Random) -> int:
    """How many tricks to predict in ``prognoza``."""
    if samples <= 0:
        return predicted_tricks(know.hand)
    table = HouseTable(view["deal"]["settings"])
    first = view["deal"]["first"]
    tricks = 0
    for i in range(samples):
        order = [cards_of(h) for h in sample_hands(know, rng)]
        deal = table.contract_deal("vise" if i % 2 else "manje", order, first)
        play_to_the_end(deal)
        assert isinstance(deal, TrickDeal)
        tricks += deal.trick_counts[know.seat]
    return min(8, round(tricks / samples))
