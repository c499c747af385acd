"""The seats at a table of a later round (ruling T6): each player where he sat least."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from app.tournaments.seating import Table
from app.tournaments.seating_field import Field


def seat(field: Field, group: Sequence[int]) -> Table:
    """The table's seats: each player where he sat least (an unevenness costs more
    the more it grows); ties go to the order of the standings."""
    size = field.size
    members: list[int | None] = [*sorted(group), *([None] * (size - len(group)))]
    best: tuple[int, ...] | None = None
    best_cost = None
    for perm in permutations(range(size)):
        c = 0
        for member, s in zip(members, perm):
            if member is not None:
                counts = field.seat_counts[member]
                c += 3 ** (counts[s] - min(counts)) - 1
        if best_cost is None or c < best_cost:
            best, best_cost = perm, c
            if c == 0:
                break
    assert best is not None
    seats: list[int | None] = [None] * size
    for member, s in zip(members, best):
        seats[s] = None if member is None else field.ids[member]
    return Table(tuple(seats))
