"""Croatian Lora's eight contracts and their points (rulings V8, V9): positive points are
good and the highest total wins."""

from __future__ import annotations

from typing import Any

from app.games.tricks.contracts import Contract, ContractRule
from app.games.tricks.deal import HEARTS_MASK, KING_OF_HEARTS, QUEENS_MASK
from app.games.lora.house_deals import all_or_each, taken_counts, taker_of


def vise(deal: Any) -> list[int]:
    return list(deal.trick_counts)  # +1 a trick


def manje(deal: Any) -> list[int]:
    return [-n for n in deal.trick_counts]  # -1 a trick


def kralj_zadnji(deal: Any) -> list[int]:
    """K herc and the last trick: -4 to each taker when they differ, +8 to one who takes both."""
    king, last = taker_of(deal, KING_OF_HEARTS), deal.tricks[-1][2]
    if king == last:
        return [8 if s == king else 0 for s in range(4)]
    return [-4 if s in (king, last) else 0 for s in range(4)]


def babe(deal: Any) -> list[int]:
    return all_or_each(taken_counts(deal, QUEENS_MASK), 4, 8, -2)


def herc(deal: Any) -> list[int]:
    return all_or_each(taken_counts(deal, HEARTS_MASK), 8, 8, -1)


def prognoza(deal: Any) -> list[int]:
    return [4 if n == p else -4 for n, p in zip(deal.trick_counts, deal.predictions)]


RULES: dict[str, ContractRule] = {r.code: r for r in (
    ContractRule("vise", "Što više", "tricks", Contract.STO_VISE, vise),
    ContractRule("manje", "Što manje", "tricks", Contract.STO_MANJE, manje),
    ContractRule("kralj_zadnji", "Kralj herc i zadnji štih", "tricks", Contract.KING_AND_LAST, kralj_zadnji,
                 penalty=1 << KING_OF_HEARTS),
    ContractRule("babe", "Babe", "tricks", Contract.DAME, babe, penalty=QUEENS_MASK, ends_when_taken=QUEENS_MASK),
    ContractRule("herc", "Herc", "tricks", Contract.HERC, herc, penalty=HEARTS_MASK, ends_when_taken=HEARTS_MASK),
    ContractRule("lora", "Lora", "layout", Contract.LORA, layout=(8, -1, -1, False)),
    ContractRule("prognoza", "Prognoza", "prognoza", Contract.STO_VISE, prognoza),
    ContractRule("slepi", "Slepi", "slepi", Contract.STO_VISE, vise),
)}
