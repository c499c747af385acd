"""The season's table, pure: recomputed from the evenings' final standings every time it
is read (rulings L1-L4 in docs/rulings.md).

An evening a member played gives league points: by his place in its standings (``places``:
the league's scale, place 1 first; a place past the scale gives 0; players tied on a rank
get that rank's points) or his evening's percentage (``percentage``, duplikat). A place is
the standings' rank, or, for one listed unranked (withdrawn, or too few boards), his
position in the list (L2). An evening he skipped or missed gives 0 and is not played (L1).
His best K evenings count; the table is ordered by the total, then by the best evening not
counted, the next one, ... (L3), then head-to-head: the evenings the tied members both
played, each one ahead of another scoring a point (L4); still equal, they share the rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SeasonRow:
    player: int
    points: dict[int, float] = field(default_factory=dict)  # evening -> league points (played only)
    places: dict[int, int] = field(default_factory=dict)  # evening -> place
    counted: list[int] = field(default_factory=list)  # evenings counted (best K)
    total: float = 0.0
    rank: int = 0
    tiebreak: list[float] = field(default_factory=list)  # the evenings not counted, best first
    head_to_head: int = 0


def places_of(standings: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Each listed player's place in an evening's final standings (L2)."""
    out: dict[int, int] = {}
    for i, row in enumerate(standings):
        player = row.get("player")
        if player is None:
            continue
        out[player] = row["rank"] if row.get("rank") is not None else i + 1
    return out


def among(standings: Sequence[Mapping[str, Any]], keep: set[int] | frozenset[int]) -> list[dict[str, Any]]:
    """An evening's standings read among some players only (L9: the members' table leaves
    the bot accounts out, the bots' own table the members): the others are left out and
    each ranked player's rank is one more than the kept players ranked ahead of him (ties
    stay ties); the unranked stay unranked, after the ranked ones."""
    kept = [dict(row) for row in standings if row.get("player") in keep]
    ranks = [row["rank"] for row in kept if row.get("rank") is not None]
    for row in kept:
        if row.get("rank") is not None:
            row["rank"] = 1 + sum(1 for r in ranks if r < row["rank"])
    return kept


def evening_points(standings: Sequence[Mapping[str, Any]], scoring: str,
                   scale: Sequence[float] | None) -> dict[int, float]:
    places = places_of(standings)
    if scoring == "percentage":
        return {row["player"]: round(float(row.get("score") or 0.0), 2) for row in standings
                if row.get("player") is not None}
    scale = list(scale or [])
    return {m: float(scale[p - 1]) if 0 < p <= len(scale) else 0.0 for m, p in places.items()}


def table(evenings: Sequence[tuple[int, Sequence[Mapping[str, Any]]]], members: Sequence[int], scoring: str,
          scale: Sequence[float] | None, best_of: int, total_evenings: int) -> list[SeasonRow]:
    """The season table from the ended evenings (number, final standings), best first;
    ``members``: the season's registered members (listed even with no evening played)."""
    rows: dict[int, SeasonRow] = {m: SeasonRow(m) for m in members}
    for no, standings in evenings:
        places = places_of(standings)
        for m, pts in evening_points(standings, scoring, scale).items():
            row = rows.setdefault(m, SeasonRow(m))
            row.points[no] = pts
            row.places[no] = places[m]
    for row in rows.values():
        # best first; of two equal evenings the earlier counts
        best = sorted(row.points, key=lambda no: (-row.points[no], no))
        row.counted = sorted(best[:best_of])
        row.total = round(sum(row.points[no] for no in row.counted), 2)
        rest = [row.points[no] for no in best[best_of:]]
        row.tiebreak = rest + [0.0] * max(0, total_evenings - best_of - len(rest))
    ordered = sorted(rows.values(), key=lambda r: (-r.total, [-x for x in r.tiebreak], r.player))
    groups: list[list[SeasonRow]] = []
    for r in ordered:
        if groups and (groups[-1][0].total, groups[-1][0].tiebreak) == (r.total, r.tiebreak):
            groups[-1].append(r)
        else:
            groups.append([r])
    out: list[SeasonRow] = []
    for group in groups:
        for r in group:
            r.head_to_head = sum(
                1 for other in group if other is not r for no in r.places
                if no in other.places and r.places[no] < other.places[no])
        group.sort(key=lambda r: (-r.head_to_head, r.player))
        for i, r in enumerate(group):
            same = i > 0 and group[i - 1].head_to_head == r.head_to_head
            r.rank = group[i - 1].rank if same else len(out) + 1
            out.append(r)
    return out
