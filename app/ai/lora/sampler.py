"""Deal the unseen cards to the other seats, consistently with what the seat knows."""

from __future__ import annotations

import random

from app.games.cards import cards_of
from app.games.lora.contracts import N_SEATS

from app.ai.common.dealing import deal_with_restarts, placement_order
from app.ai.lora.knowledge import LoraKnowledge

MAX_RESTARTS = 200


class ImpossibleKnowledge(ValueError):
    """No deal of the unseen cards fits the constraints (a bug, or an inconsistent view)."""


def sample_hands(know: LoraKnowledge, rng: random.Random) -> list[int]:
    """One full set of hands (masks, in seat order): mine as I hold it, the others drawn.

    Cards are placed most-constrained first, each to an allowed seat chosen with weight
    proportional to the room it has left; a dead end restarts, and after many restarts
    an exhaustive search decides (it only happens with very tight constraints).
    """
    others = [s for s in range(N_SEATS) if s != know.seat]
    order, allowed = placement_order(cards_of(know.unknown), others, know.forbidden)
    room, hands = _start(know)
    dealt = deal_with_restarts(order, allowed, room, hands, rng, MAX_RESTARTS)
    if dealt is not None:
        return dealt
    dealt = _exhaustive(order, allowed, room, hands, rng)
    if dealt is None:
        raise ImpossibleKnowledge("no deal of the unseen cards fits what this seat has seen")
    return dealt


def _start(know: LoraKnowledge) -> tuple[list[int], list[int]]:
    """(the cards each seat still takes, the hands before the deal): mine full, the others empty."""
    room = list(know.hand_sizes)
    room[know.seat] = 0
    hands = [0] * N_SEATS
    hands[know.seat] = know.hand
    return room, hands


def _exhaustive(order: list[int], allowed: dict[int, list[int]], room: list[int], hands: list[int],
                rng: random.Random) -> list[int] | None:
    """Backtracking over every placement (``room`` and ``hands`` are changed in place)."""

    def place(i: int) -> bool:
        if i == len(order):
            return True
        c = order[i]
        seats = list(allowed[c])
        rng.shuffle(seats)
        for s in seats:
            if room[s]:
                room[s] -= 1
                hands[s] |= 1 << c
                if place(i + 1):
                    return True
                room[s] += 1
                hands[s] &= ~(1 << c)
        return False

    return hands if place(0) else None
