"""Table settings of a preferans partie (rulings P4), and a tournament round's hands (P13)."""

from __future__ import annotations

from typing import Any

from app.games.base import TIMER_RANGE, SettingsError, is_live_timer

BULE_CHOICES = (30, 40, 50, 60, 80, 100, 150, 200, 300, 400)
DEFAULT_BULE = 60
DEFAULT_REFE = 2
MAX_REFE = 8
KEYS = ("bule", "refe", "timer", "deljenja")
DEFAULT_DELJENJA = 24  # a tournament round's hands (P13)
DELJENJA_STEP = 3  # ... a multiple of the players: each deals alike (P13)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def normalize_settings(settings: Any) -> dict[str, Any]:
    """The full settings dict, or :class:`SettingsError` naming what is wrong."""
    if settings is None:
        settings = {}
    if not isinstance(settings, dict):
        raise SettingsError(f"preferans settings must be an object, got {settings!r}")
    unknown = sorted(str(k) for k in settings if k not in KEYS)
    if unknown:
        raise SettingsError(f"unknown preferans setting(s) {', '.join(unknown)}; known: {', '.join(KEYS)}")
    bule = settings.get("bule", DEFAULT_BULE)
    if not _is_int(bule) or bule not in BULE_CHOICES:
        raise SettingsError(f"bule must be one of {', '.join(map(str, BULE_CHOICES))}, got {bule!r}")
    refe = settings.get("refe", DEFAULT_REFE)
    if not _is_int(refe) or not 0 <= refe <= MAX_REFE:
        raise SettingsError(f"refe must be a whole number from 0 to {MAX_REFE}, got {refe!r}")
    timer = settings.get("timer")
    if timer is not None and not is_live_timer(timer):
        raise SettingsError(
            f"timer must be null (off) or {TIMER_RANGE[0]} to {TIMER_RANGE[1]} seconds, got {timer!r}"
        )
    out = {"bule": bule, "refe": refe, "timer": timer}
    if settings.get("deljenja") is not None:  # absent (or null): no limit of hands
        out["deljenja"] = check_deljenja(settings["deljenja"])
    return out


def check_deljenja(hands: object) -> int:
    """P13: a round's number of hands is a positive multiple of 3 (each player deals alike)."""
    if not isinstance(hands, int) or isinstance(hands, bool) or hands <= 0 or hands % DELJENJA_STEP:
        raise SettingsError(f"deljenja (the hands of a round) must be a positive multiple of 3, got {hands!r}")
    return hands


def record_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The settings as a record carries them (the timer is not part of a record; the
    hands of a round are, P13)."""
    out = {"bule": settings["bule"], "refe": settings["refe"]}
    if settings.get("deljenja") is not None:
        out["deljenja"] = settings["deljenja"]
    return out
