"""The seven contracts of Hungarian Lórum, played in this order by every dealer."""

from __future__ import annotations

from enum import IntEnum

from app.games.lora.contracts import N_DEALS, N_SEATS, dealer_of, first_player_of

__all__ = ["N_DEALS", "N_SEATS", "LorumContract", "contract_of", "dealer_of", "first_player_of"]


class LorumContract(IntEnum):
    HEARTS = 1  # each heart taken costs 1
    OBERS = 2  # Q tref 1, Q pik 2, Q karo 3, Q herc 4
    NO_TRICKS = 3  # each trick costs 1
    KVART = 4  # chains of four of a suit
    FAST_TRAIN = 5  # the next rank of any suit, in turn
    HAIRY_MONKEY = 6  # K herc pays 10 into the bank
    DOMINO = 7  # the layout; the winner takes the bank

    @property
    def title(self) -> str:
        return TITLES[self]

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
}
TRICK_CONTRACTS = frozenset(
    {LorumContract.HEARTS, LorumContract.OBERS, LorumContract.NO_TRICKS, LorumContract.HAIRY_MONKEY}
)


def contract_of(deal_index: int) -> LorumContract:
    return LorumContract(deal_index % 7 + 1)
