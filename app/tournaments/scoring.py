"""A tournament's scores: matchpoints and duplicate standings (T4, T7), place points and
the Swiss standings (T5, T7). Plain numbers in, standings out; the games' own results
(a deal's points, a partie's places) are turned into these numbers elsewhere."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

Key = tuple[int, int, int, int]  # (round_no, board, table_no, seat)

# Scores that differ by less than this are equal (sums of floats).
EPSILON = 1e-9


@dataclass(frozen=True)
class BoardResult:
    """One seat's result on one board (one deal of one round) at one table.

    ``player`` None is a computer player; ``table_no`` may be the robot field's table,
    which counts in the comparisons but ranks no one."""

    round_no: int
    board: int
    table_no: int
    seat: int
    player: int | None
    value: float


@dataclass
class Standing:
    player: int
    rank: int | None  # None: not ranked (too few boards played, or withdrawn)
    score: float  # duplikat: percent of the matchpoints possible; svajcarski: place points
    played: int  # boards (duplikat) or rounds (svajcarski) played
    tiebreaks: tuple[float, ...]  # duplikat: (matchpoints, possible); svajcarski: (Buchholz, total result)
    ranked: bool
    withdrawn: bool = False  # T7, T10: listed with his score, never ranked


@dataclass(frozen=True)
class RoundPlaces:
    """One table of a round: each seat's player (None: a computer player), the place
    points the game gave him (T5) and his total result, higher better."""

    round_no: int
    table_no: int
    players: tuple[int | None, ...]
    points: tuple[float, ...]
    totals: tuple[float, ...]


def matchpoints(results: Sequence[BoardResult], higher_better: bool) -> dict[Key, tuple[float, float]]:
    """Each result against every other table's result for the same seat of the same
    board: 2 matchpoints if it is better, 1 if equal, 0 if worse (T4). Returns
    ``(round_no, board, table_no, seat) -> (matchpoints, possible)``, possible being
    2 x (tables that played that seat of that board - 1)."""
    groups: dict[tuple[int, int, int], list[BoardResult]] = defaultdict(list)
    seen: set[Key] = set()
    for r in results:
        key = (r.round_no, r.board, r.table_no, r.seat)
        if key in seen:
            raise ValueError(f"two results for round {r.round_no}, board {r.board}, table {r.table_no}, seat {r.seat}")
        seen.add(key)
        groups[(r.round_no, r.board, r.seat)].append(r)
    sign = 1.0 if higher_better else -1.0
    out: dict[Key, tuple[float, float]] = {}
    for group in groups.values():
        values = sorted(sign * r.value for r in group)
        possible = 2.0 * (len(group) - 1)
        for r in group:
            v = sign * r.value
            worse = _count_below(values, v - EPSILON)
            equal = _count_below(values, v + EPSILON) - worse - 1  # not itself
            out[(r.round_no, r.board, r.table_no, r.seat)] = (2.0 * worse + equal, possible)
    return out


def _count_below(values: list[float], x: float) -> int:
    """How many of the sorted ``values`` are below ``x``."""
    lo, hi = 0, len(values)
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _ranked_order(rows: list[Standing], key: Mapping[int, tuple[float, ...]]) -> list[Standing]:
    """Ranked players first (best key first, equal keys sharing a rank), then the rest (the
    withdrawn last)."""
    ranked = sorted((s for s in rows if s.ranked), key=lambda s: tuple(-k for k in key[s.player]))
    rest = sorted((s for s in rows if not s.ranked), key=lambda s: (s.withdrawn, *(-k for k in key[s.player])))
    previous: tuple[float, ...] | None = None
    for i, s in enumerate(ranked):
        k = key[s.player]
        if previous is None or any(abs(a - b) > EPSILON for a, b in zip(k, previous)):
            s.rank = i + 1
        else:
            s.rank = ranked[i - 1].rank
        previous = k
    for s in rest:
        s.rank = None
    return ranked + rest


def duplicate_standings(results: Sequence[BoardResult], higher_better: bool, players: Sequence[int],
                        boards_total: int, withdrawn: Collection[int] = ()) -> list[Standing]:
    """The duplikat standings (T4, T7): each player's matchpoints over those possible on
    the boards he played, in percent; ranked if he played at least half of
    ``boards_total`` boards and is not ``withdrawn`` (T10); ranked players first, best
    first, equal scores sharing a rank. Boards no other table played (nothing possible)
    leave the score alone; a player with nothing possible scores 50 (no comparison:
    neither better nor worse)."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    points = matchpoints(results, higher_better)
    mp: dict[int, float] = defaultdict(float)
    possible: dict[int, float] = defaultdict(float)
    boards: dict[int, set[tuple[int, int]]] = defaultdict(set)
    for r in results:
        if r.player is None:
            continue
        got, out_of = points[(r.round_no, r.board, r.table_no, r.seat)]
        mp[r.player] += got
        possible[r.player] += out_of
        boards[r.player].add((r.round_no, r.board))
    rows = []
    key: dict[int, tuple[float, ...]] = {}
    for p in players:
        played = len(boards.get(p, ()))
        score = 100.0 * mp[p] / possible[p] if possible[p] > 0 else (50.0 if played else 0.0)
        out = p in withdrawn
        rows.append(Standing(p, None, score, played, (mp[p], possible[p]),
                             played > 0 and 2 * played >= boards_total and not out, out))
        key[p] = (score,)
    return _ranked_order(rows, key)


def swiss_standings(rounds: Sequence[RoundPlaces], players: Sequence[int], rounds_played: int,
                    joined: Mapping[int, int] | None = None, withdrawn: Collection[int] = ()) -> list[Standing]:
    """The svajcarski standings (T5, T7): place points, then Buchholz (the sum of the
    final points of each table-mate of each round played, computer players left out),
    then the better total result (the sum of the player's totals). Only rounds up to
    ``rounds_played`` count. A player who joined late (``joined[p]``: his first round)
    gets, for each round before it, the lowest place points of that round's tables.
    Everyone listed is ranked but the ``withdrawn`` (T7, T10: listed after the ranked, their
    points still in their table-mates' Buchholz); ties in all three share a rank."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    counted = [rp for rp in rounds if rp.round_no <= rounds_played]
    for rp in counted:
        if not len(rp.players) == len(rp.points) == len(rp.totals):
            raise ValueError(f"round {rp.round_no}, table {rp.table_no}: players, points and totals differ in length")
    points: dict[int, float] = defaultdict(float)
    total: dict[int, float] = defaultdict(float)
    played: dict[int, int] = defaultdict(int)
    lowest: dict[int, float] = {}
    mates: dict[int, list[int]] = defaultdict(list)
    for rp in counted:
        lowest[rp.round_no] = min([lowest.get(rp.round_no, min(rp.points, default=0.0)), *rp.points])
        here = [p for p in rp.players if p is not None]
        for p, pts, tot in zip(rp.players, rp.points, rp.totals):
            if p is None:
                continue
            points[p] += pts
            total[p] += tot
            played[p] += 1
            mates[p].extend(q for q in here if q != p)
    for p, first in (joined or {}).items():
        for r in range(1, min(first, rounds_played + 1)):
            points[p] += lowest.get(r, 0.0)
    rows = []
    key: dict[int, tuple[float, ...]] = {}
    for p in players:
        buchholz = sum(points[q] for q in mates.get(p, ()))
        rows.append(Standing(p, None, points[p], played[p], (buchholz, total[p]), p not in withdrawn, p in withdrawn))
        key[p] = (points[p], buchholz, total[p])
    return _ranked_order(rows, key)
