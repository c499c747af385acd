"""The rule-based Lórum player: Lora's rules of thumb where the play is Lora's (tricks,
the domino layout), and run-keeping for Kvart and Fast train. It reads only its seat's
view and the legal words."""

from __future__ import annotations

from typing import Any

from app.ai.common.rule_bot import CardRuleBot
from app.ai.tricks.rules import layout_card, trick_card
from app.games.cards import CARD_BY_NAME, mask_of
from app.games.tricks.contracts import Contract
from app.games.lorum.contracts import LorumContract, contract_named

# The Lora contract whose avoidance rules fit each Lórum trick contract.
TRICK_RULES = {
    LorumContract.HEARTS: Contract.HERC,
    LorumContract.OBERS: Contract.DAME,
    LorumContract.NO_TRICKS: Contract.STO_MANJE,
    LorumContract.HAIRY_MONKEY: Contract.KING_AND_LAST,
    LorumContract.MAKK: Contract.KING_AND_LAST,  # K herc and the last trick pay; J tref pays across
}
# 101's card values (rulings V13), by rank 7 8 9 T J Q K A.
PILE_VALUES = (0, 0, 0, 10, 2, 3, 4, 11)
LIMIT_101 = 101


def pile_card(hand: int, total: int) -> int:
    """101, one move ahead: the highest card that keeps the total under 101 (the next
    players come nearer to it, and my cards worth 0 stay for when it is high); with no
    such card, the one worth least."""
    cards = [c for c in range(32) if (hand >> c) & 1]
    safe = [c for c in cards if total + PILE_VALUES[c & 7] < LIMIT_101]
    if not safe:
        return min(cards, key=lambda c: (PILE_VALUES[c & 7], c))
    return max(safe, key=lambda c: (PILE_VALUES[c & 7], c))


def following(c: int) -> int:
    """The next card of the same suit, A followed by 7."""
    return (c & ~7) | (((c & 7) + 1) & 7)


def run_length(c: int, hand: int, cap: int = 8) -> int:
    """How many cards from ``c`` upwards in its suit I hold in a row (``c`` included)."""
    n, x = 0, c
    while n < cap and (hand >> x) & 1:
        n += 1
        x = following(x)
    return n


def kvart_start(hand: int) -> int:
    """Open the chain I can carry furthest myself (up to four cards), lowest rank first."""
    cards = [c for c in range(32) if (hand >> c) & 1]
    return max(cards, key=lambda c: (run_length(c, hand, 4), -(c & 7), -c))


def train_start(hand: int) -> int:
    """Open the Fast train with a rank I hold many of: the train comes back to it."""
    counts = [sum((hand >> (s * 8 + r)) & 1 for s in range(4)) for r in range(8)]
    cards = [c for c in range(32) if (hand >> c) & 1]
    return max(cards, key=lambda c: (counts[c & 7], -(c & 7), -c))


class LorumRuleBot(CardRuleBot):
    """Level ``pocetnik`` (and, for now, every level) for Lórum."""

    def card(self, view: dict[str, Any], legal: list[str]) -> int:
        deal = view["deal"]
        contract = contract_named(deal["contract"])
        hand = mask_of(CARD_BY_NAME[w] for w in deal["hand"])
        playable = mask_of(CARD_BY_NAME[w] for w in legal if w in CARD_BY_NAME)
        if contract in TRICK_RULES:
            return trick_card(TRICK_RULES[contract], hand, [CARD_BY_NAME[w] for _, w in deal["trick"]])
        if contract is LorumContract.DOMINO:
            start = deal.get("start_rank")
            return layout_card(hand, playable, None if start is None else "789TJQKA".index(start))
        if contract is LorumContract.KVART:
            return kvart_start(playable)
        if contract is LorumContract.STO_JEDAN:
            return pile_card(playable, int(deal.get("total") or 0))
        return train_start(playable)
