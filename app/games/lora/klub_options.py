"""The Club's seven contracts under the Serbian table options (rulings V4, V6, V7):
``kralj_sesti``, ``dalje_kazna`` and ``parovi`` change a contract's end and points;
the other contracts score as the Club's own deal does."""

from __future__ import annotations

from typing import Any

from app.games.tricks.contracts import Contract, ContractRule
from app.games.tricks.deal import EARLY_END_MASKS, KING_OF_HEARTS, PENALTY_MASKS, JACK_OF_CLUBS, TrickDeal
from app.games.lora.house_deals import taker_of
from app.games.lora.variants import KLUB_CODES

SIXTH_TRICK = 5  # index in the deal's tricks


def club_points(deal: Any) -> list[int]:
    """The Club's own points for the contract (``lora.sr.md`` section 5)."""
    TrickDeal._finish(deal)
    assert deal.points is not None
    return deal.points


def kralj_sesti(deal: Any) -> list[int]:
    """K herc i 6. štih: +4 to the taker of K herc, +4 to the winner of the 6th trick."""
    king, sixth = taker_of(deal, KING_OF_HEARTS), deal.tricks[SIXTH_TRICK][2]
    return [(4 if s == king else 0) + (4 if s == sixth else 0) for s in range(4)]


def parovi(deal: Any) -> list[int]:
    """Žandar tref in pairs (seats 0+2, 1+3): +6 to the taker, +2 to his partner."""
    taker = taker_of(deal, JACK_OF_CLUBS)
    return [6 if s == taker else 2 if taker is not None and s == (taker + 2) % 4 else 0 for s in range(4)]


def klub_rules(settings: dict[str, Any]) -> dict[str, ContractRule]:
    """The rule of each Club contract at a table with these options."""
    rules: dict[str, ContractRule] = {}
    for code, contract in zip(KLUB_CODES, Contract):
        if contract is Contract.LORA:
            rule = ContractRule(code, contract.title, "layout", contract,
                                layout=(-8, 1, 1 if settings.get("dalje_kazna") else 0, True))
        else:
            rule = ContractRule(code, contract.title, "tricks", contract, club_points,
                                penalty=PENALTY_MASKS[contract], ends_when_taken=EARLY_END_MASKS.get(contract, 0))
        rules[code] = rule
    if settings.get("kralj_sesti"):
        rules["kralj"] = ContractRule("kralj", "K herc i 6. štih", "tricks", Contract.KING_AND_LAST, kralj_sesti,
                                      penalty=1 << KING_OF_HEARTS, ends_when_taken=1 << KING_OF_HEARTS,
                                      min_tricks=SIXTH_TRICK + 1)
    if settings.get("parovi"):
        zandar = rules["zandar"]
        rules["zandar"] = ContractRule("zandar", zandar.title, "tricks", Contract.ZANDAR_TREF, parovi,
                                       penalty=zandar.penalty, ends_when_taken=zandar.ends_when_taken)
    return rules
