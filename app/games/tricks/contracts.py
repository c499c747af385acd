"""The seven contracts of the Club's Lora and the order of a partie (rulings L1): four
players, seven deals each dealer, 28 in all; Lórum deals in the same order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

N_SEATS = 4
CONTRACTS_PER_DEALER = 7
N_DEALS = N_SEATS * CONTRACTS_PER_DEALER  # 28, the only length of a partie


class Contract(IntEnum):
    STO_VISE = 1  # -1 per trick taken
    STO_MANJE = 2  # +1 per trick taken
    DAME = 3  # +2 per queen taken
    HERC = 4  # +1 per heart taken; all eight: -8
    ZANDAR_TREF = 5  # +8 for the jack of tref
    KING_AND_LAST = 6  # +4 for K herc, +4 for the 8th trick
    LORA = 7  # the layout

    @property
    def title(self) -> str:
        return CONTRACT_TITLES[self]

    @property
    def on_tricks(self) -> bool:
        return self is not Contract.LORA


CONTRACT_TITLES = {
    Contract.STO_VISE: "Što više",
    Contract.STO_MANJE: "Što manje",
    Contract.DAME: "Dame",
    Contract.HERC: "Herc",
    Contract.ZANDAR_TREF: "Žandar tref",
    Contract.KING_AND_LAST: "K herc i 8. štih",
    Contract.LORA: "Lora",
}


def dealer_of(deal_index: int) -> int:
    return deal_index // CONTRACTS_PER_DEALER


def contract_of(deal_index: int) -> Contract:
    return Contract(deal_index % CONTRACTS_PER_DEALER + 1)


def first_player_of(deal_index: int) -> int:
    """The seat after the dealer opens every deal."""
    return (dealer_of(deal_index) + 1) % N_SEATS


@dataclass(frozen=True)
class ContractRule:
    """A contract as data: one of a house-rules table (Lora's), or a Lórum trick contract as
    the computer players search it.

    ``kind``: ``"tricks"``, ``"layout"``, ``"prognoza"`` (tricks after a prediction round)
    or ``"slepi"`` (blind tricks). ``plays_like``: the Club contract whose play it shares
    (what the computer players' rules of thumb follow). ``score`` gives a finished trick
    deal's points; a layout scores by ``layout`` = (first out, per card left, per
    ``dalje``, whether the first out pays for his own ``dalje``\\s too).
    """

    code: str
    title: str
    kind: str
    plays_like: Contract
    score: Callable[[Any], list[int]] | None = None
    penalty: int = 0  # cards shown as taken penalty cards
    ends_when_taken: int = 0  # the deal ends once all of these are taken (V8) ...
    min_tricks: int = 0  # ... and at least this many tricks are played
    layout: tuple[int, int, int, bool] = (-8, 1, 0, False)
