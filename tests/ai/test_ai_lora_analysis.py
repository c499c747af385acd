"""The replay's analysis of Lora deals (app/analysis/deal.py, app/ai/lora/analysis.py):
one row per decision with a choice, valued by the oracle (every hand open, the majstor
bot's searches); a known bad move shows the points it lost."""

from __future__ import annotations

import pytest

from app.ai.lora import oracle as oracle_module
from app.ai.lora.analysis import open_values
from app.ai.lora.oracle import LoraOracle
from app.analysis.deal import analyse_deal
from app.games.lora import LoraPartie
from app.games.records import deal_pile, replay
from app.games.tricks.deal import LayoutDeal
from tests.support.analysis import check_rows, load
from tests.support.lora import cards, partie_at
from tests.support.paths import EXAMPLES

ZANDAR_DEAL = 4  # the fifth deal: Žandar tref (contract 5); seat 0 deals, seat 1 leads


@pytest.mark.parametrize("k", range(7))
def test_every_contract_of_a_finished_partie_is_analysed(k):
    """The Club's example partie, one deal of each contract (the seventh is the layout)."""
    record = load("lora-7.json")
    analysis = analyse_deal(record, k)
    assert analysis["deal"] == k and analysis["game"] == "lora"
    check_rows(record, k, analysis)
    assert analysis["rows"] and all(r["values"] is not None for r in analysis["rows"])  # every choice is a card


def test_the_best_word_is_the_oracles_choice_or_ties_with_it():
    record = load("lora-8.json")
    k = 2  # Dame
    partie = LoraPartie.new({})
    for d in record["deals"][:k]:
        partie.start_deal(d["hands"])
        for seat, word in d["actions"]:
            partie.apply(seat, word)
    partie.start_deal(record["deals"][k]["hands"])
    seen = 0
    for seat, word in record["deals"][k]["actions"]:
        legal = partie.legal_actions(seat)
        if len(legal) > 1:
            values = open_values(partie, seat, legal)
            chosen = LoraOracle(partie).choose(partie.view(seat), legal)
            assert values is not None and values[chosen] == min(values.values())
            seen += 1
        partie.apply(seat, word)
    assert seen > 10


def _house_deals(record: dict) -> list[int]:
    """The first trick deal, the first layout deal and, if any, a deal with a kitty word."""
    partie = LoraPartie.new(record["settings"])
    picked: dict[str, int] = {}
    for k, d in enumerate(record["deals"]):
        partie.start_deal(d["hands"], deal_pile(partie, d))
        kind = "layout" if isinstance(partie.deal, LayoutDeal) else "tricks"
        if any(w.startswith("kitty ") for _, w in d["actions"]):
            kind = "kitty"
        picked.setdefault(kind, k)
        for seat, word in d["actions"]:
            partie.apply(seat, word)
    return sorted(picked.values())


@pytest.mark.parametrize("name", sorted(p.name for p in (EXAMPLES / "house-rules").glob("lora-*.json")))
def test_house_rules_are_analysed_and_their_other_words_are_not_valued(name):
    """Serbian options, Croatian and Libyan Lora (three and four seats, bets, the kitty):
    every card decision valued; a contract chosen, a prediction, a bet are rows without values."""
    record = load(f"house-rules/{name}")
    replay(record)
    for k in _house_deals(record):
        analysis = analyse_deal(record, k)
        check_rows(record, k, analysis)
        for row in analysis["rows"]:
            card = len(row["word"]) == 2 or row["word"].startswith("kitty ")
            assert (row["values"] is not None) == card, row


def zandar_partie() -> LoraPartie:
    """Žandar tref, seat 0 holding J♣ with three lower clubs. Seat 1 leads A♠ and K♠ (he
    takes both), then 9♣: seats 2 and 3 have no club, and seat 0, last, may stay under the
    9♣ or overtake it with the 10♣ and never take the jack (seat 1's other clubs are
    higher, nobody else has one), or take the trick and the jack (+8) with the J♣."""
    hands = [cards("7C 8C TC JC 7H 8H 7D 8D"), cards("9C QC KC AC AS KS QS JS"),
             cards("7S 8S 9H TH JH QH KH AH"), cards("9S TS 9D TD JD QD KD AD")]
    partie = partie_at(ZANDAR_DEAL, hands, seed=3)
    for seat, word in [(1, "AS"), (2, "7S"), (3, "9S"), (0, "7H"), (1, "KS"), (2, "8S"), (3, "TS"), (0, "7D"),
                       (1, "9C"), (2, "9H"), (3, "9D")]:
        partie.apply(seat, word)
    return partie


def finish_deal(partie: LoraPartie) -> dict:
    while not partie.needs_deal:
        seat = partie.seats_to_act()[0]
        partie.apply(seat, partie.legal_actions(seat)[0])
    return partie.to_record(["ana", "boki", "ceca", "dule"])


@pytest.mark.parametrize("card, saved", [("JC", 8.0), ("7C", 0.0)])
def test_taking_the_jack_of_clubs_when_it_could_be_avoided_costs_its_8_points(card, saved):
    partie = zandar_partie()
    assert partie.seats_to_act() == [0] and sorted(partie.legal_actions(0)) == ["7C", "8C", "JC", "TC"]
    partie.apply(0, card)
    record = finish_deal(partie)
    analysis = analyse_deal(record, ZANDAR_DEAL)
    check_rows(record, ZANDAR_DEAL, analysis)
    row = next(r for r in analysis["rows"] if r["step"] == 12)
    assert (row["seat"], row["word"], row["saved"]) == (0, card, saved)
    assert row["best"] != "JC" and row["values"]["JC"] - min(row["values"].values()) == 8
    if saved:
        assert row["mistake"] and analysis["lost"][0] >= 8
    else:
        assert row["best"] == "7C"


def test_a_layout_too_big_for_the_search_is_not_valued(monkeypatch):
    """When the layout search cannot finish, the bot plays by its rule: no points to show."""
    record = load("lora-7.json")
    tiny = oracle_module.ORACLE.__class__(**{**oracle_module.ORACLE.__dict__, "layout_nodes": 1})
    monkeypatch.setattr(oracle_module, "ORACLE", tiny)
    analysis = analyse_deal(record, 6)
    assert analysis["rows"] and all(r["values"] is None and r["saved"] is None for r in analysis["rows"])
    assert analysis["lost"] == [0.0] * 4
    assert analyse_deal(record, 4)["rows"][0]["values"] is not None  # a trick deal is still valued
