"""Round 1 of a tournament (ruling T6): a random order fixed by the tournament's secret,
or (if the organizer asks) by rating in a snake."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Mapping, Sequence

from app.tournaments.seating import Table, capacities, check_players
from app.tournaments.secret import secret_key


def _rng(secret: str, purpose: str) -> random.Random:
    digest = hmac.new(secret_key(secret), purpose.encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def first_round(players: Sequence[int], size: int, secret: str,
                ratings: Mapping[int, float] | None = None) -> list[Table]:
    """Round 1: the players in a random order fixed by the secret, cut into tables; or,
    with ``ratings``, dealt to the tables in a snake by rating (best first; players
    without a rating after those with one, ties in the secret's order). The seats at a
    table (and the computer player's seat) are shuffled by the secret too."""
    ids = sorted(check_players(players, size))  # the secret decides the order, not the list's
    rng = _rng(secret, "seating:1")
    rng.shuffle(ids)
    caps = capacities(len(ids), size)
    groups: list[list[int]] = [[] for _ in caps]
    if ratings is None:
        start = 0
        for t, cap in enumerate(caps):
            groups[t] = ids[start:start + cap]
            start += cap
    else:
        ids.sort(key=lambda p: (p not in ratings, -float(ratings.get(p, 0.0))))
        snake = list(range(len(caps))) + list(reversed(range(len(caps))))
        step = 0
        for p in ids:
            while len(groups[snake[step % len(snake)]]) >= caps[snake[step % len(snake)]]:
                step += 1
            groups[snake[step % len(snake)]].append(p)
            step += 1
    tables = []
    for group in groups:
        seats: list[int | None] = [*group, *([None] * (size - len(group)))]
        rng.shuffle(seats)
        tables.append(Table(tuple(seats)))
    return tables
