"""Which engine plays which game, by the ``game`` name of ``klub-record/1``."""

from __future__ import annotations

from importlib import import_module

from app.games.base import GameError

_ENGINES = {
    "lora": ("app.games.lora", "LoraPartie"),
    "preferans": ("app.games.preferans", "PreferansPartie"),
    "lorum": ("app.games.lorum", "LorumPartie"),
}

GAMES: tuple[str, ...] = tuple(_ENGINES)


def engine_class(game: object):
    """The partie class of a game; :class:`GameError` for an unknown name."""
    if not isinstance(game, str) or game not in _ENGINES:
        raise GameError(f"unknown game {game!r}; the Club plays {', '.join(GAMES)}")
    module, name = _ENGINES[game]
    return getattr(import_module(module), name)
