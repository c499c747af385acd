"""Each preferans contract in one line, and its section of the rules page (issue 23, item 3):
the contract as the views name it (``pik``, ``igra-pik`` ...) -> (hint, anchor)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.descriptor import Text
from app.games.preferans.contracts import BETL, CONTRACT_VALUE, CONTRACT_WORDS, SANS

SUITS_SR = {"pik": "pik", "karo": "karo", "herc": "herc", "tref": "tref"}
SUITS_EN = {"pik": "spades", "karo": "diamonds", "herc": "hearts", "tref": "clubs"}


def _hint(name: str, declared: bool) -> Text:
    value = CONTRACT_VALUE[name] + (1 if declared else 0)
    bule = 2 * value  # v = value × 2, before kontra and refe (rules, section 12)
    if name == BETL:
        return Text(f"bez aduta; odigravač ne sme uzeti nijedan štih; prolaz −{bule} bula",
                    f"no trumps; the declarer must take no trick; making it −{bule} bule")
    if name == SANS:
        return Text(f"bez aduta; odigravač treba bar 6 štihova; prolaz −{bule} bula",
                    f"no trumps; the declarer needs 6 tricks; making it −{bule} bule")
    return Text(f"adut {SUITS_SR[name]}; odigravač treba bar 6 štihova; prolaz −{bule} bula",
                f"{SUITS_EN[name]} are trumps; the declarer needs 6 tricks; making it −{bule} bule")


def contract_help(settings: Mapping[str, Any]) -> dict[str, tuple[Text, str]]:
    out = {name: (_hint(name, False), "bule") for name in CONTRACT_WORDS}
    out.update({f"igra-{name}": (_hint(name, True), "ugovor-igra") for name in CONTRACT_WORDS})
    return out


__all__ = ["contract_help"]
