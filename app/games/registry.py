"""The games of the Club, by the ``game`` code of ``klub-record/1``.

Each game's package defines one :class:`~app.games.descriptor.GameDescriptor`; this
list is the only place that names them. Everything else iterates :func:`descriptors`
or looks a code up with :func:`descriptor`.
"""

from __future__ import annotations

from importlib import import_module

from app.games.base import GameError, PartieEngine
from app.games.descriptor import GameDescriptor

# The packages under app/games/ whose ``descriptor`` module defines DESCRIPTOR, in the
# order the Club lists them.
GAME_PACKAGES: tuple[str, ...] = ("lora", "lorum", "preferans")

_REGISTRY: dict[str, GameDescriptor] = {}


def _load() -> dict[str, GameDescriptor]:
    if not _REGISTRY:
        for package in GAME_PACKAGES:
            register(import_module(f"app.games.{package}.descriptor").DESCRIPTOR)
    return _REGISTRY


def register(descriptor: GameDescriptor) -> None:
    """Add a game (the registry test adds a variant this way)."""
    _REGISTRY[descriptor.code] = descriptor


def register_modules(paths: str) -> tuple[GameDescriptor, ...]:
    """Add the outside games named by the setting ``outside_games``: descriptor modules,
    comma-separated, each defining ``DESCRIPTOR``. :class:`GameError` names the first that
    cannot be imported, defines none, or takes a code another game has."""
    added = []
    for path in (p.strip() for p in paths.split(",")):
        if not path:
            continue
        try:
            module = import_module(path)
        except ImportError as e:
            raise GameError(f"the outside game {path!r} cannot be imported: {e}") from e
        game = getattr(module, "DESCRIPTOR", None)
        if not isinstance(game, GameDescriptor):
            raise GameError(f"the outside game {path!r} defines no DESCRIPTOR (a GameDescriptor)")
        known = _load().get(game.code)
        if known is not None and known is not game:
            raise GameError(f"the outside game {path!r} takes the code {game.code!r} of another game")
        register(game)
        added.append(game)
    return tuple(added)


def unregister(code: str) -> None:
    _REGISTRY.pop(code, None)


def descriptors() -> tuple[GameDescriptor, ...]:
    return tuple(_load().values())


def codes() -> tuple[str, ...]:
    return tuple(_load())


def descriptor(game: object) -> GameDescriptor:
    """The descriptor of a game; :class:`GameError` for an unknown code."""
    games = _load()
    if not isinstance(game, str) or game not in games:
        raise GameError(f"unknown game {game!r}; the Club plays {', '.join(games)}")
    return games[game]


def engine_class(game: object) -> type[PartieEngine]:
    """The partie class of a game; :class:`GameError` for an unknown code."""
    return descriptor(game).engine
