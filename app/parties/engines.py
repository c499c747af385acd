"""The games as the Club's services ask for them: an unknown code is a clear 422."""

from __future__ import annotations

from typing import Any

from app.errors import ClubError
from app.games.base import GameError, PartieEngine
from app.games.descriptor import GameDescriptor
from app.games.registry import descriptor


def game_of(game: object) -> GameDescriptor:
    try:
        return descriptor(game)
    except GameError as e:
        raise ClubError(str(e), code="unknown_game", status=422) from None


def new_engine(game: str, settings: dict[str, Any], seed: str | None) -> PartieEngine:
    return game_of(game).engine.new(settings, seed=seed)
