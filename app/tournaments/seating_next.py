"""The later rounds of a tournament (ruling T6): the search for the tables.

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

from collections.abc import Iterator, Sequence

from app.tournaments.seating import Table, check_players
from app.tournaments.seating_field import OutOfSteps, Steps
from app.tournaments.seating_seats import seat
from app.tournaments.seating_swaps import SwapField

# Step budgets of the search (each step: one candidate player checked against a table).
SMALL_FIELD = 48  # players: the depth-first fill may search long, and the field looks ahead
SMALL_FIELD_STEPS = 60_000  # the first depth-first fill on a small field
SEARCH_STEPS = 5_000  # on a bigger one (plus per player): past it, the greedy fill and swaps
SEARCH_STEPS_PER_PLAYER = 10
FEWER_REPEATS_STEPS = 60_000  # the depth-first search for fewer repeats, small fields only
LOOKAHEAD_ROUNDS = 6  # with the rounds left known, look this many rounds ahead at most
LOOKAHEAD_CANDIDATES = 400  # rounds without repeats tried against the next round
LOOKAHEAD_STEPS = 200_000  # all the look-ahead searches of one call together


class _Search(SwapField):
    """The field, with the depth-first fill, the look-ahead and the whole search."""

    # -- the depth-first fill

    def _groups(self, top: int, cap: int, allowance: int, seated: bytearray,
                steps: Steps) -> Iterator[tuple[list[int], int]]:
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

    def partitions(self, allowed: int, steps: Steps) -> Iterator[list[list[int]]]:
        """Every way to fill the tables from the top with at most ``allowed`` repeated
        pairs, in the depth-first order (raises OutOfSteps past the budget)."""
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

    def first_partition(self, allowed: int, steps: Steps) -> list[list[int]] | None:
        for part in self.partitions(allowed, steps):
            return part
        return None

    def any_partitions(self, steps: Steps) -> Iterator[list[list[int]]]:
        """Rounds without repeats in no particular order, for the look-ahead, which only asks
        whether one exists: each table is built around the unseated player with the fewest
        players left he has not met (raises OutOfSteps past the budget)."""
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

    def zero_rounds_exist(self, rounds: int, steps: Steps) -> bool | None:
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
        except OutOfSteps:
            return None

    # -- the whole search

    def best_groups(self, rounds_left: int | None) -> list[list[int]]:
        small = self.n <= SMALL_FIELD
        steps = Steps(SMALL_FIELD_STEPS if small else SEARCH_STEPS + SEARCH_STEPS_PER_PLAYER * self.n)
        depth = 1 if rounds_left is None else min(rounds_left - 1, LOOKAHEAD_ROUNDS)
        look = small and depth > 0
        groups: list[list[int]] | None = None
        passed = False  # the rounds after ``groups`` can still be without repeats (or not known)
        ahead = Steps(LOOKAHEAD_STEPS)
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
        except OutOfSteps:
            pass
        if groups is not None:
            better = self.improve(groups, fix_repeats=False)
            if passed and better != groups and not self.keeps_zero(better, depth, Steps(LOOKAHEAD_STEPS // 4)):
                return groups
            return better
        # No round without repeats found: the greedy fill and swaps, then fewer on a small field.
        fewest = self.improve(self.greedy(), fix_repeats=True)
        if small:
            deeper = Steps(FEWER_REPEATS_STEPS)
            for allowed in range(1, sum(self.repeats(g) for g in fewest)):
                try:
                    found = self.first_partition(allowed, deeper)
                except OutOfSteps:
                    break
                if found is not None:
                    found = self.improve(found, fix_repeats=True)
                    if self.total(found) < self.total(fewest):
                        fewest = found
                    break
        return fewest

    def keeps_zero(self, groups: list[list[int]], depth: int, steps: Steps) -> bool:
        """Whether ``depth`` more rounds without repeats may follow ``groups`` (True if not known)."""
        self.add_round(groups, +1)
        try:
            return self.zero_rounds_exist(depth, steps) is not False
        finally:
            self.add_round(groups, -1)


def next_round(order: Sequence[int], size: int, history: Sequence[Sequence[Table]],
               rounds_left: int | None = None) -> list[Table]:
    """A later round: ``order`` is the players by the standings, best first; ``history``
    the earlier rounds' tables. Top table first. ``rounds_left`` (this one included) lets
    the last round skip the look-ahead; None: not known."""
    ids = check_players(order, size)
    field = _Search(ids, size, history)
    if not ids:
        return []
    return [seat(field, g) for g in field.best_groups(rounds_left)]

