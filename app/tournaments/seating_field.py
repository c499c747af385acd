"""One later round's field (ruling T6): the players by standings position, what they met,
where they sat, and what a table costs; the step budget of the searches."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from app.tournaments.seating import Table, capacities


class OutOfSteps(Exception):
    pass


class Steps:
    def __init__(self, steps: int):
        self.left = steps

    def take(self, k: int = 1) -> None:
        self.left -= k
        if self.left < 0:
            raise OutOfSteps


class Field:
    """One round's players by standings position (0 is the leader) and what they met."""

    def __init__(self, ids: list[int], size: int, history: Sequence[Sequence[Table]]):
        self.ids = ids
        self.size = size
        self.n = len(ids)
        self.caps = capacities(self.n, size)
        pos = {p: i for i, p in enumerate(ids)}
        self.met: list[dict[int, int]] = [{} for _ in ids]
        self.seat_counts: list[list[int]] = [[0] * size for _ in ids]
        for round_tables in history:
            for table in round_tables:
                if len(table.seats) != size:
                    raise ValueError(f"a table of an earlier round has {len(table.seats)} seats, not {size}")
                here = [pos[p] for p in table.seats if p is not None and p in pos]
                for s, p in enumerate(table.seats):
                    if p is not None and p in pos:
                        self.seat_counts[pos[p]][s] += 1
                for a, b in combinations(here, 2):
                    self.met[a][b] = self.met[a].get(b, 0) + 1
                    self.met[b][a] = self.met[b].get(a, 0) + 1
        # Weights of a table's cost: repeats first, then meetings beyond the second, then distance.
        self.w_extra = 6 * self.n * self.n + 1
        self.w_repeat = self.w_extra * (self.n * self.n + 1)

    # -- costs

    def repeats(self, group: Sequence[int]) -> int:
        met = self.met
        return sum(1 for a, b in combinations(group, 2) if b in met[a])

    def cost(self, group: Sequence[int]) -> int:
        met = self.met
        reps = extra = dist = 0
        for a, b in combinations(group, 2):
            m = met[a].get(b, 0)
            if m:
                reps += 1
                extra += m - 1
            dist += a - b if a > b else b - a
        return reps * self.w_repeat + extra * self.w_extra + dist

    def add_round(self, groups: Sequence[Sequence[int]], sign: int) -> None:
        met = self.met
        for g in groups:
            for a, b in combinations(g, 2):
                m = met[a].get(b, 0) + sign
                if m:
                    met[a][b] = met[b][a] = m
                else:
                    del met[a][b], met[b][a]

    def pair(self, a: int, b: int) -> int:
        """What seating ``a`` and ``b`` together adds to the cost."""
        m = self.met[a].get(b, 0)
        return (self.w_repeat + (m - 1) * self.w_extra if m else 0) + (a - b if a > b else b - a)

    def total(self, groups: Sequence[Sequence[int]]) -> int:
        return sum(self.cost(g) for g in groups)
