"""The rule-based Lórum player: Lora's rules of thumb where the play is Lora's (tricks,
the domino layout), and run-keeping for Kvart and Fast train. It reads only its seat's
view and the legal words."""

from __future__ import annotations

from typing import Any

from app.ai.common.rule_bot import CardRuleBot
from app.ai.lora.rules import layout_card, trick_card
from app.games.cards import CARD_BY_NAME, mask_of
from app.games.lora.contracts import Contract
from app.games.lorum.contracts import LorumContract

# The Lora contract whose avoidance rules fit each Lórum trick contract.
TRICK_RULES = {
    LorumContract.HEARTS: Contract.HERC,
    LorumContract.OBERS: Contract.DAME,
    LorumContract.NO_TRICKS: Contract.STO_MANJE,
    LorumContract.HAIRY_MONKEY: Contract.KING_AND_LAST,
}


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
        contract = LorumContract(deal["contract"])
        hand = mask_of(CARD_BY_NAME[w] for w in deal["hand"])
        playable = mask_of(CARD_BY_NAME[w] for w in legal if w in CARD_BY_NAME)
        if contract in TRICK_RULES:
            return trick_card(TRICK_RULES[contract], hand, [CARD_BY_NAME[w] for _, w in deal["trick"]])
        if contract is LorumContract.DOMINO:
            start = deal.get("start_rank")
            return layout_card(hand, playable, None if start is None else "789TJQKA".index(start))
        if contract is LorumContract.KVART:
            return kvart_start(playable)
        return train_start(playable)
