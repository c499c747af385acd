"""Why a deal ended as it did (issue 23, item 2): the views' ``deal_ends`` block.

Lórum's makk names each payer and his reason, 101 the card that reached 101 with the total
and the whole pile, the Hairy monkey the K herc's taker; Libyan Lora names the card of a
void deal's kitty (and the deal before it, ended by the same move), Dvojica's missing pair,
the dealer's third void, each bet's outcome and the doubled layout. The block shows no
card that was not played (or turned face up by the deal's end).
"""

from __future__ import annotations

import random
import re

import pytest

from app.games.cards import CARD_NAMES
from app.games.lora import LoraPartie
from app.games.lorum import LorumPartie
from tests.support.libijska import BETS, LIB3, SUIT_HANDS, at_slot, lead_all, split
from tests.support.lora import cards, play
from tests.support.lorum import (
    BOTH,
    FAST_HANDS,
    FAST_STOCK,
    MAKK,
    STO_JEDAN,
    SUITS,
    THREE_PAYERS,
    at,
)

CARD = re.compile(r"\b[789TJQKA][SDHC]\b")


def ends(partie, seat=None):
    return partie.view(seat)["deal_ends"]


def reasons(partie, seat=None):
    return ends(partie, seat)[-1]["reasons"]


# -- Lórum ------------------------------------------------------------------------------------


def test_makk_names_each_payer_and_his_reason():
    partie = at(7, THREE_PAYERS)
    play(partie, "7H", "AH", "JC", "7S")  # seat 2 takes J tref
    play(partie, "KH", "7C", "8S", "8D")  # seat 2 takes K herc
    play(partie, "7D", "8C", "9S", "9D")
    for r, h, c in zip("TJQKA", ["8H", "9H", "TH", "JH", "QH"], ["9C", "TC", "QC", "KC", "AC"]):
        play(partie, r + "D", h, c, r + "S")
    end = ends(partie, 3)[-1]
    assert end["index"] == 7 and end["contract"] == "makk"
    assert end["transfers"] == [-10, -10, -10, 0] and end["bank"] == 30
    assert end["reasons"] == [
        {"code": "makk_king", "seat": 2, "card": "KH", "amount": -10},
        {"code": "makk_last_trick", "seat": 1, "trick": 8, "amount": -10},
        {"code": "makk_opposite_jack", "seat": 0, "taker": 2, "card": "JC", "amount": -10},
    ]


def test_makk_one_seat_paying_twice_has_two_reasons():
    partie = at(6, SUITS, settings=MAKK)
    for r in "789TJQKA":
        play(partie, r + "D", r + "H", r + "C", r + "S")
    got = [(r["code"], r["seat"]) for r in reasons(partie)]
    assert got == [("makk_king", 1), ("makk_last_trick", 1), ("makk_opposite_jack", 3)]
    assert sum(r["amount"] for r in reasons(partie)) == -30 == -ends(partie)[-1]["bank"]


def test_101_names_the_card_that_reached_it_the_total_and_keeps_the_pile():
    partie = at(6, FAST_HANDS, FAST_STOCK, settings=STO_JEDAN)
    play(partie, "AS", "AD", "AH", "AC", "TS", "TD", "TH", "TC", "JS", "JD", "JH", "JC", "QS", "QD", "QH")
    end = ends(partie, 0)[-1]
    assert end["contract"] == "sto_jedan" and end["total"] == 101
    assert end["reasons"] == [{"code": "sto_jedan", "seat": 3, "card": "QH", "total": 101, "amount": -10}]
    assert [c for _, c in end["pile"]] == cards("AS AD AH AC TS TD TH TC JS JD JH JC QS QD QH")
    assert end["pile"][-1] == [3, "QH"]


def test_hairy_monkey_names_the_king_of_hearts_taker():
    partie = at(5, SUITS, settings={})  # the Club's Lórum: deal 5 is the Hairy monkey
    for r in "789TJQK":  # it ends once K herc is taken
        play(partie, r + "D", r + "H", r + "C", r + "S")
    assert reasons(partie) == [{"code": "king_of_hearts", "seat": 1, "card": "KH", "amount": -10}]
    assert ends(partie)[-1]["contract"] == 6


def test_hearts_clean_players_and_one_collector():
    partie = at(0, SUITS, settings={})  # Hearts: seat 1 leads diamonds and takes every heart
    for r in "789TJQKA":
        play(partie, r + "D", r + "H", r + "C", r + "S")
    assert reasons(partie) == [{"code": "collected_all", "seat": 1}]


# -- Libyan Lora ------------------------------------------------------------------------------


def test_a_kitty_void_names_its_card_and_the_deal_ended_by_the_same_move():
    partie = at_slot(LIB3, 1, split(["KH", "AH"]), ["KH", "AH"])
    got = ends(partie, 0)
    assert [e["contract"] for e in got] == ["herc", "kralj_herc"]  # the deal before, then the void one
    void = got[-1]
    assert void["void"] and void["slot"] == 1 and void["index"] == len(partie.deals) - 1
    assert void["reasons"] == [{"code": "void_kitty", "card": "KH"}]
    assert not got[0]["void"]


