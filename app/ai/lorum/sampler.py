"""Deal the cards a Lórum seat has not seen: the others' hands and, in 101, the stock."""

from __future__ import annotations

import random

from app.games.cards import cards_of

from app.ai.tricks.sampler import sample_world
from app.ai.lorum.knowledge import LorumKnowledge

World = tuple[list[int], tuple[int, ...]]  # (every seat's hand as a mask, 101's stock top first)


def sample_lorum_world(know: LorumKnowledge, rng: random.Random) -> World:
    """One deal of the unseen cards consistent with the view (Lora's sampler: voids, dalje);
    101's stock is dealt like a face-down kitty, then put in a random order."""
    hands, stock = sample_world(know, rng)
    if not know.stock_size:
        return hands, ()
    order = cards_of(stock)
    rng.shuffle(order)
    return hands, tuple(order)
