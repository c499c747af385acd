"""The replay's analysis of preferans hands (app/ai/preferans/analysis.py): every card
choice valued by the declarer's tricks with every hand open, in the last tricks those of a
plain minimax; the bids, the škart, the contract and the follow round's words (kontra
too) valued in points by the seat's expected result over sampled worlds, right where the
answer is obvious; the claims and the offers' answers not valued."""

from __future__ import annotations

import json
import os

import pytest

from app.ai.common.tricks import legal_cards, winner_index
from app.ai.preferans.analysis import open_values
from app.analysis.deal import analyse_deal
from app.games.cards import CARD_BY_NAME, cards_of
from app.games.preferans import PreferansPartie
from tests.support.analysis import check_rows, decisions, load

RECORDS = ("preferans-11.json", "preferans-9001.json", "preferans-70043.json")


def played_deals(record: dict) -> list[int]:
    """The deals whose cards were played (more words than the auction and the follow round)."""
    return [k for k, d in enumerate(record["deals"]) if any(w in CARD_BY_NAME for _, w in d["actions"])]


DECIDED_IN_POINTS = ("licitacija", "talon", "kontrakt", "pracenje")


# Two played hands and one passed hand of each record (valuing a hand's bids takes about a
# second); KLUB_ANALYSIS_EVERY_DEAL=1 checks every hand (about 2 minutes).
EVERY_DEAL = os.environ.get("KLUB_ANALYSIS_EVERY_DEAL") == "1"


@pytest.mark.parametrize("name", RECORDS)
def test_every_card_bid_skart_contract_and_follow_word_is_valued_and_no_other_word(name):
    record = load(name)
    deals = played_deals(record)
    assert deals or name == "preferans-9001.json"
    passed = [k for k in range(len(record["deals"])) if k not in deals]
    for k in range(len(record["deals"])) if EVERY_DEAL else sorted(deals[:2] + passed[:1]):
        analysis = analyse_deal(record, k)
        assert analysis["game"] == "preferans"
        check_rows(record, k, analysis)
        phases = phases_of(record, k)
        for row, (step, _, word, legal) in zip(analysis["rows"], decisions(record, k)):
            card_choice = word in CARD_BY_NAME and sum(w in CARD_BY_NAME for w in legal) > 1
            in_points = phases[step] in DECIDED_IN_POINTS
            assert (row["values"] is not None) == (card_choice or in_points), (row, legal, phases[step])
            assert (row.get("unit") == "points") == in_points and (row.get("unit") is None) == (not in_points)
        assert any(r["values"] and "unit" not in r for r in analysis["rows"]) == (k in deals)
        assert any(r.get("unit") == "points" for r in analysis["rows"])  # every deal has its auction


def phases_of(record: dict, k: int) -> dict[int, str]:
    """The phase of the hand at each step of deal ``k``."""
    partie = PreferansPartie.new(record["settings"])
    for d in record["deals"][:k]:
        partie.start_deal(d["hands"], d.get("talon"))
        for seat, word in d["actions"]:
            partie.apply(seat, word)
    d = record["deals"][k]
    partie.start_deal(d["hands"], d.get("talon"))
    out = {}
    for step, (seat, word) in enumerate(d["actions"], 1):
        out[step] = partie.view(seat)["hand"]["phase"]
        partie.apply(seat, word)
    return out


# -- constructed hands: the answer is obvious -----------------------------------------------
# Seat 1 speaks first in deal 0 and, after "2" and two "dalje", takes the talon.
MONSTER = "AS KS QS JS TS 9S 8S 7S AH KH"  # ten sure tricks
JUNK = "7S 8S 9S 7H 8H 9H 7D 8D 7C 8C"  # no trick in any suit: a sure betl


