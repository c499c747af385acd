"""The rule-based player of the trick contracts and the layout (Lora's and Lórum's level
``pocetnik``), on masks.

The same rules drive the playouts of the search-based levels early in a deal, so they
look only at one seat's hand, the trick on the table and the cards already played.
"""

from __future__ import annotations

from app.games.cards import SUIT_MASKS, cards_of as _cards
from app.games.tricks.contracts import N_SEATS, Contract
from app.games.tricks.deal import PENALTY_MASKS

PENALTY_CARDS = PENALTY_MASKS


def trick_card(contract: Contract, hand: int, trick: list[int], n: int = N_SEATS) -> int:
    """The card to play in a trick contract; ``trick`` lists the cards already on the table
    (``n``: the seats at the table, 3 in Libyan Lora for three)."""
    if trick:
        led = trick[0] >> 3
        follow = hand & SUIT_MASKS[led]
        legal = follow or hand
    else:
        led, follow, legal = -1, 0, hand
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if contract is Contract.STO_VISE:
        return _take_tricks(legal, trick, follow, led, n)
    return _avoid(contract, hand, legal, trick, follow, led, n)


def _take_tricks(legal: int, trick: list[int], follow: int, led: int, n: int) -> int:
    if not trick:
        return _highest_rank(legal)
    if not follow:
        return _lowest_rank(legal)
    top = max(c for c in trick if c >> 3 == led)
    winners = follow & ~((1 << (top + 1)) - 1)
    if not winners:
        return _lowest(follow)
    if len(trick) == n - 1:
        return _lowest(winners)
    return _highest(winners)


def _avoid(contract: Contract, hand: int, legal: int, trick: list[int], follow: int, led: int, n: int) -> int:
    penalty = PENALTY_CARDS[contract]
    if not trick:
        safe = legal & ~penalty or legal
        return _lowest_rank(safe)
    if not follow:  # discard: the penalty card first, else the highest card
        dump = legal & penalty
        return _highest_rank(dump or legal)
    top = max(c for c in trick if c >> 3 == led)
    under = follow & ((1 << top) - 1)
    if under:
        return _highest(under)
    if len(trick) == n - 1:  # the trick is mine anyway: win it with a high safe card
        return _highest(follow & ~penalty or follow)
    return _lowest(follow & ~penalty or follow)


def layout_card(hand: int, playable: int, start_rank: int | None) -> int:
    """The card to play in contract 7: keep my own runs going, open with my commonest rank."""
    if start_rank is None:
        counts = [sum((hand >> (s * 8 + r)) & 1 for s in range(4)) for r in range(8)]
        best_rank = max(range(8), key=lambda r: (counts[r], -r))
        for s in range(4):
            c = s * 8 + best_rank
            if (hand >> c) & 1:
                return c
    best, best_score = -1, -1
    m = playable
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        run, x = 0, c
        while True:  # how many of the following cards of this row I hold
            x = (x & ~7) | (((x & 7) + 1) & 7)
            if start_rank is not None and (x & 7) == start_rank or not (hand >> x) & 1:
                break
            run += 1
        if run > best_score:
            best, best_score = c, run
    return best


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def _lowest_rank(mask: int) -> int:
    return min(_cards(mask), key=lambda c: (c & 7, c))


def _highest_rank(mask: int) -> int:
    return max(_cards(mask), key=lambda c: (c & 7, c))
