"""The greedy fill of a round's tables and the swaps between tables that lower its cost
(ruling T6): where the depth-first search finds no round without repeats, and last, to
lower the standings distance without adding a repeat."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from app.tournaments.seating_field import Field

SWAP_PASSES = 4  # swaps at most, per table
NEAR_TABLES = 2  # the distance swaps try tables this close


class SwapField(Field):
    """The field, with the greedy fill and the swaps."""

    def greedy(self) -> list[list[int]]:
        """Tables from the top, each seat the nearest unseated player adding the fewest repeats."""
        n, met = self.n, self.met
        seated = bytearray(n)
        groups = []
        top = 0
        for cap in self.caps:
            while seated[top]:
                top += 1
            group = [top]
            seated[top] = 1
            for _ in range(cap - 1):
                best, best_add = -1, None
                for c in range(top + 1, n):
                    if seated[c]:
                        continue
                    add = sum(1 for m in group if m in met[c])
                    if best_add is None or add < best_add:
                        best, best_add = c, add
                        if add == 0:
                            break
                group.append(best)
                seated[best] = 1
            groups.append(group)
        return groups

    def _best_exchange(self, groups: list[list[int]], t: int,
                       others: Sequence[int]) -> tuple[int, int, list[int], list[int]] | None:
        """The best swap of a player of table ``t`` with one of a table in ``others`` (or a
        move between it and a table with one player fewer): (gain, other table, new t, new other)."""
        pair = self.pair
        best = None
        gt = groups[t]
        # What each player of t costs at t, and would cost at u.
        at_t = {a: sum(pair(a, x) for x in gt if x != a) for a in gt}
        for u in others:
            gu = groups[u]
            at_u = {b: sum(pair(b, y) for y in gu if y != b) for b in gu}
            for a in gt:
                a_into_u = {b: sum(pair(a, y) for y in gu if y != b) for b in gu}
                for b in gu:
                    gain = at_t[a] + at_u[b] - a_into_u[b] - sum(pair(b, x) for x in gt if x != a)
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, u, [b if x == a else x for x in gt], [a if y == b else y for y in gu])
                if len(gu) == len(gt) - 1:
                    gain = at_t[a] - sum(pair(a, y) for y in gu)
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, u, [x for x in gt if x != a], [*gu, a])
            if len(gt) == len(gu) - 1:
                for b in gu:
                    gain = at_u[b] - sum(pair(b, x) for x in gt)
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, u, [*gt, b], [y for y in gu if y != b])
        return best

    def improve(self, groups: list[list[int]], fix_repeats: bool) -> list[list[int]]:
        """Swaps that lower the cost, best first: a table with repeats against every table
        (if ``fix_repeats``), any table against its near ones; until none helps."""
        groups = sorted((sorted(g) for g in groups), key=lambda g: g[0])
        tables = len(groups)
        pending = deque(range(tables))
        queued = [True] * tables
        moves = SWAP_PASSES * tables
        while pending and moves > 0:
            t = pending.popleft()
            queued[t] = False
            near = range(max(0, t - NEAR_TABLES), min(tables, t + NEAR_TABLES + 1))
            if fix_repeats and self.repeats(groups[t]):
                near = range(tables)
            found = self._best_exchange(groups, t, [u for u in near if u != t])
            if found is None:
                continue
            moves -= 1
            _, u, groups[t], groups[u] = found
            groups[t].sort()
            groups[u].sort()
            for v in (*range(max(0, t - NEAR_TABLES), min(tables, t + NEAR_TABLES + 1)),
                      *range(max(0, u - NEAR_TABLES), min(tables, u + NEAR_TABLES + 1))):
                if not queued[v]:
                    queued[v] = True
                    pending.append(v)
        return sorted(groups, key=lambda g: g[0])

