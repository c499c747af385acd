"""The bot ladder: a weekly tournament of bots on duplicate deals (docs/bots.md).

With ``KLUB_BOT_LADDER`` on, the Club keeps one such tournament announced: every Sunday
at 18:00 UTC, ``duplikat``, open to bots (``bot:tournament``), with the Club's pocetnik,
iskusan and majstor registered as fixed references in the field (app/members/references.py),
organized by the Club's first admin. The game goes round the Club's games week by week.
:func:`ensure_weekly` is idempotent (it looks the week's tournament up by its name);
:func:`keep_weekly` runs it at start and whenever the Club's clock has moved on.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from fastapi.concurrency import run_in_threadpool
from sqlalchemy import select

from app.members import references
from app.db.models import Member, Tournament, TournamentPlayer
from app.games.registry import descriptor, descriptors
from app.members.service import CurrentMember
from app.tournaments import service as tournaments
from app.watchers import watch

if TYPE_CHECKING:
    from app.club import Club

log = logging.getLogger("klub.bots.ladder")

START_WEEKDAY, START_HOUR = 6, 18  # Sunday, 18:00 UTC
ROUNDS, TIMER, ROUND_MINUTES, PAUSE_MINUTES = 3, 30, 60, 5
HANDS = 6  # hands a round, in a game whose round counts hands
LOOK_SECONDS = 3600


def name_for(start: datetime) -> str:
    year, week, _ = start.isocalendar()
    return f"Bot ladder {year}-W{week:02d}"


def next_start(now: datetime) -> datetime:
    """The next Sunday 18:00 UTC after ``now``."""
    now = now.astimezone(timezone.utc)
    day = now.replace(hour=START_HOUR, minute=0, second=0, microsecond=0)
    day += timedelta(days=(START_WEEKDAY - day.weekday()) % 7)
    return day if day > now else day + timedelta(days=7)


def _game_of_week(start: datetime) -> str:
    games = [d for d in descriptors() if d.tournament is not None]
    return games[start.isocalendar()[1] % len(games)].code


def _hands_a_round(game: str) -> int | None:
    """HANDS where the game's round counts hands (its tournament rules' ``round_hands``);
    None where a round is the game's whole schedule."""
    rules = descriptor(game).tournament
    return HANDS if rules is not None and rules.round_hands is not None else None


def ensure_weekly(club: Club) -> int | None:
    """The id of the coming week's ladder tournament, created (with its references) when
    it is missing; None when the Club has no admin to organize it."""
    start = next_start(club.clock.now())
    name = name_for(start)
    with club.db.read() as s:
        found = s.scalar(select(Tournament.id).where(Tournament.name == name, Tournament.bots_allowed.is_(True)))
        admin = s.scalar(select(Member).where(Member.role == "admin", Member.disabled.is_(False)).order_by(Member.id))
    if found is not None:
        return found
    if admin is None:
        log.info("no admin to organize the bot ladder")
        return None
    organizer = CurrentMember(admin.id, admin.name, admin.role, "bot-ladder")
    game = _game_of_week(start)
    spec = tournaments.TournamentSpec(
        name=name, game=game, format="duplikat", rounds=ROUNDS, start_at=start, timer_seconds=TIMER,
        round_minutes=ROUND_MINUTES, pause_minutes=PAUSE_MINUTES, bots_allowed=True,
        hands=_hands_a_round(game),
    )
    tournament_id = tournaments.create(club, organizer, spec)
    refs = references.ensure(club.db)
    with club.db.write() as s:
        for member_id in refs.values():
            s.add(TournamentPlayer(tournament_id=tournament_id, member_id=member_id, joined_round=1,
                                   joined_at=club.clock.now()))
    return tournament_id


async def keep_weekly(club: Club) -> None:
    """Keep the coming week's ladder announced: at start, then every hour of the Club's
    clock (tests move a manual clock, which wakes this at once)."""
    async def look() -> None:
        await run_in_threadpool(ensure_weekly, club)

    await watch(club.clock, LOOK_SECONDS, look, log, "the bot ladder could not be announced")
