"""The replay's analysis of Lórum deals (app/ai/lorum/analysis.py): every card decision of
every contract, the extras too, valued in chips by the oracle (every hand and 101's stock
open); a Kvart chain that would have emptied the hand, missed, shows the chips it lost."""

from __future__ import annotations

import pytest

from app.ai import make_bot
from app.ai.lorum.analysis import open_values
from app.ai.lorum.oracle import LorumOracle
from app.analysis.deal import analyse_deal
from app.games.lorum import LorumPartie
from app.games.lorum.contracts import LorumContract
from tests.support.analysis import check_rows, load
from tests.support.lora import partie_at

EXTRAS = "house-rules/lorum-101-makk-101.json"
KVART_DEAL = 3


@pytest.mark.parametrize("k", range(9))
def test_every_contract_with_101_and_makk_is_analysed(k):
    """The example partie with both extras, one deal of each of its nine contracts: every
    decision with a choice is a card, and every one is valued."""
    record = load(EXTRAS)
    analysis = analyse_deal(record, k)
    assert analysis["game"] == "lorum" and analysis["deal"] == k
    check_rows(record, k, analysis)
    assert analysis["rows"] and all(r["values"] is not None for r in analysis["rows"])


def club_partie_played(seed: int, deals: int) -> LorumPartie:
    partie = LorumPartie.new({}, seed=seed)
    bots = [make_bot("pocetnik", "lorum", seed=s) for s in range(4)]
    while partie.deal_index < deals:
        (seat,) = partie.seats_to_act()
        partie.apply(seat, bots[seat].choose(partie.view(seat), partie.legal_actions(seat)))
    return partie


def test_the_best_card_is_the_oracles_choice_or_ties_with_it():
    """The Club's seven contracts as the rule players play them: at every choice the card
    the oracle plays has the lowest value (the analysis and the oracle search alike)."""
    record = club_partie_played(5, 7).to_record(["ana", "boki", "ceca", "dule"])
    partie = LorumPartie.new({})
    seen: set[LorumContract] = set()
    for d in record["deals"][:7]:
        partie.start_deal(d["hands"])
        for seat, word in d["actions"]:
            legal = partie.legal_actions(seat)
            if len(legal) > 1:
                values = open_values(partie, seat, legal)
                chosen = LorumOracle(partie).choose(partie.view(seat), legal)
                assert values is not None and sorted(values) == sorted(legal)
                assert values[chosen] == min(values.values()), (partie.deal.contract, legal, values)
                seen.add(partie.deal.contract)
            partie.apply(seat, word)
    assert len(seen) == 7


def kvart_partie(card: str) -> LorumPartie:
    """Kvart: seat 3 opens a chain with 9S or AS, 7S and 8S still out. AS takes the chain
    AS 7S 8S 9S round to him again and empties his hand (7 chips from the others' 3 + 2
    + 2 cards); 9S does not."""
    hands = [
        "TS QS 7D TD QH 7C 9C TC", "KS QD AD 8H JH KH JC AC",
        "7S 8S JS KD TH AH QC KC", "9S AS 8D 9D JD 7H 9H 8C",
    ]
    partie = partie_at(KVART_DEAL, [h.split() for h in hands], cls=LorumPartie)
    for word in "8H 9H TH JH JC QC KC AC QD KD AD 7D 9C TC 7C 8C 8D 9D TD JD 7H".split():
        (seat,) = partie.seats_to_act()
        partie.apply(seat, word)
    assert partie.seats_to_act() == [3] and sorted(partie.legal_actions(3)) == ["9S", "AS"]
    partie.apply(3, card)
    while not partie.needs_deal:
        (seat,) = partie.seats_to_act()
        partie.apply(seat, partie.legal_actions(seat)[0])
    return partie


@pytest.mark.parametrize("card", ["9S", "AS"])
def test_missing_the_chain_that_empties_the_hand_shows_the_chips_it_lost(card):
    partie = kvart_partie(card)
    record = partie.to_record(["ana", "boki", "ceca", "dule"])
    analysis = analyse_deal(record, KVART_DEAL)
    check_rows(record, KVART_DEAL, analysis)
    row = next(r for r in analysis["rows"] if r["seat"] == 3 and set(r["values"] or ()) == {"9S", "AS"})
    assert row["word"] == card and row["best"] == "AS" and row["values"]["AS"] == -7
    lost = row["values"]["9S"] + 7
    assert lost > 0
    assert row["saved"] == (lost if card == "9S" else 0)
    assert row["mistake"] == (card == "9S")