def constructed(seat1: str, talon: str, words: list[tuple[int, str]], others: tuple[str, str] | None = None) -> tuple[dict, list]:
    """The record of deal 0 with ``seat1``'s hand and ``talon`` (the other cards to seats 0
    and 2 in order, or ``others``), its words said; and the rows of its analysis."""
    mine, pile = seat1.split(), talon.split()
    if others is None:
        rest = [r + s for s in "SHDC" for r in "789TJQKA" if r + s not in mine + pile]
        others = (" ".join(rest[:10]), " ".join(rest[10:20]))
    partie = PreferansPartie.new({"bule": 30, "refe": 1})
    partie.start_deal([others[0].split(), mine, others[1].split()], pile)
    for seat, word in words:
        partie.apply(seat, word)
    record = partie.to_record(["a", "b", "c"])
    analysis = analyse_deal(record, 0)
    check_rows(record, 0, analysis)
    return analysis, analysis["rows"]


def row_of(rows: list, word: str, seat: int) -> dict:
    return next(r for r in rows if r["word"] == word and r["seat"] == seat)


def test_passing_with_ten_sure_tricks_is_a_mistake_of_the_auction():
    analysis, rows = constructed(MONSTER, "7D 7C", [(1, "dalje")])
    row = row_of(rows, "dalje", 1)
    assert row["unit"] == "points" and row["values"]["dalje"] == 0
    assert row["best"] != "dalje" and row["values"][row["best"]] < 0 and row["values"]["2"] < 0
    assert row["saved"] > 0 and row["mistake"]
    assert analysis["lost_other"]["points"][1] == row["saved"] and analysis["lost"] == [0, 0, 0]


def test_discarding_the_aces_of_a_betl_hand_is_a_mistake_and_the_betl_is_the_contract():
    words = [(1, "2"), (2, "dalje"), (0, "dalje"), (1, "skart 7S 7H"), (1, "karo")]
    _, rows = constructed(JUNK, "AS AH", words)
    skart = row_of(rows, "skart 7S 7H", 1)
    assert skart["unit"] == "points" and sorted(skart["best"].split()[1:]) == ["AH", "AS"]
    assert skart["saved"] > 0 and skart["mistake"]
    contract = row_of(rows, "karo", 1)  # with the aces kept every contract falls, betl too: karo
    assert contract["values"].keys() == {"pik", "karo", "herc", "tref", "betl", "sans"} and contract["saved"] >= 0
    _, rows = constructed(JUNK, "AS AH", [(1, "2"), (2, "dalje"), (0, "dalje"), (1, "skart AS AH"), (1, "karo")])
    assert row_of(rows, "skart AS AH", 1)["saved"] == 0
    contract = row_of(rows, "karo", 1)
    assert contract["best"] == "betl" and contract["saved"] > 0  # seven to nine in every suit: the betl makes


def test_kontra_against_a_declarer_who_cannot_make_it_and_no_rekontra():
    """The declarer's ten cards are the lowest; one defender holds the aces, kings and queens."""
    others = ("TS TH JH AC KC QC JC TC JD TD", "AS KS QS JS AH KH QH AD KD QD")
    start = [(1, "2"), (2, "dalje"), (0, "dalje"), (1, "skart 9D 9C"), (1, "karo"), (2, "pratim"), (0, "pratim")]
    _, rows = constructed(JUNK, "9D 9C", start + [(2, "moze"), (0, "moze")], others)
    moze = row_of(rows, "moze", 2)
    assert moze["values"].keys() == {"kontra", "moze"} and moze["best"] == "kontra" and moze["saved"] > 0
    assert moze["values"]["kontra"] == 2 * moze["values"]["moze"] < 0  # kontra doubles what he wins
    _, rows = constructed(JUNK, "9D 9C", start + [(2, "kontra"), (1, "rekontra")], others)
    kontra = row_of(rows, "kontra", 2)
    assert kontra["best"] == "kontra" and kontra["saved"] == 0
    rekontra = row_of(rows, "rekontra", 1)
    assert rekontra["values"].keys() == {"rekontra", "moze"} and rekontra["best"] == "moze" and rekontra["saved"] > 0
    assert rekontra["values"]["rekontra"] == 2 * rekontra["values"]["moze"] > 0  # kontra doubles, rekontra again


