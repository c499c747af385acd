"""Deal the unseen cards to the other seats, consistently with what the seat knows."""

from __future__ import annotations

import random

from app.games.cards import cards_of
from app.games.lora.contracts import N_SEATS

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
    unknown = cards_of(know.unknown)
    allowed = {c: [s for s in others if not (know.forbidden[s] >> c) & 1] for c in unknown}
    order = sorted(unknown, key=lambda c: len(allowed[c]))
    for _ in range(MAX_RESTARTS):
        hands = _try_sample(know, order, allowed, rng)
        if hands is not None:
            return hands
    hands = _exhaustive(know, order, allowed, rng)
    if hands is None:
        raise ImpossibleKnowledge("no deal of the unseen cards fits what this seat has seen")
    return hands


def _try_sample(know: LoraKnowledge, order: list[int], allowed: dict[int, list[int]], rng: random.Random) -> list[int] | None:
    room = list(know.hand_sizes)
    room[know.seat] = 0
    hands = [0] * N_SEATS
    hands[know.seat] = know.hand
    for c in order:
        seats = [s for s in allowed[c] if room[s] > 0]
        if not seats:
            return None
        total = sum(room[s] for s in seats)
        pick = rng.random() * total
        for s in seats:
            pick -= room[s]
            if pick < 0:
                break
        room[s] -= 1
        hands[s] |= 1 << c
    return hands


def _exhaustive(know: LoraKnowledge, order: list[int], allowed: dict[int, list[int]], rng: random.Random) -> list[int] | None:
    room = list(know.hand_sizes)
    room[know.seat] = 0
    hands = [0] * N_SEATS
    hands[know.seat] = know.hand

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
