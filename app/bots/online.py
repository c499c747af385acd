"""Finding a bot to play (issue 39): the bots online, and a member's challenge to one.

A bot is online while its event stream is open: it holds the stream's lease in the bot
API's shared store (app/bots/limits.py), so every instance sees the same list. Each bot
comes with its owner, the games it is rated in and its rating there (the bots' own
standings). A member challenges an online bot: a proposal that invites it, the Club's
computer players at the other seats; the bot accepts it or declines it with a reason
(app/parties/declines.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import aliased

from app.bots.accounts import BOT_ROLE
from app.bots.play import limits_of
from app.db.models import Member, Rating
from app.errors import Conflict, NotFound
from app.games.base import GameError
from app.members.service import CurrentMember
from app.parties import proposals
from app.parties.engines import game_of

if TYPE_CHECKING:
    from app.club import Club

MAX_LISTED = 200


def online(club: Club) -> list[dict[str, Any]]:
    """The bots whose event stream is open, by name: ``name``, ``owner``, ``games``
    (``[{"game", "rating", "parties"}]``, the games it is rated in), ``rating`` (its best)."""
    limits = limits_of(club)
    owner = aliased(Member)
    with club.db.read() as s:
        rows = s.execute(
            select(Member.id, Member.name, owner.name).join(owner, owner.id == Member.bot_owner_id)
            .where(Member.role == BOT_ROLE, Member.disabled.is_(False), owner.disabled.is_(False))
            .order_by(Member.name_key)
        ).all()
        up = [(bot_id, name, owner_name) for bot_id, name, owner_name in rows if limits.stream_is_open(bot_id)]
        up = up[:MAX_LISTED]
        ratings: dict[int, list[dict[str, Any]]] = {bot_id: [] for bot_id, _, _ in up}
        if up:
            for r in s.scalars(select(Rating).where(Rating.member_id.in_(list(ratings))).order_by(Rating.game)):
                ratings[r.member_id].append({"game": r.game, "rating": r.rating, "parties": r.parties})
    return [{"name": name, "owner": owner_name, "games": ratings[bot_id],
             "rating": max((g["rating"] for g in ratings[bot_id]), default=None)}
            for bot_id, name, owner_name in up]


def bot_card(club: Club, name: str) -> dict[str, Any] | None:
    """What a bot's profile page shows to challenge it (None: ``name`` is no bot, or a
    retired one): its name, owner and whether it is online now."""
    owner = aliased(Member)
    with club.db.read() as s:
        row = s.execute(
            select(Member.id, Member.name, owner.name).join(owner, owner.id == Member.bot_owner_id)
            .where(Member.name_key == str(name).lower(), Member.role == BOT_ROLE, Member.disabled.is_(False))
        ).first()
    if row is None:
        return None
    bot_id, bot_name, owner_name = row
    return {"name": bot_name, "owner": owner_name, "online": limits_of(club).stream_is_open(bot_id)}


def challenge(club: Club, member: CurrentMember, name: str, game: str, settings: dict[str, Any] | None,
              timer: int | None, level: str | None) -> dict[str, Any]:
    """A proposal of ``member`` that invites the online bot ``name`` (seat 1), the Club's
    computer players of ``level`` at the other seats. 404 ``no_such_bot``, 409
    ``bot_offline`` (its event stream is not open: nobody would answer)."""
    with club.db.read() as s:
        bot = s.scalar(select(Member).where(Member.name_key == str(name).lower()))
        if bot is None or bot.role != BOT_ROLE or bot.disabled:
            raise NotFound(f"there is no bot named {name!r}", code="no_such_bot")
        bot_id, bot_name = bot.id, bot.name
    if not limits_of(club).stream_is_open(bot_id):
        raise Conflict(f"{bot_name} is not online (its event stream is closed): invite it from the lobby instead",
                       code="bot_offline")
    descriptor = game_of(game)
    try:
        seats = descriptor.seats_for(settings)
    except (GameError, ValueError, TypeError, KeyError):
        seats = descriptor.seats_for(None)  # the proposal names what is wrong with the settings
    specs = [proposals.SeatSpec("member", bot_name)] + [proposals.SeatSpec("bot", None, level)] * (seats - 2)
    partie_id = proposals.propose(club, member, game, settings, timer, specs)
    return proposals.get_summary(club, partie_id, member)
