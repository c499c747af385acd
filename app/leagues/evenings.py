"""The calendar runs itself: each evening is an ordinary tournament, created from the
league's template ``open_hours`` before it starts (its registration opens then), with the
season's members entered (those who skip it left out; one who joined mid-season from his
first evening on). The tournament's own machinery (app/tournaments/rounds.py) then starts,
plays and ends it like any other.

:func:`step` is idempotent and reads everything from the database: the evening's row has
a unique key (league, evening number), so two instances never create the same evening
twice (the one that loses the race rolls back). :func:`watch_leagues` runs it on the
Club's clock (tests move that clock), started with the app.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from fastapi.concurrency import run_in_threadpool
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.database import for_update
from app.db.models import League, LeagueEvening, LeagueMember, LeagueSkip, Member, Tournament, TournamentPlayer
from app.realtime import notices
from app.tournaments import rounds
from app.tournaments.secret import new_secret

from app.leagues import reminders, season
from app.leagues.calendar import league_starts
from app.watchers import watch

if TYPE_CHECKING:
    from app.club import Club

log = logging.getLogger("klub.leagues")
OVER = ("finished", "cancelled")


def entrants(s: Session, league_id: int, evening_no: int) -> list[int]:
    """The season's members entered into evening ``evening_no``, in registration order."""
    skipping = select(LeagueSkip.member_id).where(LeagueSkip.league_id == league_id,
                                                  LeagueSkip.evening_no == evening_no)
    return list(s.scalars(
        select(LeagueMember.member_id).where(
            LeagueMember.league_id == league_id, LeagueMember.from_evening <= evening_no,
            (LeagueMember.until_evening.is_(None)) | (LeagueMember.until_evening > evening_no),
            LeagueMember.member_id.not_in(skipping))
        .order_by(LeagueMember.joined_at, LeagueMember.member_id)))


def evening_name(league: League, evening_no: int) -> str:
    return f"{league.name[:64]}, {'finale' if evening_no > league.evenings else f'veče {evening_no}'}"


def season_rows(s: Session, lg: League, by_evening: dict[int, Tournament],
                before_last: bool = False, bots: bool = False) -> list[season.SeasonRow]:
    """The season's table from its ended evenings (the final is not one of them); with
    ``before_last``, as it stood before the last ended evening (the week's movement). The
    members' table, or with ``bots`` the bot accounts' own (L9: each reads the evenings'
    standings among its own kind only)."""
    members = list(s.scalars(select(LeagueMember.member_id).where(LeagueMember.league_id == lg.id)
                             .order_by(LeagueMember.joined_at, LeagueMember.member_id)))
    ended = [(no, t.standings or []) for no, t in sorted(by_evening.items())
             if t.status == "finished" and no <= lg.evenings]
    if before_last:
        ended = ended[:-1]
    players = {row.get("player") for _, standings in ended for row in standings} | set(members)
    robots = set(s.scalars(select(Member.id).where(Member.id.in_([p for p in players if p is not None]),
                                                   Member.bot_owner_id.is_not(None)))) if players else set()
    keep = {p for p in players if p is not None and (p in robots) == bots}
    ended = [(no, season.among(standings, keep)) for no, standings in ended]
    return season.table(ended, [m for m in members if m in keep], lg.scoring, lg.scale, lg.best_of, lg.evenings)


def evenings_of(s: Session, league_id: int) -> dict[int, Tournament]:
    """Each created evening's tournament (the final: evening N + 1)."""
    rows = s.execute(select(LeagueEvening.evening_no, Tournament).join(
        Tournament, Tournament.id == LeagueEvening.tournament_id).where(LeagueEvening.league_id == league_id))
    return {no: t for no, t in rows}


def finalists(s: Session, lg: League, by_evening: dict[int, Tournament]) -> list[int]:
    """L5: the first M of the final season table who played an evening."""
    return [r.player for r in season_rows(s, lg, by_evening) if r.points][:lg.final_top or 0]


