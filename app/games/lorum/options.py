"""Lórum's table settings (rulings "Lórum options", V17).

``{}`` (with at most the live ``timer``) is the Club's Lórum: seven contracts per dealer.
``sto_jedan`` and ``makk`` are typed flags that add the contracts "101" and "makk"; a
false flag is dropped, so ``{"makk": false}`` is the Club's Lórum too.
"""

from __future__ import annotations

from typing import Any

from app.games.base import SettingsError
from app.games.tricks.settings import LIVE_KEYS, flags_on, timer_only

FLAGS = ("sto_jedan", "makk")


def normalize(settings: object) -> dict[str, Any]:
    """The full settings, or :class:`SettingsError` naming what is wrong."""
    if settings is None:
        return {}
    if not isinstance(settings, dict):
        raise SettingsError("settings must be an object")
    live = timer_only({k: v for k, v in settings.items() if k in LIVE_KEYS})
    rules = {k: v for k, v in settings.items() if k not in LIVE_KEYS}
    unknown = sorted(set(rules) - set(FLAGS), key=str)
    if unknown:
        raise SettingsError(
            f"Lórum has no setting {', '.join(map(str, unknown))}; only sto_jedan, makk and timer"
        )
    return {**flags_on(rules, FLAGS), **live}
