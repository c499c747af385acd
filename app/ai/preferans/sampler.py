"""Deal the unseen preferans cards: the two other seats and the pile (talon or škart)."""

from __future__ import annotations

import random

from app.games.cards import cards_of

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
    allowed = {c: [h for h in holders if not (forbidden[h] >> c) & 1] for c in unknown}
    order = sorted(unknown, key=lambda c: len(allowed[c]))
    for _ in range(MAX_RESTARTS):
        room = dict(sizes)
        out = [0, 0, 0, 0]
        out[me] = know.hand
        out[PILE] = know.skart  # my own škart is known to me (declarer); else drawn below
        for c in order:
            options = [h for h in allowed[c] if room[h] > 0]
            if not options:
                break
            pick = rng.random() * sum(room[h] for h in options)
            for h in options:
                pick -= room[h]
                if pick < 0:
                    break
            room[h] -= 1
            out[h] |= 1 << c
        else:
            return out
    raise ValueError("no deal of the unseen cards fits what this seat has seen")
