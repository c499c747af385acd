"""Tournaments: the organizer creates one, members register and leave, the organizer
starts a round early, pauses, resumes or removes a player; the pages and the API read
them here. The rounds themselves: :mod:`app.tournaments.rounds`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.club import Club
from app.db.database import for_update
from app.db.models import Member, Partie, Tournament, TournamentPlayer, TournamentRound
from app.errors import Conflict, Forbidden, Invalid, NotFound
from app.games.base import SettingsError
from app.parties.fairplay import check_together
from app.games.tournament import check_place_points
from app.members.service import CurrentMember
from app.parties.lookup import BOT_NAMES, seat_of
from app.games.engines import game_of
from app.tournaments import results as res
from app.tournaments import rounds, withdrawal
from app.tournaments.secret import commitment, new_secret, round_seed

ORGANIZER_ROLES = ("admin", "organizer")
MAX_ROUNDS = 15
TIMER_RANGE = (15, 300)
ROUND_MINUTES = (5, 24 * 60)
PAUSE_MINUTES = (0, 24 * 60)
NAME_LENGTH = (3, 80)


@dataclass(frozen=True)
class TournamentSpec:
    """What an organizer chooses (the API's body, the page's form)."""

    name: str
    game: str
    format: str
    rounds: int
    start_at: datetime
    settings: dict[str, Any] | None = None
    hands: int | None = None  # preferans: hands per round (P13); None: the game's default
    timer_seconds: int = 60
    round_minutes: int = 90
    pause_minutes: int = 2
    robot_field: bool = False
    bots_allowed: bool = False  # bot accounts with bot:tournament may register (app/bots/)
    place_points: list[float] | None = None
    seeding: str = "random"


def may_organize(member: CurrentMember | None) -> bool:
    return member is not None and member.role in ORGANIZER_ROLES


def _in(value: Any, bounds: tuple[int, int], what: str, code: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not bounds[0] <= value <= bounds[1]:
        raise Invalid(f"{what} is {bounds[0]} to {bounds[1]}", code=code)
    return value


def _check(club: Club, spec: TournamentSpec) -> tuple[dict[str, Any], int | None]:
    name = spec.name.strip() if isinstance(spec.name, str) else ""
    if not NAME_LENGTH[0] <= len(name) <= NAME_LENGTH[1]:
        raise Invalid(f"a tournament's name has {NAME_LENGTH[0]} to {NAME_LENGTH[1]} characters", code="invalid_name")
    game = game_of(spec.game)
    if game.tournament is None:
        raise Invalid(f"{game.code} has no tournaments", code="unknown_game")
    if spec.format not in res.FORMATS:
        raise Invalid(f"the format is one of {', '.join(res.FORMATS)}", code="invalid_format")
    _in(spec.rounds, (1, MAX_ROUNDS), "the number of rounds", "invalid_rounds")
    _in(spec.timer_seconds, TIMER_RANGE, "the decision timer (seconds; a tournament needs one)", "invalid_timer")
    _in(spec.round_minutes, ROUND_MINUTES, "a round's length (minutes)", "invalid_round_length")
    _in(spec.pause_minutes, PAUSE_MINUTES, "the pause between rounds (minutes)", "invalid_pause")
    if spec.seeding not in ("random", "rating"):
        raise Invalid("round 1 is seated at random or by rating", code="invalid_seeding")
    if spec.start_at.tzinfo is None:
        raise Invalid("the start time needs its time zone (e.g. 2026-12-24T19:00:00+01:00)", code="invalid_start")
    if spec.start_at < club.clock.now() - timedelta(minutes=1):
        raise Invalid("the start time is in the past", code="invalid_start")
    if spec.hands is not None:
        _in(spec.hands, (1, 999), "the number of hands a round", "invalid_hands")
    try:
        settings = game.normalize_settings(dict(spec.settings or {}))
        game.normalize_settings(game.tournament.round_settings(settings, spec.hands))
        if spec.place_points is not None:
            check_place_points(spec.place_points, game.seats_for(settings))
    except SettingsError as e:
        raise Invalid(str(e), code="invalid_settings") from None
    return settings, spec.hands


def create(club: Club, member: CurrentMember, spec: TournamentSpec) -> int:
    if not may_organize(member):
        raise Forbidden("only the Club's admins and organizers create tournaments", code="not_an_organizer")
    settings, hands = _check(club, spec)
    with club.db.write() as s:
        t = Tournament(
            name=spec.name.strip(), game=spec.game, settings=settings, format=spec.format, rounds=spec.rounds,
            hands=hands, start_at=spec.start_at.astimezone(timezone.utc), timer_seconds=spec.timer_seconds,
            round_minutes=spec.round_minutes, pause_minutes=spec.pause_minutes, robot_field=spec.robot_field,
            bots_allowed=spec.bots_allowed,
            place_points=[float(p) for p in spec.place_points] if spec.place_points else None,
            seeding=spec.seeding, secret=new_secret(), status="registration", current_round=0,
            next_round_at=spec.start_at.astimezone(timezone.utc), organizer_id=member.id,
        )
        s.add(t)
        s.flush()
        tournament_id = t.id
    rounds.advance(club, tournament_id)  # a start time of now starts it at once
    return tournament_id


def _locked(club: Club, s: Session, tournament_id: int) -> Tournament:
    t = s.scalar(for_update(select(Tournament).where(Tournament.id == tournament_id), club.db))
    if t is None:
        raise NotFound(f"there is no tournament {tournament_id}", code="no_such_tournament")
    return t


def _organizer(t: Tournament, member: CurrentMember) -> None:
    if not (member.is_admin or t.organizer_id == member.id):
        raise Forbidden("only its organizer (or an admin) runs a tournament", code="not_the_organizer")


def late_join_open(t: Tournament) -> bool:
    """T7: a member may join until half of the rounds have started."""
    return t.status in ("registration", "running", "paused") and t.current_round < t.rounds / 2


def register(club: Club, member: CurrentMember, tournament_id: int) -> dict[str, Any]:
    with club.db.write() as s:
        t = _locked(club, s, tournament_id)
        row = s.get(TournamentPlayer, (t.id, member.id))
        if row is not None and row.removed:
            raise Forbidden("the organizer removed you from this tournament", code="removed")
        if row is not None and row.left_round is not None:  # after his first round began: for good (T10)
            raise Conflict("you withdrew from this tournament", code="withdrawn")
        if not late_join_open(t):
            raise Conflict("registration is closed: half of the rounds have started", code="registration_closed")
        if member.role == "bot" and not t.bots_allowed:
            raise Forbidden("this tournament does not allow bots", code="bots_not_allowed")
        # Fair play: any two players may meet at a table, so never a bot and its owner.
        check_together(s, [*(p.member_id for p in t.players if not p.removed and p.left_round is None), member.id])
        if row is not None and row.left_round is None:
            raise Conflict("you are registered already", code="already_registered")
        first = t.current_round + 1  # a late join plays from the next round (T7)
        s.add(TournamentPlayer(tournament_id=t.id, member_id=member.id, joined_round=first,
                               joined_at=club.clock.now()))
    _changed(club, tournament_id)
    return {"registered": True, "from_round": first}


# "Povuci": undo a registration, or withdraw for good (T7, T10): app/tournaments/withdrawal.py.
leave = withdrawal.leave


def remove_player(club: Club, member: CurrentMember, tournament_id: int, name: str) -> dict[str, Any]:
    """T6: the organizer removes a player; a seat he has in the running round goes to a
    computer player at once."""
    taken: list[int] = []
    with club.db.write() as s:
        t = _locked(club, s, tournament_id)
        _organizer(t, member)
        target = s.scalar(select(Member).where(Member.name_key == str(name).lower()))
        row = s.get(TournamentPlayer, (t.id, target.id)) if target is not None else None
        if row is None or row.removed:
            raise NotFound(f"{name!r} does not play in this tournament", code="not_registered")
        if t.status == "finished":
            raise Conflict("this tournament is over", code="tournament_over")
        row.removed = True
        row.left_round = row.left_round or t.current_round + 1
        for p in rounds.round_tables(s, t.id, t.current_round):
            seat = seat_of(p, target.id)
            if p.status == "running" and seat is not None and not p.seats[seat].taken_over:
                p.seats[seat].taken_over = True
                taken.append(p.id)
    for partie_id in taken:
        club.notify_partie(partie_id, {"kind": "seats"})
        club.poke_bots(partie_id)
    _changed(club, tournament_id)
    return {"removed": name}


def start_now(club: Club, member: CurrentMember, tournament_id: int) -> dict[str, Any]:
    """The organizer starts the next round now (the first one before its time, or the
    next one before the pause is over)."""
    with club.db.write() as s:
        t = _locked(club, s, tournament_id)
        _organizer(t, member)
        if t.status in ("finished", "cancelled") or t.current_round >= t.rounds:
            raise Conflict("no round is left to start", code="no_round_left")
        if t.current_round:
            rnd = s.get(TournamentRound, (t.id, t.current_round))
            if rnd is not None and rnd.ended_at is None:
                raise Conflict(f"round {t.current_round} is still being played", code="round_running")
        if t.status == "paused":
            t.status = "running" if t.current_round else "registration"
        t.next_round_at = club.clock.now()
    rounds.advance(club, tournament_id)
    return detail(club, tournament_id, member)


def pause(club: Club, member: CurrentMember, tournament_id: int, paused: bool) -> dict[str, Any]:
    """Paused, no round starts (the one being played goes on); resumed, the next round
    starts after the usual pause."""
    with club.db.write() as s:
        t = _locked(club, s, tournament_id)
        _organizer(t, member)
        if t.status in ("finished", "cancelled"):
            raise Conflict("this tournament is over", code="tournament_over")
        if paused:
            if t.status == "paused":
                raise Conflict("the tournament is paused already", code="already_paused")
            t.status = "paused"
        else:
            if t.status != "paused":
                raise Conflict("the tournament is not paused", code="not_paused")
            t.status = "running" if t.current_round else "registration"
            if t.current_round == 0:
                t.next_round_at = max(t.start_at, club.clock.now())
            else:
                rnd = s.get(TournamentRound, (t.id, t.current_round))
                if rnd is not None and rnd.ended_at is not None and t.current_round < t.rounds:
                    t.next_round_at = club.clock.now() + timedelta(minutes=t.pause_minutes)
    rounds.advance(club, tournament_id)
    _changed(club, tournament_id)
    return detail(club, tournament_id, member)


def set_organizer(club: Club, admin: CurrentMember, name: str, organizer: bool) -> dict[str, Any]:
    """An admin names a member an organizer of tournaments (or takes it back)."""
    if not admin.is_admin:
        raise Forbidden("only an admin names organizers", code="not_an_admin")
    with club.db.write() as s:
        target = s.scalar(select(Member).where(Member.name_key == str(name).lower()))
        if target is None:
            raise NotFound(f"no member named {name!r}", code="no_such_member")
        if target.role == "admin":
            raise Conflict("an admin organizes tournaments already", code="is_admin")
        if target.bot_owner_id is not None:
            raise Conflict(f"{target.name} is a bot account", code="is_a_bot")
        target.role = "organizer" if organizer else "member"
        return {"name": target.name, "role": target.role}


def _changed(club: Club, tournament_id: int) -> None:
    club.hub.publish(rounds.channel(tournament_id), {"kind": "tournament", "tournament": tournament_id})


# --- reading ---------------------------------------------------------------------------

def _names(s: Session, ids: set[int]) -> dict[int, str]:
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
    names = _names(s, {m for ids in firsts.values() for m in ids})
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
        else:
            levels = BOT_NAMES.get(row.bot or "", BOT_NAMES["majstor"])
            seats.append({"seat": row.seat, "name": levels[row.seat % len(levels)], "member": False, "computer": True})
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
        names = _names(s, ids | {t.organizer_id})
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
        names = _names(s, {m for tab in tables for m in tab["players"] if m})
    k = board - 1
    from app.tournaments.scoring import BoardResult, matchpoints  # the pure step

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
