"""Dealing the cards a seat has not seen to the places that may hold them.

A *holder* is an index into the list of hands (a seat, or preferans' pile of two). Cards
are placed most-constrained first, each to a holder that may hold it, chosen with weight
proportional to the room that holder has left.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence


def placement_order(unknown: list[int], holders: Sequence[int],
                    forbidden: Mapping[int, int] | Sequence[int]) -> tuple[list[int], dict[int, list[int]]]:
    """(the unknown cards, fewest allowed holders first; the holders allowed for each card)."""
    allowed = {c: [h for h in holders if not (forbidden[h] >> c) & 1] for c in unknown}
    return sorted(unknown, key=lambda c: len(allowed[c])), allowed


def deal_weighted(order: list[int], allowed: dict[int, list[int]], room: list[int], hands: list[int],
                  rng: random.Random) -> list[int] | None:
    """One try: place the cards of ``order`` into ``hands`` (changed in place, as is
    ``room``, the cards each holder still takes); None at a dead end."""
    for c in order:
        options = [h for h in allowed[c] if room[h] > 0]
        if not options:
            return None
        pick = rng.random() * sum(room[h] for h in options)
        for h in options:
            pick -= room[h]
            if pick < 0:
                break
        room[h] -= 1
        hands[h] |= 1 << c
    return hands


def deal_with_restarts(order: list[int], allowed: dict[int, list[int]], room: list[int], hands: list[int],
                       rng: random.Random, tries: int) -> list[int] | None:
    """Up to ``tries`` tries of :func:`deal_weighted`, each from ``room`` and ``hands`` as
    given (they are not changed); None if every try met a dead end."""
    for _ in range(tries):
        out = deal_weighted(order, allowed, list(room), list(hands), rng)
        if out is not None:
            return out
    return None
