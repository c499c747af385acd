"""Computer players.

Every computer player implements :class:`Bot`: it is given only what its seat may see
(the engine's ``view(seat)``) and the legal words, and answers one of those words. The
server calls it off the event loop; it must not touch the database or other seats.

``make_bot(name, game, seed)`` builds one by level name: ``pocetnik`` (rules),
``iskusan`` and ``majstor`` (search), or ``random``. A bot is deterministic: the same
seed and the same view give the same word.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from app.ai.levels import CLUB_LEVELS, DEFAULT_LEVEL, EVERY_LEVEL


@runtime_checkable
class Bot(Protocol):
    def choose(self, view: dict[str, Any], legal: list[str]) -> str: ...


class RandomBot:
    """Says a uniformly random legal word (a benchmark reference)."""

    def __init__(self, seed: int | str | None = None):
        self._rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if not legal:
            raise ValueError("there is nothing legal to say")
        return legal[0] if len(legal) == 1 else self._rng.choice(legal)


LEVELS: tuple[str, ...] = tuple(level.code for level in CLUB_LEVELS)
BOT_NAMES: tuple[str, ...] = tuple(EVERY_LEVEL)


def make_bot(name: str | None, game: str, seed: int | str | None = None) -> Bot:
    """The computer player called ``name`` (a level, or ``random``) for ``game``."""
    # Deferred: app/ai/registry.py imports Bot and RandomBot from this module (inside
    # app/ai, not across floors), and it loads a game's players only when one is made.
    from app.ai.registry import build_bot

    return build_bot(name if name in BOT_NAMES else DEFAULT_LEVEL, game, seed)


__all__ = ["BOT_NAMES", "Bot", "DEFAULT_LEVEL", "LEVELS", "RandomBot", "make_bot"]
