"""Tournaments as the pages and the API read them: the listing, a tournament's page
(its rounds, tables and standings), a member's tournaments (profiles)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Member, Partie, Tournament, TournamentPlayer, TournamentRound
from app.errors import NotFound
from app.members.service import CurrentMember
from app.parties.lookup import bot_name, seat_of
from app.parties.engines import game_of
from app.tournaments import results as res
from app.tournaments import rounds, withdrawal
from app.tournaments.secret import commitment, round_seed

if TYPE_CHECKING:
    from app.club import Club


def names_of(s: Session, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    return dict(s.execute(select(Member.id, Member.name).where(Member.id.in_(ids))).all())


def summary(t: Tournament, registered: int) -> dict[str, Any]:
    return {
        "id": t.id, "name": t.name, "game": t.game, "format": t.format, "rounds": t.rounds,
        "status": t.status, "current_round": t.current_round, "start_at": t.start_at.isoformat(),
        "next_round_at": t.next_round_at.isoformat() if t.next_round_at else None,
        "registered": registered, "settings": t.settings, "hands": t.hands,
        "finished_at": t.finished_at.isoformat() if t.finished_at else None,
    }


def late_join_open(t: Tournament) -> bool:
    """T7: a member may join until half of the rounds have started."""
    return t.status in ("registration", "running", "paused") and t.current_round < t.rounds / 2


def listing(club: Club, member: CurrentMember | None) -> dict[str, list[dict[str, Any]]]:
    """Upcoming, running and finished tournaments (the newest 50 finished)."""
    with club.db.read() as s:
        counts = dict(s.execute(
            select(TournamentPlayer.tournament_id, func.count()).where(
                TournamentPlayer.removed.is_(False), TournamentPlayer.left_round.is_(None))
            .group_by(TournamentPlayer.tournament_id)).all())
        mine = set()
        if member is not None:
            mine = set(s.scalars(select(TournamentPlayer.tournament_id).where(
                TournamentPlayer.member_id == member.id, TournamentPlayer.removed.is_(False),
                TournamentPlayer.left_round.is_(None))))
        over = ("finished", "cancelled")
        rows = list(s.scalars(select(Tournament).where(Tournament.status.not_in(over)).order_by(Tournament.start_at)))
        done = list(s.scalars(select(Tournament).where(Tournament.status.in_(over))
                              .order_by(Tournament.finished_at.desc()).limit(50)))
        winners = _winners(s, done)
    out: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
    for t in rows:
        item = {**summary(t, counts.get(t.id, 0)), "mine": t.id in mine, "late_join": late_join_open(t)}
        out["upcoming" if t.current_round == 0 else "running"].append(item)
    for t in done:
        out["finished"].append({**summary(t, counts.get(t.id, 0)), "mine": t.id in mine, "winners": winners[t.id]})
    return out


def tournaments_for_bots(club: Club) -> list[dict[str, Any]]:
    """Tournaments that allow bots and have not ended, the soonest first (the /bots page)."""
    with club.db.read() as s:
        rows = s.scalars(select(Tournament).where(Tournament.bots_allowed.is_(True),
                                                  Tournament.status.not_in(("finished", "cancelled")))
                         .order_by(Tournament.start_at).limit(20)).all()
        return [{"id": t.id, "name": t.name, "game": t.game, "start_at": t.start_at, "status": t.status} for t in rows]


def _winners(s: Session, done: list[Tournament]) -> dict[int, list[str]]:
    firsts = {t.id: [row["player"] for row in (t.standings or []) if row.get("rank") == 1] for t in done}
    names = names_of(s, {m for ids in firsts.values() for m in ids})
    return {tid: [names.get(m, "?") for m in ids] for tid, ids in firsts.items()}


def get(club: Club, s: Session, tournament_id: int) -> Tournament:
    t = s.get(Tournament, tournament_id)
    if t is None:
        raise NotFound(f"there is no tournament {tournament_id}", code="no_such_tournament")
    return t


def _table_row(p: Partie, names: dict[int, str], visible: bool) -> dict[str, Any]:
    seats = []
    for row in p.seats:
        if row.member_id is not None:  # a member (or a reference's computer seat: its account)
            seats.append({"seat": row.seat, "name": names.get(row.member_id, "?"), "member": True,
                          "computer": row.played_by_bot})
        else:  # a computer player of the robot field (rulings T8): named as at any table
            seats.append({"seat": row.seat, "name": bot_name(row), "member": False, "computer": True})
    return {"table_no": p.table_no, "partie_id": p.id if visible else None, "status": p.status, "seats": seats,
            "robots": p.table_no == res.ROBOT_TABLE}


def detail(club: Club, tournament_id: int, member: CurrentMember | None) -> dict[str, Any]:
    """Everything the tournament page shows (T2's commitment, the secret once it is over)."""
    with club.db.read() as s:
        t = get(club, s, tournament_id)
        game = game_of(t.game)
        all_rounds = list(s.scalars(select(TournamentRound).where(TournamentRound.tournament_id == t.id)
                                    .order_by(TournamentRound.round_no)))
        tables = list(s.scalars(select(Partie).where(Partie.tournament_id == t.id)
                                .order_by(Partie.tournament_round, Partie.table_no)))
        ended = rounds.ended_rounds(s, t.id)
        standing_list = ([_from_row(r) for r in t.standings] if t.standings is not None
                         else [rounds.standing_row(st) for st in res.standings(t, game, ended)] if ended else [])
        ids = {p.member_id for p in t.players} | {row.member_id for p in tables for row in p.seats if row.member_id}
        names = names_of(s, ids | {t.organizer_id})
        me = member.id if member else None
        my_row = next((p for p in t.players if p.member_id == me), None)
        out_rounds = []
        for r in all_rounds:
            round_tables = [p for p in tables if p.tournament_round == r.round_no]
            running = r.ended_at is None
            mine = next((p.id for p in round_tables if seat_of(p, me) is not None), None)
            rows = []
            for p in round_tables:
                hidden = running and p.table_no == res.ROBOT_TABLE
                if hidden:
                    continue
                # T8, T11: while the round runs, a table is open only to its own players
                visible = not running or p.id == mine
                rows.append(_table_row(p, names, visible))
            out_rounds.append({
                "round": r.round_no, "started_at": r.started_at.isoformat(), "deadline_at": r.deadline_at.isoformat(),
                "ended_at": r.ended_at.isoformat() if r.ended_at else None, "overdue": r.overdue,
                "tables": rows, "my_table": mine,
                "boards": res.boards_of_round(r.results or []) if r.ended_at else None,
            })
        registered = [p for p in t.players if not p.removed and p.left_round is None]
        data = {
            **summary(t, len(registered)),
            "organizer": names.get(t.organizer_id),
            "timer_seconds": t.timer_seconds, "round_minutes": t.round_minutes, "pause_minutes": t.pause_minutes,
            "robot_field": t.robot_field, "bots_allowed": t.bots_allowed, "place_points": t.place_points,
            "round_settings": rounds.round_settings(t, game),
            "seeding": t.seeding, "table_size": game.seats_for(t.settings),
            "commitment": commitment(t.secret),
            "secret": t.secret if t.status == "finished" else None,
            "seeds": ([round_seed(t.secret, t.id, r) for r in range(1, t.rounds + 1)]
                      if t.status == "finished" else None),
            "players": [
                {"name": names.get(p.member_id, "?"), "joined_round": p.joined_round, "left_round": p.left_round,
                 "removed": p.removed, "withdrawn": withdrawal.withdrawn(p)}
                for p in t.players
            ],
            "registered_players": [names.get(p.member_id, "?") for p in registered],
            "rounds_played": [r for r in out_rounds],
            "standings": [{**row, "name": names.get(row["player"], "?")} for row in standing_list],
            "me": {
                "registered": bool(my_row and not my_row.removed and my_row.left_round is None),
                "removed": bool(my_row and my_row.removed),
                "withdrawn": bool(my_row and withdrawal.withdrawn(my_row)),
                "plays_from": my_row.joined_round if my_row else None,  # his first round
                "may_join": late_join_open(t) and my_row is None,
                "organizer": bool(member and (member.is_admin or member.id == t.organizer_id)),
            } if member else None,
        }
        return data


def _from_row(row: dict[str, Any]) -> dict[str, Any]:
    return {"withdrawn": False, **row}  # final standings kept before withdrawals were listed


def tournaments_of(club: Club, member_id: int) -> list[dict[str, Any]]:
    """The tournaments a member played, with his place (profiles)."""
    with club.db.read() as s:
        rows = list(s.scalars(
            select(Tournament).join(TournamentPlayer, TournamentPlayer.tournament_id == Tournament.id)
            .where(TournamentPlayer.member_id == member_id, Tournament.current_round > 0)
            .order_by(Tournament.start_at.desc()).limit(50)))
        out = []
        for t in rows:
            place = None
            total = None
            if t.standings is not None:
                total = sum(1 for r in t.standings if r.get("ranked"))
                place = next((r.get("rank") for r in t.standings if r["player"] == member_id), None)
            out.append({"id": t.id, "name": t.name, "game": t.game, "format": t.format, "status": t.status,
                        "place": place, "of": total, "start_at": t.start_at.isoformat()})
        return out


def seconds_until(when: datetime | None, now: datetime) -> int | None:
    return None if when is None else max(0, math.ceil((when - now).total_seconds()))


def name_of(club: Club, table: Mapping[str, Any] | None) -> str | None:
    """The name of the tournament a table belongs to (``proposal_summary``'s
    ``tournament``), for the table's page."""
    if not table:
        return None
    with club.db.read() as s:
        return s.scalar(select(Tournament.name).where(Tournament.id == table["id"]))
