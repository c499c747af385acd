"""Contracts, their values (rulings P1) and the words that name them."""

from __future__ import annotations

from dataclasses import dataclass

SUIT_WORDS = ("pik", "karo", "herc", "tref")
CONTRACT_WORDS = ("pik", "karo", "herc", "tref", "betl", "sans")
# Index in CONTRACT_WORDS -> value of the bid contract (P1): pik 2 ... sans 7.
CONTRACT_VALUE = {w: i + 2 for i, w in enumerate(CONTRACT_WORDS)}
BETL, SANS = "betl", "sans"
MIN_BID, MAX_BID = 2, 7
BETL_SUPA, IGRA_BETL_SUPA = 60, 70


@dataclass(frozen=True, slots=True)
class Contract:
    """What the declarer plays: ``name`` is a CONTRACT_WORDS entry."""

    name: str
    declared: bool  # igra (without talon): one higher than the bid contract

    @property
    def trump(self) -> int | None:
        return SUIT_WORDS.index(self.name) if self.name in SUIT_WORDS else None

    @property
    def is_betl(self) -> bool:
        return self.name == BETL

    @property
    def is_sans(self) -> bool:
        return self.name == SANS

    @property
    def value(self) -> int:
        return CONTRACT_VALUE[self.name] + (1 if self.declared else 0)

    @property
    def label(self) -> str:
        return f"igra-{self.name}" if self.declared else self.name
