"""Lora's table settings and the order of a partie they give (rulings V1-V9, V17).

``{}`` is the Club's own Lora (28 deals, contract numbers). ``{"variant": "klub", ...}``
takes any combination of the Serbian table options; ``{"variant": "hrvatska"}`` is
Croatian Lora. :func:`normalize` checks a settings object; :class:`Schedule` answers who
deals, who opens and which contract is played (or may be chosen) in each deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.base import SettingsError
from app.games.tricks.settings import LIVE_KEYS, flags_on, live_settings

KLUB = "klub"
HRVATSKA = "hrvatska"
LIBIJSKA = "libijska"
N_SEATS = 4
IGRACA = (3, 4)  # Libyan Lora's seats (V11)

# The contracts of each variant, in the article's (and the rulings') order.
KLUB_CODES = ("vise", "manje", "dame", "herc", "zandar", "kralj", "lora")
HRVATSKA_CODES = ("vise", "manje", "kralj_zadnji", "babe", "herc", "lora", "prognoza", "slepi")
LIBIJSKA_CODES = ("herc", "kralj_herc", "dame", "zandar", "sesti", "stihovi", "dvojica", "lora")
KLUB_FLAGS = ("izbor", "dodatni", "kralj_sesti", "dalje_kazna", "parovi")
VARIANT_OPTIONS: dict[str, frozenset[str]] = {
    KLUB: frozenset(KLUB_FLAGS + ("bez",)),
    HRVATSKA: frozenset(),
    LIBIJSKA: frozenset({"igraca", "opklade"}),
}
def normalize(settings: object) -> dict[str, Any]:
    """The full settings, or :class:`SettingsError` naming what is wrong.

    ``{}`` (with at most the live timer) stays ``{}``: the Club's own Lora. Otherwise the
    result names the variant and the options that are on (false options are dropped).
    """
    if settings is None:
        return {}
    if not isinstance(settings, dict):
        raise SettingsError("settings must be an object")
    live = live_settings(settings)
    rules = {k: v for k, v in settings.items() if k not in LIVE_KEYS}
    if not rules:
        return live
    variant = rules.pop("variant", KLUB)
    if variant not in VARIANT_OPTIONS:
        raise SettingsError(f"Lora's variant is one of {', '.join(VARIANT_OPTIONS)}, got {variant!r}")
    unknown = sorted(set(rules) - VARIANT_OPTIONS[variant])
    if unknown:
        for other, options in VARIANT_OPTIONS.items():
            if other != variant and set(unknown) & options:
                raise SettingsError(f"{', '.join(unknown)} belongs to another variant than {variant}")
        raise SettingsError(f"Lora has no setting {', '.join(unknown)}")
    out: dict[str, Any] = {"variant": variant, **flags_on(rules, KLUB_FLAGS + ("opklade",))}
    if "bez" in rules:
        out.update(_bez(rules["bez"]))
    if "igraca" in rules:
        igraca = rules["igraca"]
        if igraca not in IGRACA or isinstance(igraca, bool):
            raise SettingsError(f"igraca (players) is 3 or 4, got {igraca!r}")
        if igraca != N_SEATS:
            out["igraca"] = igraca

    if out.get("dodatni") and not out.get("izbor"):
        raise SettingsError("dodatni (four extra deals) needs izbor (contract choice)")
    return {**out, **live}


def _bez(bez: object) -> dict[str, Any]:
    if not isinstance(bez, list) or not all(isinstance(c, str) for c in bez):
        raise SettingsError(f"bez is a list of contract codes, got {bez!r}")
    unknown = [c for c in bez if c not in KLUB_CODES]
    if unknown:
        raise SettingsError(f"bez names contracts of {', '.join(KLUB_CODES)}, not {', '.join(unknown)}")
    if len(set(bez)) != len(bez):
        raise SettingsError("bez names a contract twice")
    if set(bez) == set(KLUB_CODES):
        raise SettingsError("bez may not leave out all seven contracts")
    return {"bez": [c for c in KLUB_CODES if c in bez]} if bez else {}


@dataclass(frozen=True)
class Schedule:
    """Who deals, who opens and which contract each deal plays (V1-V3, V5)."""

    variant: str
    contracts: tuple[str, ...]  # each dealer's (or chooser's) contracts, in order
    izbor: bool = False
    dodatni: bool = False
    n_seats: int = N_SEATS

    @classmethod
    def of(cls, settings: dict[str, Any]) -> Schedule:
        variant = settings.get("variant", KLUB)
        if variant == HRVATSKA:
            return cls(HRVATSKA, HRVATSKA_CODES)
        if variant == LIBIJSKA:
            return cls(LIBIJSKA, LIBIJSKA_CODES, n_seats=settings.get("igraca", N_SEATS))
        bez = set(settings.get("bez", ()))
        return cls(KLUB, tuple(c for c in KLUB_CODES if c not in bez), bool(settings.get("izbor")),
                   bool(settings.get("dodatni")))

    @property
    def base_deals(self) -> int:
        return self.n_seats * len(self.contracts)

    @property
    def n_deals(self) -> int:
        """The schedule's slots; a void deal is dealt again in its slot (V10, V11)."""
        return self.base_deals + (self.n_seats if self.dodatni else 0)

    def dealer(self, k: int) -> int:
        """With izbor the deal passes after every deal (V2), else after each dealer's round (V1)."""
        return k % self.n_seats if self.izbor else k // len(self.contracts)

    def first(self, k: int) -> int:
        return (self.dealer(k) + 1) % self.n_seats

    def fixed_contract(self, k: int) -> str | None:
        """The contract of deal ``k``; None when its first player chooses it."""
        return None if self.izbor else self.contracts[k % len(self.contracts)]

    def choices(self, k: int, chosen_before: list[str]) -> list[str]:
        """What the first player of deal ``k`` may choose; ``chosen_before``: his earlier
        choices among the base deals (a dodatni deal chooses any contract again, V3)."""
        if k >= self.base_deals:
            return list(self.contracts)
        return [c for c in self.contracts if c not in chosen_before]

    @property
    def highest_wins(self) -> bool:
        return self.variant == HRVATSKA
