"""Deal the unseen cards to the other seats (and a face-down kitty), consistently with
what the seat knows."""

from __future__ import annotations

import random

from app.games.cards import cards_of

from app.ai.common.dealing import deal_with_restarts, placement_order
from app.ai.tricks.knowledge import TrickKnowledge

MAX_RESTARTS = 200

World = tuple[list[int], int]  # (every seat's hand, the kitty's cards), as masks


class ImpossibleKnowledge(ValueError):
    """No deal of the unseen cards fits the constraints (a bug, or an inconsistent view)."""


def sample_hands(know: TrickKnowledge, rng: random.Random) -> list[int]:
    """One full set of hands (masks, in seat order): mine as I hold it, the others drawn."""
    return sample_world(know, rng)[0]


def sample_world(know: TrickKnowledge, rng: random.Random) -> World:
    """One deal of the unseen cards: every hand (mine as I hold it) and the kitty (its
    face-up cards and, while it lies face down, cards nobody holds; 0 without a kitty).

    Cards are placed most-constrained first, each to an allowed place chosen with weight
    proportional to the room it has left; a dead end restarts, and after many restarts
    an exhaustive search decides (it only happens with very tight constraints).
    """
    n = know.n
    holders = [s for s in range(n) if s != know.seat] + ([n] if know.kitty_hidden else [])
    forbidden = list(know.forbidden[:n]) + [know.kitty_forbidden]
    order, allowed = placement_order(cards_of(know.unknown), holders, forbidden)
    room, hands = _start(know)
    dealt = deal_with_restarts(order, allowed, room, hands, rng, MAX_RESTARTS)
    if dealt is None:
        dealt = _exhaustive(order, allowed, room, hands, rng)
    if dealt is None:
        raise ImpossibleKnowledge("no deal of the unseen cards fits what this seat has seen")
    return dealt[:n], dealt[n] | know.kitty


def _start(know: TrickKnowledge) -> tuple[list[int], list[int]]:
    """(the cards each place still takes, the places before the deal): mine full, the
    others and the face-down kitty (the last place) empty."""
    room = list(know.hand_sizes) + [know.kitty_hidden]
    room[know.seat] = 0
    hands = [0] * (know.n + 1)
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
