"""Tournaments: the organizer creates one, members register and leave, the organizer
starts a round early, pauses, resumes or removes a player. The pages and the API read
them in :mod:`app.tournaments.reading` (a board's traveller: :mod:`app.tournaments.traveller`);
the rounds themselves: :mod:`app.tournaments.rounds`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.database import for_update
from app.db.models import Member, Tournament, TournamentPlayer, TournamentRound
from app.errors import Conflict, Forbidden, Invalid, NotFound
from app.games.base import TIMER_RANGE, SettingsError
from app.parties.fairplay import check_together
from app.games.tournament import check_place_points
from app.members.service import CurrentMember
from app.parties.lookup import seat_of
from app.parties.engines import game_of
from app.tournaments import results as res
from app.tournaments import rounds, withdrawal
from app.tournaments.reading import detail, late_join_open
from app.tournaments.secret import new_secret

if TYPE_CHECKING:
    from app.club import Club

ORGANIZER_ROLES = ("admin", "organizer")
MAX_ROUNDS = 15
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
    hands: int | None = None  # hands per round where the game's round counts them (P13); None: its default
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


def check_spec(club: Club, spec: TournamentSpec) -> tuple[dict[str, Any], int | None]:
    """An organizer's choice checked (also a league's evenings' template, app/leagues/):
    the settings normalized, the hands."""
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
    settings, hands = check_spec(club, spec)
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
