"""Who sits where in each round of a tournament (ruling T6): the tables of a round and
what every seating shares.

Round 1 is in a random order fixed by the tournament's secret, or (if the organizer asks)
by rating in a snake (``app.tournaments.seating_first``). Each later round takes the
players in the order of the standings and fills the tables from the top so that, first,
the fewest pairs sit together again, then the standings distance at a table is the least
(``app.tournaments.seating_next``); seats at a table are given so that each player holds
each seat as evenly as the rounds allow (``app.tournaments.seating_seats``). A round has
ceil(n / size) tables; the seats no player fills are computer players (None), spread so
that no table has two of them when that can be avoided.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True)
class Table:
    """A table of a round: the member at each seat number; None is a computer player (majstor)."""

    seats: tuple[int | None, ...]

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for p in self.seats if p is not None)


# -- checks and shapes ----------------------------------------------------------


def check_players(players: Sequence[int], size: int) -> list[int]:
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


def repeated_meetings(rounds: Sequence[Sequence[Table]]) -> int:
    """Pairs of players who sat together again: a pair that met k times counts k - 1."""
    meetings: dict[tuple[int, int], int] = {}
    for round_tables in rounds:
        for table in round_tables:
            for a, b in combinations(sorted(table.players), 2):
                meetings[(a, b)] = meetings.get((a, b), 0) + 1
    return sum(k - 1 for k in meetings.values())
