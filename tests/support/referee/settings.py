"""Table settings of Lora and Lórum (rulings "Lora table options", V17), checked and read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import RefereeError

KLUB = ("vise", "manje", "dame", "herc", "zandar", "kralj", "lora")
HRVATSKA = ("vise", "manje", "kralj_zadnji", "babe", "herc", "lora", "prognoza", "slepi")
LIBIJSKA = ("herc", "kralj_herc", "dame", "zandar", "sesti", "stihovi", "dvojica", "lora")

LORUM_BASE = ("hearts", "obers", "no_tricks", "kvart", "fast_train", "hairy_monkey", "domino")

KLUB_FLAGS = ("izbor", "dodatni", "kralj_sesti", "dalje_kazna", "parovi")
OPTIONS = {
    "klub": set(KLUB_FLAGS) | {"bez"},
    "hrvatska": set(),
    "libijska": {"igraca", "opklade"},
}


@dataclass(frozen=True)
class LoraRules:
    """What a Lora partie's settings mean for the replay."""

    variant: str
    contracts: tuple[str, ...]  # one dealer's contracts in order (klub: without `bez`)
    numbered: bool  # settings {}: the result names contracts by their number 1..7
    n_seats: int = 4
    izbor: bool = False
    dodatni: bool = False
    kralj_sesti: bool = False
    dalje_kazna: bool = False
    parovi: bool = False
    opklade: bool = False


@dataclass(frozen=True)
class LorumRules:
    """What a Lórum partie's settings mean: one dealer's contracts in order."""

    contracts: tuple[str, ...]
    numbered: bool


def _flag(settings: dict[str, Any], key: str) -> bool:
    """A typed boolean option (absent = false)."""
    value = settings.get(key, False)
    if not isinstance(value, bool):
        raise RefereeError(f"setting {key} must be true or false, not {value!r}")
    return value


def lora_rules(settings: Any) -> LoraRules:
    """Check Lora settings and read them; RefereeError for settings the rulings refuse."""
    if not isinstance(settings, dict):
        raise RefereeError("settings must be an object")
    if not settings:
        return LoraRules(variant="klub", contracts=KLUB, numbered=True)
    variant = settings.get("variant")
    if variant not in OPTIONS:
        raise RefereeError(f"unknown Lora variant {variant!r}")
    foreign = set(settings) - OPTIONS[variant] - {"variant"}
    if foreign:
        raise RefereeError(f"options {sorted(foreign)} do not belong to variant {variant}")
    if variant == "klub":
        return _klub_rules(settings)
    if variant == "hrvatska":
        return LoraRules(variant="hrvatska", contracts=HRVATSKA, numbered=False)
    players = settings.get("igraca", 4)
    if isinstance(players, bool) or players not in (3, 4):
        raise RefereeError(f"igraca must be 3 or 4, not {players!r}")
    return LoraRules(variant="libijska", contracts=LIBIJSKA, numbered=False, n_seats=players,
                     opklade=_flag(settings, "opklade"))


def _klub_rules(settings: dict[str, Any]) -> LoraRules:
    """The klub variant's options (V2-V7)."""
    flags = {key: _flag(settings, key) for key in KLUB_FLAGS}
    left_out = settings.get("bez", [])
    if not isinstance(left_out, list) or any(code not in KLUB for code in left_out):
        raise RefereeError(f"bez must be a list of klub contract codes, not {left_out!r}")
    if len(set(left_out)) != len(left_out):
        raise RefereeError("bez names a contract twice")
    contracts = tuple(code for code in KLUB if code not in left_out)
    if not contracts:
        raise RefereeError("bez leaves out every contract")
    if flags["dodatni"] and not flags["izbor"]:
        raise RefereeError("dodatni needs izbor")
    return LoraRules(variant="klub", contracts=contracts, numbered=False, **flags)


def lorum_rules(settings: Any) -> LorumRules:
    """Check Lórum settings (V13, V14, V17) and read the order of one dealer's contracts."""
    if not isinstance(settings, dict):
        raise RefereeError("settings must be an object")
    foreign = set(settings) - {"sto_jedan", "makk"}
    if foreign:
        raise RefereeError(f"Lórum has no settings {sorted(foreign)}")
    extras = [code for code in ("sto_jedan", "makk") if _flag(settings, code)]
    contracts = LORUM_BASE[:6] + tuple(extras) + LORUM_BASE[6:]
    return LorumRules(contracts=contracts, numbered=not settings)
