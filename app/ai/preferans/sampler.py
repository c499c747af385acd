"""Deal the unseen preferans cards: the two other seats and the pile (talon or škart)."""

from __future__ import annotations

import random

from app.games.cards import cards_of

from app.ai.common.dealing import deal_with_restarts, placement_order
from app.ai.preferans.knowledge import PreferansKnowledge

PILE = 3  # index of the two cards out of every hand
MAX_RESTARTS = 300


def sample_hands(know: PreferansKnowledge, rng: random.Random) -> list[int]:
    """[hand0, hand1, hand2, pile]: my hand as it is, the rest drawn consistently (the
    declarer's pile is his own škart, which he knows)."""
    me = know.seat
    holders = [s for s in range(3) if s != me] + [PILE]
    sizes = {s: know.hand_size(s) for s in range(3) if s != me}
    unknown = cards_of(know.unknown)
    sizes[PILE] = len(unknown) - sum(sizes.values())  # 2, or 0 while the declarer holds the talon
    if sizes[PILE] < 0:
        raise ValueError("more unseen cards are held than there are")
    forbidden = {s: know.forbidden[s] for s in range(3) if s != me}
    forbidden[PILE] = 0
    if know.talon and know.declarer is not None:
        for s in holders:
            if s not in (know.declarer, PILE):
                forbidden[s] |= know.talon
    order, allowed = placement_order(unknown, holders, forbidden)
    room = [sizes.get(h, 0) for h in range(4)]  # mine stays 0: I am no holder
    start = [0, 0, 0, 0]
    start[me] = know.hand
    start[PILE] = know.skart  # my own škart is known to me (declarer); else drawn below
    out = deal_with_restarts(order, allowed, room, start, rng, MAX_RESTARTS)
    if out is not None:
        return out
    raise ValueError("no deal of the unseen cards fits what this seat has seen")