def test_the_third_void_in_a_row_names_the_dealer_who_pays():
    partie = at_slot(LIB3, 1, split(["KH", "AH"]), ["KH", "AH"])
    for _ in range(2):
        partie.start_deal(split(["AH", "KH"]), ["AH", "KH"])
    got = ends(partie)
    assert [e["void"] for e in got] == [False, True, True, True]  # all ended by one move
    assert got[-1]["reasons"] == [{"code": "void_kitty", "card": "KH"}, {"code": "third_void", "seat": 0, "amount": 8}]


def test_jack_of_clubs_in_the_kitty():
    partie = at_slot(LIB3, 3, split(["JC", "7S"]), ["JC", "7S"])
    assert reasons(partie) == [{"code": "void_kitty", "card": "JC"}]


def test_dvojica_without_a_pair_and_its_voided_bets():
    partie = at_slot(BETS, 6, SUIT_HANDS)
    play(partie, "kladim 8", "ne kladim", "ne kladim", "ne kladim", "kontra", "moze")
    lead_all(partie, 8)
    end = ends(partie)[-1]
    assert end["void"] and end["reasons"] == [{"code": "void_no_pair", "tricks": 3}]


def test_each_bet_names_its_outcome():
    partie = at_slot(BETS, 0, SUIT_HANDS)
    play(partie, "kladim 0", "ne kladim", "kladim 8", "ne kladim")
    play(partie, "moze", "kontra", "rekontra", "moze", "moze", "moze")
    lead_all(partie, 8)
    bets = [r for r in reasons(partie) if r["code"] == "bet"]
    assert bets == [
        {"code": "bet", "seat": 1, "word": "kladim 0", "count": 8, "came_true": False, "kontra_by": 3,
         "rekontra": True, "amount": 40},
        {"code": "bet", "seat": 3, "word": "kladim 8", "count": 0, "came_true": False, "kontra_by": None,
         "rekontra": False, "amount": 10},
    ]
    assert ends(partie)[-1]["points"] == [0, -8 + 40, 0, -40 + 10]


def test_a_true_yes_bet_and_the_doubled_layout():
    partie = at_slot(BETS, 4, SUIT_HANDS)
    play(partie, "kladim da", "ne kladim", "ne kladim", "ne kladim", "moze", "moze", "moze")
    lead_all(partie, 6)
    assert reasons(partie) == [{"code": "bet", "seat": 1, "word": "kladim da", "count": 1, "came_true": True,
                                "kontra_by": None, "rekontra": False, "amount": -10}]
    hands = [cards("8S 9S TS JS QS KS AS AD"), cards("7D 8D 9D TD JD QD KD 7S"), [r + "H" for r in "789TJQKA"],
             [r + "C" for r in "789TJQKA"]]
    partie = at_slot(BETS, 7, hands)
    play(partie, "ne kladim", "ne kladim", "ne kladim", "kladim 6", "moze", "moze", "moze")
    for rank in "789TJQK":
        play(partie, rank + "D", rank + "H", rank + "C")
        play(partie, "AD" if rank == "K" else "dalje")
    play(partie, "7S")
    got = reasons(partie)
    assert got[0]["code"] == "bet" and got[0]["came_true"] and got[0]["amount"] == -10
    assert got[-1] == {"code": "doubled", "card": "7S"}


def test_the_clubs_lora_has_ends_without_reasons_and_none_before_the_first_end():
    partie = LoraPartie.new({}, seed="x")
    assert ends(partie) == []
    rng = random.Random(1)
    while not partie.deals[0].ended:
        (s,) = partie.seats_to_act()
        partie.apply(s, rng.choice(partie.legal_actions(s)))
    (end,) = ends(partie)
    assert end["index"] == 0 and end["reasons"] == [] and end["points"] == partie.points[0]


# -- nothing hidden ---------------------------------------------------------------------------


@pytest.mark.parametrize("cls, settings", [
    (LorumPartie, BOTH), (LoraPartie, {"variant": "libijska", "igraca": 3, "opklade": True}),
    (LoraPartie, {"variant": "libijska", "opklade": True}), (LoraPartie, {}),
])
def test_the_block_names_only_played_cards_or_a_kitty_turned_at_the_end(cls, settings):
    for seed in range(3):
        partie = cls.new(cls.normalize_settings(settings), seed=f"ends{seed}")
        rng = random.Random(seed)
        seen = 0
        while not partie.finished:
            (s,) = partie.seats_to_act()
            partie.apply(s, rng.choice(partie.legal_actions(s)))
            for seat in (*range(partie.n_seats), None):
                for end in partie.view(seat)["deal_ends"]:
                    deal = partie.deals[end["index"]]
                    public = {w.split()[-1] for _, w in partie.actions[end["index"]]}
                    public |= {c for c in CARD.findall(" ".join(map(str, partie.view(None)["deal"].get("kitty") or [])))}
                    if deal.ended and deal.pile:
                        public |= {CARD_NAMES[c] for c in deal.pile}  # the kitty: face up at the end
                    named = set(CARD.findall(repr(end)))
                    assert named <= public, (end, named - public)
                    seen += 1
        assert seen
