"""T4: a board's traveller, every table's result of one board side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.db.models import TournamentRound
from app.errors import Forbidden, NotFound
from app.members.service import CurrentMember
from app.parties.engines import game_of
from app.tournaments import results as res
from app.tournaments.reading import get, names_of
from app.tournaments.scoring import BoardResult, matchpoints

if TYPE_CHECKING:
    from app.club import Club


def traveller(club: Club, tournament_id: int, round_no: int, board: int, member: CurrentMember | None) -> dict[str, Any]:
    """T4: one board of one round, every table's result for each seat side by side, with
    the matchpoints and a link to each table's replay of the same cards; open once the
    round has ended (T8)."""
    with club.db.read() as s:
        t = get(club, s, tournament_id)
        game = game_of(t.game)
        rnd = s.get(TournamentRound, (t.id, round_no))
        if rnd is None:
            raise NotFound(f"round {round_no} has not started", code="no_such_round")
        if rnd.ended_at is None:
            raise Forbidden("the travellers open when the round ends", code="round_running")
        tables = list(rnd.results or [])
        n_boards = res.boards_of_round(tables)
        if not 1 <= board <= n_boards:
            raise NotFound(f"round {round_no} has boards 1 to {n_boards}", code="no_such_board")
        names = names_of(s, {m for tab in tables for m in tab["players"] if m})
    k = board - 1

    played = [tab for tab in tables if k < len(tab["boards"])]
    mp = matchpoints(
        [BoardResult(round_no, k, tab["table_no"], seat, tab["players"][seat], float(v))
         for tab in played for seat, v in enumerate(tab["boards"][k])],
        game.tournament.boards_higher_better(t.settings),
    )
    rows = []
    for tab in sorted(played, key=lambda x: x["table_no"]):
        seats = []
        for seat, value in enumerate(tab["boards"][k]):
            got, possible = mp.get((round_no, k, tab["table_no"], seat), (0.0, 0.0))
            player = tab["players"][seat]
            seats.append({"seat": seat, "name": names.get(player) if player else None, "value": value,
                          "matchpoints": got, "possible": possible,
                          "percent": round(100 * got / possible, 1) if possible else None})
        rows.append({"table_no": tab["table_no"], "partie_id": tab["partie_id"], "deal": k + 1,
                     "line": tab["lines"][k], "seats": seats, "robots": tab["table_no"] == res.ROBOT_TABLE})
    return {"tournament": t.id, "name": t.name, "game": t.game, "round": round_no, "board": board,
            "boards": n_boards, "higher_better": game.tournament.boards_higher_better(t.settings), "tables": rows}
