"""Building engines from the log, and what of an action word others may see."""

from __future__ import annotations

from typing import Any

from app.errors import ClubError
from app.games.base import GameError
from app.games.registry import GAMES, engine_class


class GameUnavailable(ClubError):
    status, code = 503, "game_unavailable"


def engine_for(game: str):
    """The engine class of a game, or a clear error while its engine is not installed."""
    if game not in GAMES:
        raise ClubError(f"unknown game {game!r}; the Club plays {', '.join(GAMES)}", code="unknown_game", status=422)
    try:
        return engine_class(game)
    except (ImportError, AttributeError):
        raise GameUnavailable(f"{game} is not playable on this server yet") from None
    except GameError as e:
        raise ClubError(str(e), code="unknown_game", status=422) from None


def new_engine(game: str, settings: dict[str, Any], seed: str | None):
    return engine_for(game).new(settings, seed=seed)


def public_word(game: str, word: str, own: bool) -> str:
    """The word as another seat may learn it: the preferans škart stays face down."""
    if not own and game == "preferans" and word.startswith("skart"):
        return "skart"
    return word


def seat_count(game: str) -> int:
    return engine_for(game).n_seats
