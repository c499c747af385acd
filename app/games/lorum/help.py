"""Each contract of Lórum in one line, and its section of the rules page (issue 23, item 3):
the contract as the views name it (its number as a string, or its code with the options
on) -> (hint, anchor)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.descriptor import Text
from app.games.lorum.contracts import LorumContract, order_of

HELP = {
    LorumContract.HEARTS: Text("svaki uzeti herc košta 1; čist igrač dobija 8",
                               "each heart taken costs 1; the clean player gets 8"),
    LorumContract.OBERS: Text("Q♣ 1, Q♠ 2, Q♦ 3, Q♥ 4; čist igrač dobija 10",
                              "Q♣ 1, Q♠ 2, Q♦ 3, Q♥ 4; the clean player gets 10"),
    LorumContract.NO_TRICKS: Text("svaki uzeti štih košta 1; čist igrač dobija 8",
                                  "each trick taken costs 1; the clean player gets 8"),
    LorumContract.KVART: Text("nizovi od četiri; prvi bez karata dobija 1 po karti ostalih",
                              "chains of four; the first out gets 1 a card left from the others"),
    LorumContract.FAST_TRAIN: Text("sledeći rang bilo koje boje; prvi bez karata dobija 1 po karti ostalih",
                                   "the next rank of any suit; the first out gets 1 a card left from the others"),
    LorumContract.HAIRY_MONKEY: Text("ko uzme K♥ plaća 10 u banku", "whoever takes the K♥ pays 10 into the bank"),
    LorumContract.DOMINO: Text("slaganje: dalje 1 u banku, ostali 1 po karti; prvi bez karata nosi banku",
                               "the layout: a dalje puts 1 into the bank, the others 1 a card; the first out takes the bank"),
    LorumContract.STO_JEDAN: Text("karta koja dovede zbir do 101 plaća 10 u banku",
                                  "the card that brings the pile to 101 pays 10 into the bank"),
    LorumContract.MAKK: Text("K♥, poslednji štih i igrač preko puta uzimaoca J♣ plaćaju po 10",
                             "the K♥, the last trick and the player opposite the J♣ taker pay 10 each"),
}


def contract_help(settings: Mapping[str, Any]) -> dict[str, tuple[Text, str]]:
    order = order_of(dict(settings))
    extras = len(order) > 7  # the options on: the views name contracts by code (V17)
    return {(c.code if extras else str(int(c))): (HELP[c], f"ugovor-{c.code}") for c in order}


__all__ = ["contract_help"]
