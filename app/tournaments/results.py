"""A round's results, read from its tables, and the standings over the ended rounds.

When a round ends each of its tables is read once through the game's tournament rules
(:class:`app.games.descriptor.TournamentRules`): its boards (T4), the traveller's lines,
its places, place points and totals (T5). They are kept with the round
(``tournament_rounds.results``), so the standings and the travellers never replay a
partie again. The standings themselves are the pure steps of
:mod:`app.tournaments.scoring`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from app.db.models import Partie, Tournament
from app.games.descriptor import GameDescriptor
from app.parties.lookup import open_table
from app.tournaments import withdrawal
from app.tournaments.scoring import (
    BoardResult,
    RoundPlaces,
    Standing,
    duplicate_standings,
    swiss_standings,
)

if TYPE_CHECKING:
    from app.club import Club

DUPLIKAT, SVAJCARSKI = "duplikat", "svajcarski"
FORMATS = (DUPLIKAT, SVAJCARSKI)
ROBOT_TABLE = 0  # the robot field's table number (T4)


def table_results(club: Club, s: Session, partie: Partie, game: GameDescriptor,
                  place_points: Sequence[float] | None) -> dict[str, Any]:
    """One table of an ended round, as the round keeps it."""
    rules = game.tournament
    table = open_table(club, s, partie)
    with table.lock:
        engine = table.engine
        boards = [list(b) for b in rules.boards(engine)]
        lines = [rules.board_line(engine, k) for k in range(len(boards))]
        result = engine.result()
    return {
        "table_no": partie.table_no,
        "partie_id": partie.id,
        # member ids by seat (a reference's computer seat keeps its account, app/members/
        # references.py); None: a computer player's seat (never ranked)
        "players": [row.member_id for row in partie.seats],
        "boards": boards,
        "lines": lines,
        "places": list(result.get("places") or []),
        "place_points": list(rules.place_points(result, place_points)),
        "totals": list(rules.totals(result)),
    }


def boards_of_round(results: Sequence[Mapping[str, Any]]) -> int:
    """How many boards a round had: the most any of its tables played (a preferans table
    may end before its last hand, P13)."""
    return max((len(t["boards"]) for t in results), default=0)


def standings(t: Tournament, game: GameDescriptor, rounds: Sequence[tuple[int, Sequence[Mapping[str, Any]]]],
              ) -> list[Standing]:
    """The standings after the ended ``rounds`` ((round number, its tables' results)),
    best first; the withdrawn listed, not ranked (T7, T10); the removed not listed."""
    rules = game.tournament
    players = [p.member_id for p in t.players if not p.removed]
    withdrawn = {p.member_id for p in t.players if withdrawal.withdrawn(p)}
    if t.format == DUPLIKAT:
        results = [
            BoardResult(round_no, board, table["table_no"], seat, table["players"][seat], float(value))
            for round_no, tables in rounds
            for table in tables
            for board, values in enumerate(table["boards"])
            for seat, value in enumerate(values)
        ]
        total = sum(boards_of_round(tables) for _, tables in rounds)
        return duplicate_standings(results, rules.boards_higher_better(t.settings), players, total, withdrawn)
    sign = 1.0 if rules.totals_higher_better(t.settings) else -1.0
    places = [
        RoundPlaces(round_no, table["table_no"], tuple(table["players"]),
                    tuple(float(p) for p in table["place_points"]), tuple(sign * float(x) for x in table["totals"]))
        for round_no, tables in rounds
        for table in tables
        if table["table_no"] != ROBOT_TABLE
    ]
    joined = {p.member_id: p.joined_round for p in t.players}
    return swiss_standings(places, players, len(rounds), joined, withdrawn)


def order_for_seating(standings_now: Sequence[Standing], active: Sequence[int]) -> list[int]:
    """The players of the next round by the standings, best first (new players last)."""
    rank = {st.player: i for i, st in enumerate(standings_now)}
    return sorted(active, key=lambda m: (rank.get(m, len(rank)), m))
