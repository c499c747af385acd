"""The contracts of Hungarian Lórum and the order every dealer plays them in.

The Club's Lórum (settings ``{}``) has seven contracts per dealer; the table options
``sto_jedan`` ("101") and ``makk`` add one each after Hairy monkey and before Domino
(rulings "Lórum options", V13, V14, V17), so Domino, which takes the bank, stays last.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from app.games.tricks.contracts import N_DEALS, N_SEATS, dealer_of, first_player_of

__all__ = [
    "BASE_ORDER", "N_DEALS", "N_SEATS", "LorumContract", "contract_named", "contract_of", "dealer_of", "first_player_of", "order_of",
]


class LorumContract(IntEnum):
    HEARTS = 1  # each heart taken costs 1
    OBERS = 2  # Q tref 1, Q pik 2, Q karo 3, Q herc 4
    NO_TRICKS = 3  # each trick costs 1
    KVART = 4  # chains of four of a suit
    FAST_TRAIN = 5  # the next rank of any suit, in turn
    HAIRY_MONKEY = 6  # K herc pays 10 into the bank
    DOMINO = 7  # the layout; the winner takes the bank
    STO_JEDAN = 8  # "101": the card that brings the pile to 101 pays 10 (option sto_jedan)
    MAKK = 9  # K herc, the last trick, opposite J tref: 10 each (option makk)

    @property
    def title(self) -> str:
        return TITLES[self]

    @property
    def code(self) -> str:
        """The contract's code, as a record with extras names it."""
        return self.name.lower()

    @property
    def on_tricks(self) -> bool:
        return self in TRICK_CONTRACTS


TITLES = {
    LorumContract.HEARTS: "Herc",
    LorumContract.OBERS: "Dame",
    LorumContract.NO_TRICKS: "Bez štihova",
    LorumContract.KVART: "Kvart",
    LorumContract.FAST_TRAIN: "Brzi voz",
    LorumContract.HAIRY_MONKEY: "Čupavi majmun",
    LorumContract.DOMINO: "Domino",
    LorumContract.STO_JEDAN: "101",
    LorumContract.MAKK: "Makk",
}
TRICK_CONTRACTS = frozenset(
    {LorumContract.HEARTS, LorumContract.OBERS, LorumContract.NO_TRICKS, LorumContract.HAIRY_MONKEY,
     LorumContract.MAKK}
)
BASE_ORDER: tuple[LorumContract, ...] = tuple(LorumContract)[:7]
# The options, each with its contract, in the order they are played (after Hairy monkey).
EXTRAS = (("sto_jedan", LorumContract.STO_JEDAN), ("makk", LorumContract.MAKK))


def order_of(settings: dict[str, Any]) -> tuple[LorumContract, ...]:
    """Each dealer's contracts, in order: the seven, with the extras the settings turn on
    just before Domino."""
    extras = tuple(contract for key, contract in EXTRAS if settings.get(key))
    return (*BASE_ORDER[:-1], *extras, LorumContract.DOMINO)


def contract_named(label: int | str) -> LorumContract:
    """The contract a view or record names: its number (settings {}) or its code."""
    if isinstance(label, str):
        return LorumContract[label.upper()]
    return LorumContract(label)


def contract_of(deal_index: int, order: tuple[LorumContract, ...] = BASE_ORDER) -> LorumContract:
    """The contract of deal ``deal_index`` when every dealer plays ``order``."""
    return order[deal_index % len(order)]
