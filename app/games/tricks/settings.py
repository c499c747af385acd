"""The settings every trick game's table shares: the live ones (never part of a record)
and typed flags."""

from __future__ import annotations

from typing import Any

from app.games.base import TIMER_RANGE, SettingsError, is_live_timer

LIVE_KEYS = ("timer",)  # live table settings, never part of a record


def live_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The live settings of ``settings`` (the decision timer), checked."""
    timer = settings.get("timer")
    if timer is not None and not is_live_timer(timer):
        raise SettingsError(f"timer must be off (null) or {TIMER_RANGE[0]}-{TIMER_RANGE[1]} seconds, got {timer!r}")
    return {"timer": timer} if timer is not None else {}


def timer_only(settings: object) -> dict[str, Any]:
    """A table with no options but the live decision timer."""
    if settings is None:
        return {}
    if not isinstance(settings, dict):
        raise SettingsError("settings must be an object")
    unknown = set(settings) - set(LIVE_KEYS)
    if unknown:
        raise SettingsError(f"this game has no setting {', '.join(sorted(unknown))}; only 'timer'")
    return live_settings(settings)


def flags_on(rules: dict[str, Any], flags: tuple[str, ...]) -> dict[str, bool]:
    """The flags of ``rules`` that are on; :class:`SettingsError` for one that is not a bool."""
    out: dict[str, bool] = {}
    for flag in flags:
        if flag in rules:
            value = rules[flag]
            if not isinstance(value, bool):
                raise SettingsError(f"{flag} is true or false, got {value!r}")
            if value:
                out[flag] = True
    return out
