"""Leagues: an organizer of the Club (an admin, or a member an admin named an organizer)
creates one; members register for the season (entered into every evening from the next
one), leave it, skip an evening in advance or take the skip back; so do bot accounts in a
league that allows bots (through the bot API, L9).
The calendar itself: :mod:`app.leagues.evenings`; what the pages and the API read:
:mod:`app.leagues.reading`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.database import for_update
from app.db.models import League, LeagueEvening, LeagueMember, LeagueSkip, Tournament
from app.errors import ClubError, Conflict, Forbidden, Invalid, NotFound
from app.members.service import CurrentMember
from app.parties.fairplay import check_together
from app.tournaments import service as tournaments
from app.tournaments import withdrawal
from app.zones import zone_named

from app.leagues import calendar, evenings

if TYPE_CHECKING:
    from app.club import Club

SCORINGS = ("places", "percentage")
MAX_EVENINGS = 52
MAX_SCALE = 64
OPEN_HOURS = (1, 14 * 24)


@dataclass(frozen=True)
class LeagueSpec:
    """What an admin chooses (the API's body)."""

    name: str
    game: str
    format: str
    rounds: int
    weekday: int
    start_time: str
    zone: str
    first_date: date
    evenings: int
    best_of: int
    settings: dict[str, Any] = field(default_factory=dict)
    hands: int | None = None
    timer_seconds: int = 60
    round_minutes: int = 90
    pause_minutes: int = 2
    skipped_dates: list[date] = field(default_factory=list)
    open_hours: int = 24
    scoring: str = "places"
    scale: list[float] | None = None
    final_top: int | None = None
    bots_allowed: bool = False


def _int_in(value: Any, low: int, high: int, what: str, code: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Invalid(f"{what} is {low} to {high}", code=code)
    return value


def _check(club: Club, spec: LeagueSpec) -> tuple[dict[str, Any], list[float] | None, datetime]:
    _int_in(spec.weekday, 0, 6, "the weekday (0 Monday .. 6 Sunday)", "invalid_weekday")
    _int_in(spec.evenings, 1, MAX_EVENINGS, "the number of evenings", "invalid_evenings")
    _int_in(spec.best_of, 1, spec.evenings, "the evenings that count (best K of N)", "invalid_best_of")
    _int_in(spec.open_hours, *OPEN_HOURS, "how many hours before an evening its registration opens", "invalid_open_hours")
    if spec.final_top is not None:
        _int_in(spec.final_top, 2, 256, "the final's players (top M)", "invalid_final")
    zone_named(spec.zone)
    try:
        calendar.parse_time(spec.start_time)
    except ValueError:
        raise Invalid("the start time is HH:MM (24 hours)", code="invalid_time") from None
    try:
        starts = calendar.starts(spec.weekday, spec.first_date, spec.evenings, frozenset(spec.skipped_dates),
                                 spec.start_time, spec.zone)
    except ValueError as e:
        raise Invalid(str(e), code="invalid_calendar") from None
    except OverflowError:  # a first date at the calendar's ends (year 1 or 9999)
        raise Invalid("the first date is out of range", code="invalid_calendar") from None
    if spec.scoring not in SCORINGS:
        raise Invalid(f"the season's score is one of {', '.join(SCORINGS)}", code="invalid_scoring")
    scale = None
    if spec.scoring == "percentage":
        if spec.format != "duplikat":
            raise Invalid("an evening's percentage is a duplikat's", code="invalid_scoring")
    else:
        points = spec.scale
        if (not isinstance(points, list) or not 1 <= len(points) <= MAX_SCALE
                or not all(isinstance(p, (int, float)) and not isinstance(p, bool) and 0 <= p <= 1000 for p in points)
                or any(a < b for a, b in zip(points, points[1:]))):
            raise Invalid(f"the scale is 1 to {MAX_SCALE} league points by place (0 to 1000, never rising)",
                          code="invalid_scale")
        scale = [float(p) for p in points]
    # The evenings' tournament template: the tournaments' own checks (name, game, format,
    # rounds, timer, lengths, settings, hands; the first evening not in the past).
    settings, _ = tournaments.check_spec(club, tournaments.TournamentSpec(
        name=spec.name, game=spec.game, format=spec.format, rounds=spec.rounds, start_at=starts[0],
        settings=spec.settings, hands=spec.hands, timer_seconds=spec.timer_seconds,
        round_minutes=spec.round_minutes, pause_minutes=spec.pause_minutes))
    return settings, scale, starts[0]


def create(club: Club, member: CurrentMember, spec: LeagueSpec) -> int:
    if not tournaments.may_organize(member):
        raise Forbidden("only the Club's admins and organizers create leagues", code="not_an_organizer")
    settings, scale, _ = _check(club, spec)
    with club.db.write() as s:
        lg = League(
            name=spec.name.strip(), game=spec.game, settings=settings, format=spec.format, rounds=spec.rounds,
            hands=spec.hands, timer_seconds=spec.timer_seconds, round_minutes=spec.round_minutes,
            pause_minutes=spec.pause_minutes, weekday=spec.weekday, start_time=spec.start_time, zone=spec.zone,
            first_date=spec.first_date, evenings=spec.evenings,
            skipped_dates=sorted(d.isoformat() for d in set(spec.skipped_dates)), open_hours=spec.open_hours,
            scoring=spec.scoring, scale=scale, best_of=spec.best_of, final_top=spec.final_top,
            bots_allowed=bool(spec.bots_allowed), moves={}, status="active",
            organizer_id=member.id, created_at=club.clock.now())
        s.add(lg)
        s.flush()
        league_id = lg.id
    evenings.run_due(club)  # an evening due already is created at once
    return league_id


def _locked(club: Club, s: Session, league_id: int) -> League:
    lg = s.scalar(for_update(select(League).where(League.id == league_id), club.db))
    if lg is None:
        raise NotFound(f"there is no league {league_id}", code="no_such_league")
    return lg


def next_open(s: Session, lg: League) -> tuple[int, int | None]:
    """The first evening not started yet (N + 1 when all have), and its tournament if
    it has been created."""
    rows = s.execute(select(LeagueEvening.evening_no, Tournament.id, Tournament.status, Tournament.current_round)
                     .join(Tournament, Tournament.id == LeagueEvening.tournament_id)
                     .where(LeagueEvening.league_id == lg.id).order_by(LeagueEvening.evening_no)).all()
    started = [no for no, _, status, current in rows if current > 0 or status in evenings.OVER]
    first = max(started, default=0) + 1
    tournament = next((tid for no, tid, _, _ in rows if no == first), None)
    return first, tournament


def _enter(club: Club, member: CurrentMember, tournament_id: int | None) -> None:
    if tournament_id is None:
        return
    try:
        tournaments.register(club, member, tournament_id)
    except Conflict as e:
        if e.code != "already_registered":
            raise


def _withdraw(club: Club, member: CurrentMember, tournament_id: int | None) -> None:
    if tournament_id is None:
        return
    try:
        withdrawal.leave(club, member, tournament_id)  # before its first round: the entry undone
    except ClubError as e:
        if e.code != "not_registered":
            raise


def register(club: Club, member: CurrentMember, league_id: int) -> dict[str, Any]:
    """Register for the season: entered into every evening from the next one not started."""
    with club.db.write() as s:
        lg = _locked(club, s, league_id)
        if member.role == "bot" and not lg.bots_allowed:
            raise Forbidden("this league does not allow bots", code="bots_not_allowed")
        if lg.status not in ("active", "paused"):
            raise Conflict("this season is over", code="season_over")
        first, tournament_id = next_open(s, lg)
        if first > lg.evenings:
            raise Conflict("every evening of this season has started", code="season_over")
        row = s.get(LeagueMember, (lg.id, member.id))
        if row is not None and row.until_evening is None:
            raise Conflict("you are registered for this season already", code="already_registered")
        # Fair play: the season's players meet at its evenings' tables, so never a bot and its owner
        check_together(s, [*s.scalars(select(LeagueMember.member_id).where(
            LeagueMember.league_id == lg.id, LeagueMember.until_evening.is_(None))), member.id])
        if row is None:
            s.add(LeagueMember(league_id=lg.id, member_id=member.id, joined_at=club.clock.now(), from_evening=first))
        else:  # back after leaving: entered again from the next evening
            row.from_evening, row.until_evening = first, None
        skipped = s.get(LeagueSkip, (lg.id, member.id, first)) is not None
    if not skipped:
        _enter(club, member, tournament_id)
    return {"registered": True, "from_evening": first}


def unregister(club: Club, member: CurrentMember, league_id: int) -> dict[str, Any]:
    """Leave the season: entered into no evening from the next one not started (the
    evenings played keep their points)."""
    with club.db.write() as s:
        lg = _locked(club, s, league_id)
        row = s.get(LeagueMember, (lg.id, member.id))
        if row is None or row.until_evening is not None:
            raise Conflict("you are not registered for this season", code="not_registered")
        first, tournament_id = next_open(s, lg)
        if first <= row.from_evening:
            s.delete(row)
        else:
            row.until_evening = first
    _withdraw(club, member, tournament_id)
    return {"registered": False, "from_evening": first}


def skip(club: Club, member: CurrentMember, league_id: int, evening_no: int, skipping: bool = True) -> dict[str, Any]:
    """Skip an evening in advance (not entered into it), or take the skip back."""
    with club.db.write() as s:
        lg = _locked(club, s, league_id)
        if not 1 <= evening_no <= lg.evenings:
            raise NotFound(f"this season has evenings 1 to {lg.evenings}", code="no_such_evening")
        row = s.get(LeagueMember, (lg.id, member.id))
        if row is None or row.until_evening is not None or evening_no < row.from_evening:
            raise Conflict("you are not registered for this evening's season", code="not_registered")
        first, tournament_id = next_open(s, lg)
        if evening_no < first:
            raise Conflict(f"evening {evening_no} has started already", code="evening_started")
        mark = s.get(LeagueSkip, (lg.id, member.id, evening_no))
        if skipping and mark is not None:
            raise Conflict(f"you skip evening {evening_no} already", code="already_skipped")
        if not skipping and mark is None:
            raise Conflict(f"you do not skip evening {evening_no}", code="not_skipped")
        if skipping:
            s.add(LeagueSkip(league_id=lg.id, member_id=member.id, evening_no=evening_no))
        else:
            s.delete(mark)
        created = s.scalar(select(LeagueEvening.tournament_id).where(
            LeagueEvening.league_id == lg.id, LeagueEvening.evening_no == evening_no))
    if created is not None and created == tournament_id:
        (_withdraw if skipping else _enter)(club, member, created)
    return {"evening": evening_no, "skipped": skipping}