def declarer_tricks(hands: list[int], seats: tuple[int, ...], turn: int, trick: list[tuple[int, int]],
                    trump: int | None, declarer: int, betl: bool) -> int:
    """The declarer's tricks from here to the tenth, every card open: plain minimax (the
    declarer takes as many as he can, in betl as few; the defenders the opposite)."""
    if not any(hands[s] for s in seats) and not trick:
        return 0
    outcomes = []
    for c in cards_of(legal_cards(hands[turn], [x for _, x in trick], trump)):
        after = list(hands)
        after[turn] &= ~(1 << c)
        played = [*trick, (turn, c)]
        if len(played) == len(seats):
            winner = played[winner_index([x for _, x in played], trump)][0]
            outcomes.append(int(winner == declarer) + declarer_tricks(after, seats, winner, [], trump, declarer, betl))
        else:
            nxt = seats[(seats.index(turn) + 1) % len(seats)]
            outcomes.append(declarer_tricks(after, seats, nxt, played, trump, declarer, betl))
    wants_more = (turn == declarer) != betl
    return max(outcomes) if wants_more else min(outcomes)


@pytest.mark.parametrize("name", RECORDS)
def test_the_values_of_the_last_tricks_are_the_minimax_ones(name):
    record = load(name)
    partie = PreferansPartie.new(record["settings"])
    checked = 0
    for d in record["deals"]:
        partie.start_deal(d["hands"], d.get("talon"))
        for seat, word in d["actions"]:
            hand = partie.hand
            play = hand.play if hand is not None else None
            legal = partie.legal_actions(seat)
            cards = [w for w in legal if w in CARD_BY_NAME]
            if play is not None and len(cards) > 1 and sum(play.hands[s].bit_count() for s in play.seats) <= 9:
                values = open_values(partie, seat, legal)
                assert values is not None and sorted(values) == sorted(cards)
                sign = 1 if (seat == play.declarer) == play.betl else -1
                for w in cards:
                    c = CARD_BY_NAME[w]
                    hands = list(play.hands)
                    hands[seat] &= ~(1 << c)
                    played = [*play.trick, (seat, c)]
                    if len(played) == len(play.seats):
                        winner = played[winner_index([x for _, x in played], play.trump)][0]
                        future = int(winner == play.declarer) + declarer_tricks(
                            hands, play.seats, winner, [], play.trump, play.declarer, play.betl)
                    else:
                        nxt = play.seats[(play.seats.index(seat) + 1) % len(play.seats)]
                        future = declarer_tricks(hands, play.seats, nxt, played, play.trump, play.declarer, play.betl)
                    assert values[w] == sign * future, (w, values)
                checked += 1
            partie.apply(seat, word)
    assert checked or name == "preferans-9001.json"


def test_the_words_about_the_hand_before_are_not_valued_beside_the_bids_and_contracts():
    """A fall to take over is open (odlazak u bulu, P10) while the next hand is bid and its
    contract chosen: ``preuzimam pad`` is legal beside the bids and the contracts. The
    analysis values those among themselves and leaves the word about the hand before out
    (it failed on it: a partie of the zadaci bench, tests/data/preferans-fall-window.json)."""
    with open(os.path.join(os.path.dirname(__file__), "..", "data", "preferans-fall-window.json")) as f:
        record = json.load(f)
    rows = {row["step"]: row for row in analyse_deal(record, 2)["rows"]}
    bid, contract = rows[3], rows[5]
    assert bid["word"] == "2" and contract["word"] == "herc"
    assert contract["values"] is not None and set(contract["values"]) == {"pik", "karo", "herc", "tref", "betl", "sans"}
    assert bid["values"] is not None and "preuzimam pad" not in bid["values"] and "2" in bid["values"]
