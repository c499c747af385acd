"""Who sits where in each round of a tournament (ruling T6).

Round 1 is in a random order fixed by the tournament's secret, or (if the organizer asks)
by rating in a snake. Each later round takes the players in the order of the standings
and fills the tables from the top so that, first, the fewest pairs sit together again,
then the standings distance at a table is the least (the sum over each table of the
standings distance of each two of its players); seats at a table are given so that each
player holds each seat as evenly as the rounds allow. A round has ceil(n / size) tables;
the seats no player fills are computer players (None), spread so that no table has two
of them when that can be avoided.

The search (``next_round``): a depth-first fill of the tables from the top, each table
the best player not yet seated and the nearest players below him who met none of its
players (a step budget bounds it); where that finds no round without repeats, a greedy
fill that takes the fewest repeats at each seat, improved by swapping players between
tables, and on small fields the depth-first search again for fewer repeats. Where a
round without repeats exists, a small field also looks ahead: of the rounds without
repeats it takes the first after which the next round (or, told ``rounds_left``, every
round still to come, up to six) can be without repeats too, found by a search that seats
the most constrained player first (16 players at tables of four reach five rounds only
so). Last, swaps between
nearby tables lower the standings distance without adding a repeat. Budgets count steps,
not time, so the same input always gives the same seating.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from app.tournaments.secret import secret_key

# Step budgets of the search (each step: one candidate player checked against a table).
SMALL_FIELD = 48  # players: the depth-first fill may search long, and the field looks ahead
SMALL_FIELD_STEPS = 60_000  # the first depth-first fill on a small field
SEARCH_STEPS = 5_000  # on a bigger one (plus per player): past it, the greedy fill and swaps
SEARCH_STEPS_PER_PLAYER = 10
FEWER_REPEATS_STEPS = 60_000  # the depth-first search for fewer repeats, small fields only
LOOKAHEAD_ROUNDS = 6  # with the rounds left known, look this many rounds ahead at most
LOOKAHEAD_CANDIDATES = 400  # rounds without repeats tried against the next round
LOOKAHEAD_STEPS = 200_000  # all the look-ahead searches of one call together
SWAP_PASSES = 4  # swaps at most, per table
NEAR_TABLES = 2  # the distance swaps try tables this close


@dataclass(frozen=True)
class Table:
    """A table of a round: the member at each seat number; None is a computer player (majstor)."""

    seats: tuple[int | None, ...]

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for p in self.seats if p is not None)


# -- checks and shapes ----------------------------------------------------------


def _check(players: Sequence[int], size: int) -> list[int]:
    if isinstance(size, bool) or not isinstance(size, int) or size < 2:
        raise ValueError(f"a table has at least 2 seats, got {size!r}")
    ids = list(players)
    for p in ids:
        if isinstance(p, bool) or not isinstance(p, int):
            raise ValueError(f"players are member ids (whole numbers), got {p!r}")
    if len(set(ids)) != len(ids):
        seen: set[int] = set()
        twice = next(p for p in ids if p in seen or seen.add(p))  # type: ignore[func-returns-value]
        raise ValueError(f"player {twice} is listed twice")
    return ids


def capacities(n: int, size: int) -> list[int]:
    """How many players each of the ceil(n / size) tables seats, top table first: the
    computer players spread as evenly as they go, the extra ones at the bottom tables."""
    if n <= 0:
        return []
    tables = -(-n // size)
    base, extra = divmod(tables * size - n, tables)
    return [size - base - (1 if t >= tables - extra else 0) for t in range(tables)]


def _rng(secret: str, purpose: str) -> random.Random:
    digest = hmac.new(secret_key(secret), purpose.encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


# -- round 1 --------------------------------------------------------------------


def first_round(players: Sequence[int], size: int, secret: str,
                ratings: Mapping[int, float] | None = None) -> list[Table]:
    """Round 1: the players in a random order fixed by the secret, cut into tables; or,
    with ``ratings``, dealt to the tables in a snake by rating (best first; players
    without a rating after those with one, ties in the secret's order). The seats at a
    table (and the computer player's seat) are shuffled by the secret too."""
    ids = sorted(_check(players, size))  # the secret decides the order, not the list's
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


# -- later rounds ---------------------------------------------------------------


class _OutOfSteps(Exception):
    pass


class _Steps:
    def __init__(self, steps: int):
        self.left = steps

    def take(self, k: int = 1) -> None:
        self.left -= k
        if self.left < 0:
            raise _OutOfSteps


class _Field:
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

    # -- the depth-first fill

    def _groups(self, top: int, cap: int, allowance: int, seated: bytearray,
                steps: _Steps) -> Iterator[tuple[list[int], int]]:
        """Groups of ``cap`` for the table of ``top``: he and unseated players below him,
        nearest first, with at most ``allowance`` repeated pairs."""
        n, met = self.n, self.met

        def extend(members: list[int], start: int, need: int, reps: int) -> Iterator[tuple[list[int], int]]:
            if need == 0:
                yield members, reps
                return
            for c in range(start, n - need + 1):
                if seated[c]:
                    continue
                steps.take()
                mc = met[c]
                add = 0
                if mc:
                    for m in members:
                        if m in mc:
                            add += 1
                if reps + add <= allowance:
                    yield from extend([*members, c], c + 1, need - 1, reps + add)

        yield from extend([top], top + 1, cap - 1, 0)

    def _viable(self, seated: bytearray, need: int) -> bool:
        """Forward check (no repeats allowed): each unseated player can still find ``need``
        unseated players he has not met."""
        free = [i for i in range(self.n) if not seated[i]]
        if len(free) <= need:
            return True
        met = self.met
        for u in free:
            mu = met[u]
            if len(free) - 1 - sum(1 for v in free if v in mu) < need:
                return False
        return True

    def partitions(self, allowed: int, steps: _Steps) -> Iterator[list[list[int]]]:
        """Every way to fill the tables from the top with at most ``allowed`` repeated
        pairs, in the depth-first order (raises _OutOfSteps past the budget)."""
        caps, n = self.caps, self.n
        if n == 0:
            yield []
            return
        forward = allowed == 0 and n <= SMALL_FIELD
        need = min(caps) - 1
        seated = bytearray(n)
        gens: list[Iterator[tuple[list[int], int]]] = []
        chosen: list[list[int]] = []
        used: list[int] = []
        total = 0
        gen = self._groups(0, caps[0], allowed, seated, steps)
        while True:
            try:
                group, reps = next(gen)
            except StopIteration:
                if not gens:
                    return
                gen = gens.pop()
                for p in chosen.pop():
                    seated[p] = 0
                total -= used.pop()
                continue
            for p in group:
                seated[p] = 1
            gens.append(gen)
            chosen.append(group)
            used.append(reps)
            total += reps
            if len(chosen) == len(caps):
                yield [list(g) for g in chosen]
            elif not forward or self._viable(seated, need):
                top = group[0] + 1
                while seated[top]:
                    top += 1
                gen = self._groups(top, caps[len(chosen)], allowed - total, seated, steps)
                continue
            gen = gens.pop()
            for p in chosen.pop():
                seated[p] = 0
            total -= used.pop()

    def first_partition(self, allowed: int, steps: _Steps) -> list[list[int]] | None:
        for part in self.partitions(allowed, steps):
            return part
        return None

    def any_partitions(self, steps: _Steps) -> Iterator[list[list[int]]]:
        """Rounds without repeats in no particular order, for the look-ahead, which only asks
        whether one exists: each table is built around the unseated player with the fewest
        players left he has not met (raises _OutOfSteps past the budget)."""
        met = self.met
        seated = bytearray(self.n)
        chosen: list[list[int]] = []

        def mates(options: list[int], need: int, members: list[int]) -> Iterator[list[int]]:
            if need == 0:
                yield members
                return
            for i in range(len(options) - need + 1):
                c = options[i]
                steps.take()
                if not any(m in met[c] for m in members[1:]):
                    yield from mates(options[i + 1:], need - 1, [*members, c])

        def fill(caps_left: list[int]) -> Iterator[list[list[int]]]:
            free = [i for i in range(self.n) if not seated[i]]
            if not free:
                yield [list(g) for g in chosen]
                return
            steps.take(len(free))
            pivot, options = -1, free
            for u in free:
                mu = met[u]
                opts = [v for v in free if v != u and v not in mu]
                if pivot < 0 or len(opts) < len(options):
                    pivot, options = u, opts
            for cap in sorted(set(caps_left), reverse=True):
                rest = list(caps_left)
                rest.remove(cap)
                for group in mates(options, cap - 1, [pivot]):
                    for p in group:
                        seated[p] = 1
                    chosen.append(group)
                    yield from fill(rest)
                    chosen.pop()
                    for p in group:
                        seated[p] = 0

        yield from fill(list(self.caps))

    def zero_rounds_exist(self, rounds: int, steps: _Steps) -> bool | None:
        """Whether ``rounds`` more rounds without repeats exist (None: not known within the budget)."""
        if rounds <= 0:
            return True
        try:
            for part in self.any_partitions(steps):
                if rounds == 1:
                    return True
                self.add_round(part, +1)
                try:
                    further = self.zero_rounds_exist(rounds - 1, steps)
                finally:
                    self.add_round(part, -1)
                if further is not False:
                    return further
            return False
        except _OutOfSteps:
            return None

    # -- the greedy fill and the swaps

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

    def pair(self, a: int, b: int) -> int:
        """What seating ``a`` and ``b`` together adds to the cost."""
        m = self.met[a].get(b, 0)
        return (self.w_repeat + (m - 1) * self.w_extra if m else 0) + (a - b if a > b else b - a)

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

    def total(self, groups: Sequence[Sequence[int]]) -> int:
        return sum(self.cost(g) for g in groups)

    # -- the whole search

    def best_groups(self, rounds_left: int | None) -> list[list[int]]:
        small = self.n <= SMALL_FIELD
        steps = _Steps(SMALL_FIELD_STEPS if small else SEARCH_STEPS + SEARCH_STEPS_PER_PLAYER * self.n)
        depth = 1 if rounds_left is None else min(rounds_left - 1, LOOKAHEAD_ROUNDS)
        look = small and depth > 0
        groups: list[list[int]] | None = None
        passed = False  # the rounds after ``groups`` can still be without repeats (or not known)
        ahead = _Steps(LOOKAHEAD_STEPS)
        try:
            for tried, part in enumerate(self.partitions(0, steps), 1):
                if groups is None:
                    groups = part
                if not look:
                    break
                if self.keeps_zero(part, depth, ahead):
                    groups, passed = part, True
                    break
                if tried >= LOOKAHEAD_CANDIDATES or ahead.left <= 0:
                    break
        except _OutOfSteps:
            pass
        if groups is not None:
            better = self.improve(groups, fix_repeats=False)
            if passed and better != groups and not self.keeps_zero(better, depth, _Steps(LOOKAHEAD_STEPS // 4)):
                return groups
            return better
        # No round without repeats found: the greedy fill and swaps, then fewer on a small field.
        fewest = self.improve(self.greedy(), fix_repeats=True)
        if small:
            deeper = _Steps(FEWER_REPEATS_STEPS)
            for allowed in range(1, sum(self.repeats(g) for g in fewest)):
                try:
                    found = self.first_partition(allowed, deeper)
                except _OutOfSteps:
                    break
                if found is not None:
                    found = self.improve(found, fix_repeats=True)
                    if self.total(found) < self.total(fewest):
                        fewest = found
                    break
        return fewest

    def keeps_zero(self, groups: list[list[int]], depth: int, steps: _Steps) -> bool:
        """Whether ``depth`` more rounds without repeats may follow ``groups`` (True if not known)."""
        self.add_round(groups, +1)
        try:
            return self.zero_rounds_exist(depth, steps) is not False
        finally:
            self.add_round(groups, -1)

    # -- seats

    def seat(self, group: Sequence[int]) -> Table:
        """The table's seats: each player where he sat least (an unevenness costs more
        the more it grows); ties go to the order of the standings."""
        size = self.size
        members: list[int | None] = [*sorted(group), *([None] * (size - len(group)))]
        best: tuple[int, ...] | None = None
        best_cost = None
        for perm in permutations(range(size)):
            c = 0
            for member, s in zip(members, perm):
                if member is not None:
                    counts = self.seat_counts[member]
                    c += 3 ** (counts[s] - min(counts)) - 1
            if best_cost is None or c < best_cost:
                best, best_cost = perm, c
                if c == 0:
                    break
        assert best is not None
        seats: list[int | None] = [None] * size
        for member, s in zip(members, best):
            seats[s] = None if member is None else self.ids[member]
        return Table(tuple(seats))


def next_round(order: Sequence[int], size: int, history: Sequence[Sequence[Table]],
               rounds_left: int | None = None) -> list[Table]:
    """A later round: ``order`` is the players by the standings, best first; ``history``
    the earlier rounds' tables. Top table first. ``rounds_left`` (this one included) lets
    the last round skip the look-ahead; None: not known."""
    ids = _check(order, size)
    field = _Field(ids, size, history)
    if not ids:
        return []
    return [field.seat(g) for g in field.best_groups(rounds_left)]


def repeated_meetings(rounds: Sequence[Sequence[Table]]) -> int:
    """Pairs of players who sat together again: a pair that met k times counts k - 1."""
    meetings: dict[tuple[int, int], int] = {}
    for round_tables in rounds:
        for table in round_tables:
            for a, b in combinations(sorted(table.players), 2):
                meetings[(a, b)] = meetings.get((a, b), 0) + 1
    return sum(k - 1 for k in meetings.values())
