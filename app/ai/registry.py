"""Which class plays which level of which game: ``app/ai/<game>/`` builds its own."""

from __future__ import annotations

from importlib import import_module

from app.ai import Bot, RandomBot
from app.games.registry import descriptor


def build_bot(name: str, game: str, seed: int | str | None) -> Bot:
    if name == "random":
        return RandomBot(seed)
    return import_module(f"app.ai.{descriptor(game).bots}").make_bot(name, seed)
