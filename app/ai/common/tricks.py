"""Tricks on card numbers (``suit * 8 + rank``, see ``app.games.cards``), for the players'
searches and playouts: the legal cards and the winner of a trick."""

from __future__ import annotations

from app.games.cards import legal_mask


def legal_cards(hand: int, cards: list[int], trump: int | None = None) -> int:
    """The cards of ``hand`` that may go on the trick ``cards`` (the engines' rule)."""
    return legal_mask(hand, cards[0] if cards else None, trump)


def winner_index(cards: list[int], trump: int | None = None) -> int:
    """The index in ``cards`` (in playing order) of the card that takes the trick: the
    highest trump, else the highest card of the led suit."""
    best_i, best = 0, cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if c >> 3 == best >> 3:
            if c > best:
                best_i, best = i, c
        elif trump is not None and c >> 3 == trump:
            best_i, best = i, c
    return best_i
