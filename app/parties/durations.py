"""How long a partie usually takes at this Club: the median time from start to end of the
finished parties (not exhibitions) of a game with the same settings (the lobby shows it
beside the games and the proposals; nothing while the Club has finished none such)."""

from __future__ import annotations

import json
from statistics import median
from typing import Any

from sqlalchemy import select

from app.db.models import Partie

# The newest finished parties the medians are taken over.
RECENT = 2000


def settings_key(game: str, settings: dict[str, Any] | None) -> str:
    """A game and its settings as one key (the live timer is not a rule of the game)."""
    rules = {k: v for k, v in (settings or {}).items() if k != "timer"}
    return f"{game}:{json.dumps(rules, sort_keys=True, separators=(',', ':'))}"


def typical_minutes(db) -> dict[str, int]:
    """settings_key -> the median minutes of its finished parties (at least 1)."""
    stmt = (
        select(Partie.game, Partie.settings, Partie.started_at, Partie.finished_at)
        .where(Partie.status == "finished", Partie.exhibition.is_(False), Partie.started_at.is_not(None),
               Partie.finished_at.is_not(None))
        .order_by(Partie.finished_at.desc())
        .limit(RECENT)
    )
    spans: dict[str, list[float]] = {}
    with db.read() as s:
        for game, settings, started, finished in s.execute(stmt):
            spans.setdefault(settings_key(game, settings), []).append((finished - started).total_seconds())
    return {key: max(1, round(median(values) / 60)) for key, values in spans.items()}