def _create(club: Club, s: Session, lg: League, evening_no: int, players: list[int] | None = None) -> int:
    starts_at = league_starts(lg)[evening_no - 1]
    now = club.clock.now()
    t = Tournament(
        name=evening_name(lg, evening_no), game=lg.game, settings=dict(lg.settings), format=lg.format,
        rounds=lg.rounds, hands=lg.hands, start_at=starts_at, timer_seconds=lg.timer_seconds,
        round_minutes=lg.round_minutes, pause_minutes=lg.pause_minutes, robot_field=False, bots_allowed=lg.bots_allowed,
        place_points=None, seeding="random", secret=new_secret(), status="registration", current_round=0,
        next_round_at=starts_at, organizer_id=lg.organizer_id, created_at=now)
    s.add(t)
    s.flush()
    s.add(LeagueEvening(league_id=lg.id, evening_no=evening_no, tournament_id=t.id, starts_at=starts_at,
                        created_at=now))
    s.flush()  # the unique key: another instance that created this evening wins here
    for i, member_id in enumerate(entrants(s, lg.id, evening_no) if players is None else players):
        s.add(TournamentPlayer(tournament_id=t.id, member_id=member_id, joined_round=1,
                               joined_at=now + timedelta(microseconds=i)))
    return t.id


def _due(s: Session, lg: League, now) -> tuple[str, int] | None:
    """What is due for an active league now: ``("create", evening)`` or ``("finish", 0)``."""
    created = s.scalar(select(func.count()).select_from(LeagueEvening).where(LeagueEvening.league_id == lg.id)) or 0
    if created >= lg.evenings:
        statuses = s.scalars(select(Tournament.status).join(LeagueEvening, LeagueEvening.tournament_id == Tournament.id)
                             .where(LeagueEvening.league_id == lg.id))
        if any(st not in OVER for st in statuses):
            return None
        if not lg.final_top or created > lg.evenings:
            return "finish", 0
    if now < league_starts(lg)[created] - timedelta(hours=lg.open_hours):
        return None
    return "create", created + 1


def _step(club: Club, s: Session, league_id: int) -> int | None:
    lg = s.scalar(for_update(select(League).where(League.id == league_id), club.db))
    if lg is None or lg.status != "active":
        return None
    now = club.clock.now()
    due = _due(s, lg, now)
    if due is None:
        return None
    if due[0] == "finish":
        lg.status = "finished"
        lg.finished_at = now
        return None
    evening_no = due[1]
    if evening_no > lg.evenings:  # the final, a week after the last evening: the season's top M
        return _create(club, s, lg, evening_no, finalists(s, lg, evenings_of(s, lg.id)))
    return _create(club, s, lg, evening_no)


def step(club: Club, league_id: int) -> int | None:
    """Do what is due now for one league: create its next evening (its tournament's id) or
    close a season whose evenings are all over; None when nothing was created."""
    try:
        with club.db.write() as s:
            tournament_id = _step(club, s, league_id)
    except IntegrityError:
        log.info("an evening of league %s was created elsewhere", league_id)
        return None
    if tournament_id is not None:
        log.info("league %s: evening tournament %s created", league_id, tournament_id)
        rounds.advance(club, tournament_id)  # an evening created after its start starts at once
        tell_changed(club, tournament_id)
    return tournament_id


def tell_changed(club: Club, tournament_id: int) -> None:
    """An evening's tournament changed (created, moved, cancelled): its page and the lobby's lists."""
    club.hub.publish(rounds.channel(tournament_id), {"kind": "tournament", "tournament": tournament_id})
    club.hub.publish(notices.LOBBY_CHANNEL, {"kind": "tournaments", "tournament": tournament_id})


def due_leagues(club: Club) -> list[int]:
    """The active leagues with something to do now (a read: the watcher writes only then)."""
    now = club.clock.now()
    with club.db.read() as s:
        leagues = s.scalars(select(League).where(League.status == "active").order_by(League.id)).all()
        return [lg.id for lg in leagues if _due(s, lg, now) is not None]


def run_due(club: Club) -> None:
    for league_id in due_leagues(club):
        for _ in range(100):  # an instance down for weeks catches up, an evening at a time
            if step(club, league_id) is None:
                break


async def watch_leagues(club: Club) -> None:
    """Create the evenings on time, remind their players and close the seasons, on the
    Club's clock."""
    async def look() -> None:
        await run_in_threadpool(run_due, club)
        await run_in_threadpool(reminders.send_due, club)

    await watch(club.clock, club.settings.deadline_poll_seconds, look, log, "league watcher failed")
