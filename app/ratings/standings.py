"""The standings of one game: members by rating, with the parties they played and their
places, over a period.

The period chooses which parties are counted (parties, places, last active: only those
finished in it) and who is listed (members with a counted partie in it); the ratings are
always the current ones. Parties of house rules are counted but rate nobody, so a member
who played only those is listed without a rating, after the rated members. Disabled
members are left out.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, case, func, select

from app.db import Database
from app.db.models import Member, Rating, RatingEvent
from app.db.types import utcnow
from app.errors import Invalid
from app.games.registry import codes
from app.ratings.method import ORDINAL_Z, Skill, provisional
from app.parties.engines import game_of

# period -> days back (None: all time), in the order the filters show them.
PERIODS: dict[str, int | None] = {"all": None, "30d": 30, "365d": 365}
# Members per page of the standings.
PAGE_SIZE = 100


def check_filters(game: str | None, period: str | None) -> tuple[str, str]:
    """The game (default: the first the Club lists) and period asked for, or
    :class:`~app.errors.ClubError` 422 (``unknown_game``, ``invalid_period``)."""
    code = game_of(game).code if game else codes()[0]
    period = period or "all"
    if period not in PERIODS:
        raise Invalid(f"period is one of {', '.join(PERIODS)}", code="invalid_period")
    return code, period


def default_game(db: Database, member_id: int | None = None) -> str:
    """The game the standings open on: the one the member finished most parties of, else
    the Club's most played one, else the first the Club lists (ties: the Club's order)."""
    order = {code: i for i, code in enumerate(codes())}

    def most(rows) -> str | None:
        counted = [(n, code) for code, n in rows if code in order]
        return min(counted, key=lambda x: (-x[0], order[x[1]]))[1] if counted else None

    base = select(RatingEvent.game, func.count()).group_by(RatingEvent.game)
    with db.read() as s:
        mine = most(s.execute(base.where(RatingEvent.member_id == member_id))) if member_id is not None else None
        return mine or most(s.execute(base)) or codes()[0]


def since_of(period: str, now: datetime | None = None) -> datetime | None:
    """The start of a period (None: all time)."""
    days = PERIODS[period]
    return None if days is None else (now or utcnow()) - timedelta(days=days)


def standings(db: Database, game: str | None = None, period: str | None = None, page: int = 1,
              now: datetime | None = None, bots: bool = False) -> dict[str, Any]:
    """One page of the standings of a game over a period: ``{"game", "period", "since",
    "seats", "page", "page_size", "total", "members": [{"rank", "name", "rating", "mu",
    "sigma", "provisional", "rated_parties", "parties", "places", "last_active"}]}``;
    ``places[i]`` counts the parties finished in place ``i + 1``; ``rating`` and ``rank``
    are None for a member not rated in the game (listed after the rated ones).

    Bot accounts (app/bots/) are never listed with the members: ``bots=True`` gives
    their own standings instead, each with its ``owner``."""
    code, period = check_filters(game, period)
    since = since_of(period, now)
    seats = game_of(code).seats
    page = max(1, page)
    counted = (
        select(RatingEvent.member_id, func.count().label("parties"),
               func.max(RatingEvent.finished_at).label("last_active"),
               *(func.sum(case((RatingEvent.place == i, 1), else_=0)).label(f"place{i}") for i in range(1, seats + 1)))
        .where(RatingEvent.game == code).group_by(RatingEvent.member_id)
    )
    if since is not None:
        counted = counted.where(RatingEvent.finished_at >= since)
    c = counted.subquery()
    stmt = (
        select(Member.name, Member.bot_owner_name, c, Rating.mu, Rating.sigma, Rating.rating, Rating.parties.label("rated_parties"),
               func.count().over().label("total"))
        .join(Member, Member.id == c.c.member_id)
        .outerjoin(Rating, and_(Rating.member_id == c.c.member_id, Rating.game == code))
        .where(Member.disabled.is_(False), _pool(bots))
        .order_by(Rating.rating.is_(None), Rating.rating.desc(), (Rating.mu - ORDINAL_Z * Rating.sigma).desc(),
                  c.c.parties.desc(), Member.name_key)
        .limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE)
    )
    listed = []
    total = 0
    with db.read() as s:
        for position, row in enumerate(s.execute(stmt), (page - 1) * PAGE_SIZE + 1):
            total = row.total
            rated = row.rating is not None
            listed.append({
                "rank": position if rated else None,
                "name": row.name,
                **({"owner": row.bot_owner_name} if bots else {}),
                "rating": row.rating,
                "mu": row.mu,
                "sigma": row.sigma,
                "provisional": provisional(Skill(row.mu, row.sigma), row.rated_parties) if rated else None,
                "rated_parties": row.rated_parties or 0,
                "parties": row.parties,
                "places": [int(getattr(row, f"place{i}") or 0) for i in range(1, seats + 1)],
                "last_active": row.last_active,
            })
        if not listed and page > 1:
            total = s.scalar(select(func.count()).select_from(c.join(Member, Member.id == c.c.member_id))
                             .where(Member.disabled.is_(False), _pool(bots))) or 0
    return {"game": code, "period": period, "since": since, "seats": seats, "page": page, "page_size": PAGE_SIZE,
            "total": total, "members": listed}


def _pool(bots: bool):
    """The members' pool (no bot accounts) or the bots' own."""
    return Member.bot_owner_id.is_not(None) if bots else Member.bot_owner_id.is_(None)

