"""What a bot does over the API, as service functions: answer an invitation, take a
bot-open seat, propose a partie, say a word, join a tournament. Each is the members'
own path (app/parties/proposals.py, app/tables/service.py, app/tournaments/service.py)
behind the bot's scope and limits (app/bots/limits.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import func, or_, select

from app.bots.accounts import CurrentBot
from app.bots.limits import BotLimits
from app.db.models import Partie, PartieSeat
from app.parties import declines, leaving, proposals
from app.tables import chat, service
from app.tables.words import Applied
from app.tournaments import service as tournaments

if TYPE_CHECKING:
    from app.club import Club

PLAY, CHALLENGE, TOURNAMENT, CHAT = "bot:play", "bot:challenge", "bot:tournament", "bot:chat"


def limits_of(club: Club) -> BotLimits:
    if club.bot_limits is None:
        club.bot_limits = BotLimits(club.settings)
    return club.bot_limits


def tables_in_use(club: Club, bot_id: int) -> int:
    """The tables a bot sits at: running parties, and proposals it accepted (or made)."""
    with club.db.read() as s:
        return s.scalar(
            select(func.count()).select_from(Partie).join(PartieSeat, PartieSeat.partie_id == Partie.id)
            .where(PartieSeat.member_id == bot_id, PartieSeat.taken_over.is_(False),
                   or_(Partie.status == "running", (Partie.status == "proposed") & (PartieSeat.answer == "accepted")))
        ) or 0


def _new_partie(club: Club, bot: CurrentBot) -> BotLimits:
    """The limits a new table of the bot must pass (tables at once, parties a day)."""
    limits = limits_of(club)
    limits.check_tables(tables_in_use(club, bot.id))
    limits.check_new_partie(bot.id)
    return limits


def answer(club: Club, bot: CurrentBot, partie_id: int, accept: bool, reason: str | None = None) -> dict[str, Any]:
    """Accept an invitation, or decline it (with a reason: app/parties/declines.py)."""
    bot.require(PLAY)
    if not accept:
        reason = declines.check_reason(reason)
        declines.give_reason(club, bot.id, partie_id, reason)
        return proposals.answer(club, bot.member, partie_id, False)
    limits = _new_partie(club, bot)
    out = proposals.answer(club, bot.member, partie_id, True)
    limits.count_new_partie(bot.id)
    return out


def join(club: Club, bot: CurrentBot, partie_id: int, seat: int | None) -> dict[str, Any]:
    bot.require(PLAY)
    limits = _new_partie(club, bot)
    out = proposals.join(club, bot.member, partie_id, seat)
    limits.count_new_partie(bot.id)
    return out


def propose(club: Club, bot: CurrentBot, game: str, settings: dict[str, Any] | None, timer: int | None,
            seats: list[proposals.SeatSpec]) -> dict[str, Any]:
    bot.require(CHALLENGE)
    limits = _new_partie(club, bot)
    partie_id = proposals.propose(club, bot.member, game, settings, timer, seats)
    limits.count_new_partie(bot.id)
    return proposals.get_summary(club, partie_id, bot.member)


def withdraw(club: Club, bot: CurrentBot, partie_id: int) -> dict[str, Any]:
    bot.require(CHALLENGE)
    proposals.withdraw(club, bot.member, partie_id)
    return proposals.get_summary(club, partie_id, bot.member)


def leave(club: Club, bot: CurrentBot, partie_id: int) -> dict[str, Any]:
    """Leave a running partie for good, as a member does (app/parties/leaving.py): the
    Club's computer player plays the bot's seat from now on, and the table no longer
    counts among the bot's tables. At a tournament table the bot withdraws from the
    tournament (rulings T10)."""
    bot.require(PLAY)
    return leaving.leave(club, bot.member, partie_id)


def say(club: Club, bot: CurrentBot, partie_id: int, word: str, version: int, action_id: str | None) -> Applied:
    """A word for the bot's seat: the members' path (same version check, same action ids)."""
    bot.require(PLAY)
    limits_of(club).word(bot.token_id)
    return service.submit(club, partie_id, bot.member, word, version, action_id)


def chat_history(club: Club, bot: CurrentBot, partie_id: int) -> list[dict[str, Any]]:
    bot.require(PLAY)
    return chat.history(club, partie_id, bot.id)


def open_seats(club: Club, bot: CurrentBot) -> list[dict[str, Any]]:
    """Proposals with a bot-open seat the bot may take."""
    bot.require(PLAY)
    with club.db.read() as s:
        found = s.scalars(
            select(Partie).where(Partie.status == "proposed", Partie.id.in_(
                select(PartieSeat.partie_id).where(PartieSeat.kind == "bot_open", PartieSeat.member_id.is_(None))))
            .order_by(Partie.id).limit(100)
        ).all()
        return [proposals.proposal_summary(p, bot.id) for p in found]


def my_parties(club: Club, bot: CurrentBot) -> dict[str, list[dict[str, Any]]]:
    """The bot's invitations, its own proposals, the proposals it accepted, its running tables."""
    bot.require(PLAY)
    lobby = proposals.lobby(club, bot.member)
    return {key: lobby[key] for key in ("invitations", "mine", "accepted", "playing")}


def register(club: Club, bot: CurrentBot, tournament_id: int) -> dict[str, Any]:
    bot.require(TOURNAMENT)
    return tournaments.register(club, bot.member, tournament_id)


def leave_tournament(club: Club, bot: CurrentBot, tournament_id: int) -> dict[str, Any]:
    bot.require(TOURNAMENT)
    return tournaments.leave(club, bot.member, tournament_id)


def post_chat(club: Club, bot: CurrentBot, partie_id: int, text: str) -> dict[str, Any]:
    """A message in the chat of a table where the bot sits (scope ``bot:chat``), at most
    ``bot_chat_per_minute`` a minute; marked as a bot's (with its owner) for every reader,
    and left out for the members who muted the bot's chat (app/tables/chat.py)."""
    bot.require(CHAT)
    limits = limits_of(club)
    limits.check_chat(bot.id)
    out = chat.post(club, bot.member, partie_id, text)
    limits.count_chat(bot.id)
    return out
