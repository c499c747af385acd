"""What a bot reads of its own play with its token (scope ``bot:play`` or ``bot:read``):
its parties (the archive's list), the score sheet and the record of a partie it sat at,
and the bots' standings. Every read of a partie passes the one gate of the Club
(app/parties/visibility.py) and the members' own reads (app/parties/archive.py): a
running table's record keeps only the bot's own hand, never another seat's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.bots.accounts import CurrentBot
from app.errors import Forbidden
from app.parties import archive
from app.parties.lookup import get_partie, seat_of
from app.ratings.standings import standings

if TYPE_CHECKING:
    from app.club import Club

PLAY, READ = "bot:play", "bot:read"


def require_read(bot: CurrentBot) -> None:
    """``bot:play`` or ``bot:read``; 403 ``missing_scope`` (naming ``bot:read``) otherwise."""
    if PLAY not in bot.scopes:
        bot.require(READ)


def _own_partie(club: Club, bot: CurrentBot, partie_id: int) -> None:
    """404 for no such partie, 403 ``not_a_player`` for a partie the bot did not sit at."""
    require_read(bot)
    with club.db.read() as s:
        if seat_of(get_partie(s, partie_id), bot.id) is None:
            raise Forbidden("your bot did not play at this table: it reads only its own parties", code="not_a_player")


def score_sheet(club: Club, bot: CurrentBot, partie_id: int) -> dict[str, Any]:
    _own_partie(club, bot, partie_id)
    return archive.score_sheet(club, partie_id, bot.id)


def record(club: Club, bot: CurrentBot, partie_id: int) -> dict[str, Any]:
    """``klub-record/1``: a running partie's last deal keeps only the bot's own hand."""
    _own_partie(club, bot, partie_id)
    return archive.record(club, partie_id, bot.member)


def my_archive(club: Club, bot: CurrentBot, status: str, game: str | None, limit: int) -> list[dict[str, Any]]:
    """The bot's parties, newest first (finished, unfinished or all)."""
    require_read(bot)
    return archive.list_parties(club, bot.name, status, limit, game, None, bot.id)


def bot_standings(club: Club, bot: CurrentBot, game: str | None, period: str | None, page: int) -> dict[str, Any]:
    """The bots' own standings (each bot with its owner), as ``/bots`` shows them."""
    require_read(bot)
    return standings(club.db, game or None, period, page, bots=True)
