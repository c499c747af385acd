"""Libyan Lora (rulings V10-V12, V15, V17): each contract's play, end and points with four
and three players, void deals and the dealer's +8, the three-player kitty (its voids, its
place in the layout, its cards for the last trick), bets, views and records."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from app.games.base import IllegalAction, NotYourTurn, RecordError
from app.games.cards import CARD_NAMES
from app.games.lora import LoraPartie
from app.games.records import replayed_record
from app.games.simulate import random_partie
from tests.support.libijska import BETS, LIB3, SUIT_HANDS, at_slot, lead_all, split
from tests.support.lora import play, suit
from tests.support.paths import EXAMPLES

LIB = {"variant": "libijska"}
BETS3 = {"variant": "libijska", "igraca": 3, "opklade": True}
CODES = ["herc", "kralj_herc", "dame", "zandar", "sesti", "stihovi", "dvojica", "lora"]


def last_points(partie: LoraPartie) -> list[int]:
    return partie.result()["deals"][-1]["points"]


# -- settings and schedule ------------------------------------------------------


def test_settings_seats_and_schedule():
    assert LoraPartie.normalize_settings({"variant": "libijska", "igraca": 4, "opklade": False}) == LIB
    assert LoraPartie.new(LIB3).n_seats == 3 and LoraPartie.new(LIB).n_seats == 4
    assert LoraPartie.seats_for(LIB3) == 3 and LoraPartie.seats_for({}) == 4
    four, three = LoraPartie.new(LIB), LoraPartie.new(LIB3)
    assert four.n_deals == 32 and three.n_deals == 24
    view = LoraPartie.new(LIB3, seed=1).view(0)
    assert [c for _, c in view["schedule"][:8]] == CODES
    assert [d for d, _ in view["schedule"]] == [k // 8 for k in range(24)]
    assert view["deal"]["first"] == 1 and len(view["deal"]["hand"]) == 10


# -- the contracts with four players ----------------------------------------------


def test_herc_all_eight_hearts_give_minus_eight():
    partie = at_slot(LIB, 0, SUIT_HANDS)
    lead_all(partie, 8)
    assert last_points(partie) == [0, -8, 0, 0]


def test_kralj_herc_ends_when_the_king_is_taken():
    partie = at_slot(LIB, 1, SUIT_HANDS)
    play(partie, "7D", "KH", "7C", "7S")
    assert partie.deals[-2 if partie.deal_index else -1].ended
    assert partie.result()["deals"][-1] == {"contract": "kralj_herc", "points": [0, 8, 0, 0]}


def test_dame_all_four_queens_give_minus_eight_and_end_the_deal():
    partie = at_slot(LIB, 2, SUIT_HANDS)
    play(partie, "QD", "QH", "QC", "QS")
    assert partie.result()["deals"][-1] == {"contract": "dame", "points": [0, -8, 0, 0]}


def test_dame_two_points_a_queen():
    hands = [cards_of("7S 8S 9S TS JS QS KS AD"), cards_of("7D 8D 9D TD JD QD KD AS"), suit("H"), suit("C")]
    partie = at_slot(LIB, 2, hands)
    play(partie, "QD", "QH", "QC", "AD")  # seat 0 follows with AD: three queens, +6
    play(partie, "QS", "AS", "7H", "7C")  # seat 1 takes QS (+2): every queen is out, the deal ends
    assert last_points(partie) == [6, 2, 0, 0]


def test_zandar_pays_the_seat_after_the_taker():
    partie = at_slot(LIB, 3, SUIT_HANDS)
    play(partie, "7D", "7H", "JC", "7S")
    assert partie.result()["deals"][-1] == {"contract": "zandar", "points": [0, 0, 8, 0]}


def test_sesti_ends_after_the_sixth_trick():
    partie = at_slot(LIB, 4, SUIT_HANDS)
    k = partie.deal_index
    lead_all(partie, 6)
    assert partie.deals[k].ended and len(partie.deals[k].tricks) == 6
    assert partie.result()["deals"][k] == {"contract": "sesti", "points": [0, 8, 0, 0]}


def test_stihovi_all_eight_tricks_give_minus_eight():
    partie = at_slot(LIB, 5, SUIT_HANDS)
    lead_all(partie, 8)
    assert last_points(partie) == [0, -8, 0, 0]


def test_dvojica_without_a_pair_is_void_and_the_third_void_costs_the_dealer():
    partie = at_slot(LIB, 6, SUIT_HANDS)
    dealer = partie.view(0)["deal"]["dealer"]
    for n in range(3):
        assert partie.next_slot == 6
        lead_all(partie, 8)  # seat 1 takes every trick: nobody else has three
        entry = partie.result()["deals"][-1]
        expected = [8 if s == dealer and n == 2 else 0 for s in range(4)]
        assert entry == {"contract": "dvojica", "points": expected, "void": True}
        if n < 2:
            partie.start_deal(SUIT_HANDS)
    assert partie.next_slot == 7 and partie.needs_deal


def test_dvojica_with_a_pair_ends_at_once_and_pays_the_other_two():
    for seed in range(40):
        partie = random_partie("lora", seed, LIB)
        for deal, entry in zip(partie.deals, partie.result()["deals"]):
            if entry["contract"] != "dvojica" or entry.get("void"):
                continue
            counts = deal.trick_counts
            assert sorted(counts)[-2] == 3  # it ends the moment a second player has 3
            assert entry["points"] == [0 if c >= 3 else 4 for c in counts]
            return
    pytest.fail("no dvojica deal with a pair in 40 random parties")


def test_lora_first_out_zero_others_a_card_and_two_a_dalje_doubled_on_the_start_rank():
    hands = [cards_of("8S 9S TS JS QS KS AS AD"), cards_of("7D 8D 9D TD JD QD KD 7S"), suit("H"), suit("C")]
    partie = at_slot(LIB, 7, hands)
    for rank in "789TJQK":
        play(partie, rank + "D", rank + "H", rank + "C")
        play(partie, "AD" if rank == "K" else "dalje")
    assert partie.deals[-1].passes[0] == 6
    play(partie, "7S")  # seat 1 goes out with a 7, the start rank: everything doubles
    assert last_points(partie) == [2 * (7 + 2 * 6), 0, 2, 2]


def cards_of(text: str) -> list[str]:
    return text.split()


# -- three players: the kitty ---------------------------------------------------


def three_hands() -> tuple[list[list[str]], list[str]]:
    """Seat 1: diamonds and 7S 8S; seat 2: hearts and 9S TS; seat 0: clubs to Q and J-A of
    spades; the kitty: KC AC."""
    return ([cards_of("7C 8C 9C TC JC QC JS QS KS AS"), suit("D") + ["7S", "8S"], suit("H") + ["9S", "TS"]],
            ["KC", "AC"])


def test_a_king_of_hearts_in_the_kitty_voids_kralj_herc_at_once_three_times_costs_the_dealer():
    partie = at_slot(LIB3, 1, split(["KH", "AH"]), ["KH", "AH"])
    for n in range(3):
        entry = partie.result()["deals"][-1]
        assert entry["void"] and partie.actions[-1] == [] and not partie.seats_to_act()
        if n < 2:
            assert partie.next_slot == 1
            partie.start_deal(split(["AH", "KH"]), ["AH", "KH"])
    assert partie.result()["deals"][-1] == {"contract": "kralj_herc", "points": [8, 0, 0], "void": True}
    assert partie.next_slot == 2
    partie.start_deal(split(["QH", "AH"]), ["QH", "AH"])  # dame: a queen in the kitty counts for nobody
    assert partie.seats_to_act() == [1]


def test_a_jack_of_clubs_in_the_kitty_voids_zandar():
    partie = at_slot(LIB3, 3, split(["JC", "7S"]), ["JC", "7S"])
    assert partie.result()["deals"][-1] == {"contract": "zandar", "points": [0, 0, 0], "void": True}


def test_the_kitty_plays_just_before_the_dealer_in_lora_and_is_shown_after_the_first_card():
    hands, kitty = three_hands()
    partie = at_slot(LIB3, 7, hands, kitty)
    dealer = partie.view(0)["deal"]["dealer"]
    assert dealer == 0 and all(partie.view(s)["deal"]["kitty"] is None for s in range(3))
    play(partie, "7D")
    assert all(partie.view(s)["deal"]["kitty"] == ["KC", "AC"] for s in range(3))
    play(partie, "7H")
    assert partie.seats_to_act() == [0] and partie.legal_actions(0) == ["kitty dalje"]
    assert partie.view(1)["deal"]["kitty_turn"]
    with pytest.raises(IllegalAction):
        partie.apply(0, "7C")  # the kitty's place comes first
    partie.apply(0, "kitty dalje")
    assert partie.deals[-1].passes == [0, 0, 0]  # the kitty's dalje costs nobody
    play(partie, "7C")
    for rank in "89TJQ":
        play(partie, rank + "D", rank + "H")
        assert partie.legal_actions(0) == ["kitty dalje"]
        partie.apply(0, "kitty dalje")
        play(partie, rank + "C")
    play(partie, "KD", "KH")
    assert partie.legal_actions(0) == ["kitty KC"]  # QC is down: the kitty's KC fits
    partie.apply(0, "kitty KC")
    assert partie.view(2)["deal"]["kitty"] == ["AC"]
    assert "kitty AC" not in partie.legal_actions(0)  # the dealer's own turn now
    with pytest.raises(IllegalAction):
        partie.apply(0, "kitty AC")


@pytest.mark.parametrize("kitty_heart", ["AH", "QH"])  # Q herc too: a heart, not a queen, in herc (V17)
def test_with_three_players_the_kitty_goes_to_the_last_trick(kitty_heart):
    hearts = [c for c in suit("H") if c != kitty_heart]
    hands = [suit("C") + ["7S", "8S"], suit("D") + ["9S", "TS"], hearts + ["JS", "QS", "KS"]]
    partie = at_slot(LIB3, 0, hands, [kitty_heart, "AS"])  # herc: a heart in the kitty, so all ten tricks are played
    k = partie.deal_index
    for rank, heart in zip("789TJQK", hearts):
        play(partie, rank + "D", heart, rank + "C")
    play(partie, "AD", "JS", "AC", "9S", "QS", "7S", "KS", "8S", "TS")
    deal = partie.deals[k]
    assert len(deal.tricks) == 10 and deal.tricks[-1][2] == 2
    assert partie.result()["deals"][k]["points"] == [0, 7, 1]  # the kitty's heart to seat 2, who took the last trick
    assert partie.view(0)["deals_total"] == 24


# -- bets -------------------------------------------------------------------------


def test_bets_their_answers_and_their_settlement():
    partie = at_slot(BETS, 0, SUIT_HANDS)
    assert partie.legal_actions(1) == [f"kladim {n}" for n in range(9)] + ["ne kladim"]
    with pytest.raises(IllegalAction):
        partie.apply(1, "7D")  # the bets come first
    play(partie, "kladim 0", "ne kladim", "kladim 8", "ne kladim")
    assert partie.seats_to_act() == [2] and partie.legal_actions(2) == ["kontra", "moze"]
    play(partie, "moze", "kontra")  # seat 3's kontra ends the round of seat 1's bet
    assert partie.seats_to_act() == [1] and partie.legal_actions(1) == ["rekontra", "moze"]
    play(partie, "rekontra", "moze", "moze", "moze")  # seat 3's bet: 0, 1, 2 answer
    bets = partie.view(2)["deal"]["bets"]
    assert bets[1] == {"word": "kladim 0", "kontra_by": 3, "rekontra": True}
    assert bets[0] == {"word": "ne kladim", "kontra_by": None, "rekontra": False}
    assert partie.seats_to_act() == [1] and "7D" in partie.legal_actions(1)
    lead_all(partie, 8)
    # herc: seat 1 all eight (-8); his kladim 0 is false with rekontra: +40 to him, -40 to seat 3;
    # seat 3's kladim 8 is false: +10.
    assert last_points(partie) == [0, -8 + 40, 0, -40 + 10]


def test_no_bets_in_kralj_herc_and_zandar_and_yes_no_bets_in_sesti():
    assert "7D" in at_slot(BETS, 1, SUIT_HANDS).legal_actions(1)
    assert "7D" in at_slot(BETS, 3, SUIT_HANDS).legal_actions(1)
    partie = at_slot(BETS, 4, SUIT_HANDS)
    assert partie.legal_actions(1) == ["kladim da", "kladim ne", "ne kladim"]
    play(partie, "kladim da", "ne kladim", "ne kladim", "ne kladim", "moze", "moze", "moze")
    lead_all(partie, 6)
    assert last_points(partie) == [0, 8 - 10, 0, 0]  # he won the 6th trick: his bet came true


def test_a_void_deal_voids_its_bets():
    partie = at_slot(BETS, 6, SUIT_HANDS)
    play(partie, "kladim 8", "ne kladim", "ne kladim", "ne kladim", "kontra")
    play(partie, "moze")
    lead_all(partie, 8)  # seat 1 takes all 8 (his bet came true) but no pair: void
    assert partie.result()["deals"][-1] == {"contract": "dvojica", "points": [0, 0, 0, 0], "void": True}


def test_lora_bets_count_dalje_and_double_with_the_deal():
    hands = [cards_of("8S 9S TS JS QS KS AS AD"), cards_of("7D 8D 9D TD JD QD KD 7S"), suit("H"), suit("C")]
    partie = at_slot(BETS, 7, hands)
    assert partie.legal_actions(1)[-2:] == ["kladim 32", "ne kladim"]
    play(partie, "ne kladim", "ne kladim", "ne kladim", "kladim 6", "moze", "moze", "moze")
    for rank in "789TJQK":
        play(partie, rank + "D", rank + "H", rank + "C")
        play(partie, "AD" if rank == "K" else "dalje")
    play(partie, "7S")
    assert last_points(partie) == [2 * (7 + 2 * 6 - 10), 0, 2, 2]  # his 6 dalje came true: -10, doubled


# -- records, views, random play ----------------------------------------------------


def test_records_with_a_kitty_replay_and_impossible_ones_are_refused():
    record = random_partie("lora", 3, BETS3).to_record(["a", "b", "c"])
    assert all(len(d["kitty"]) == 2 and all(len(h) == 10 for h in d["hands"]) for d in record["deals"])
    assert replayed_record(json.loads(json.dumps(record)))["result"] == record["result"]
    broken = json.loads(json.dumps(record))
    broken["deals"][0]["kitty"] = broken["deals"][0]["hands"][0][:2]
    with pytest.raises(RecordError, match="deal 0"):
        replayed_record(broken)
    no_kitty = json.loads(json.dumps(record))
    del no_kitty["deals"][0]["kitty"]
    with pytest.raises(RecordError, match="kitty"):
        replayed_record(no_kitty)
    four = json.loads(json.dumps(record))
    four["players"] = ["a", "b", "c", "d"]
    with pytest.raises(RecordError, match="3 players"):
        replayed_record(four)


def test_a_kitty_word_is_the_dealers_alone():
    hands, kitty = three_hands()
    partie = at_slot(LIB3, 7, hands, kitty)
    play(partie, "7D", "7H")
    with pytest.raises(NotYourTurn):
        partie.apply(1, "kitty dalje")


@pytest.mark.parametrize("settings", [LIB, BETS, LIB3, BETS3], ids=["4", "4-bets", "3", "3-bets"])
def test_random_parties_finish_replay_and_hide_the_kitty(settings):
    for seed in range(3):
        partie = random_partie("lora", seed, settings)
        assert partie.finished
        record = partie.to_record([f"p{i}" for i in range(partie.n_seats)])
        assert replayed_record(json.loads(json.dumps(record)))["result"] == record["result"]


@hsettings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), settings=st.sampled_from([LIB, BETS, LIB3, BETS3]))
def test_invariants_of_random_libyan_parties(seed, settings):
    partie = random_partie("lora", seed, settings)
    n = partie.n_seats
    result = partie.result()
    record = partie.to_record([f"p{i}" for i in range(n)])
    for deal in record["deals"]:  # cards conserved: the hands and the kitty are the deck
        cards = [c for h in deal["hands"] for c in h] + deal.get("kitty", [])
        assert sorted(cards) == sorted(CARD_NAMES)
    assert [sum(d["points"][s] for d in result["deals"]) for s in range(n)] == result["totals"]
    slots = 0
    voids = 0
    for entry, deal in zip(result["deals"], partie.deals):
        if entry.get("void"):
            voids += 1
            dealer = partie.house.schedule.dealer(deal.slot)
            assert entry["points"] == ([8 if s == dealer else 0 for s in range(n)] if voids == 3 else [0] * n)
            if voids == 3:
                slots, voids = slots + 1, 0
        else:
            slots, voids = slots + 1, 0
    assert slots == partie.n_deals
    totals = result["totals"]
    for a in range(n):
        for b in range(n):
            if totals[a] < totals[b]:
                assert result["places"][a] < result["places"][b]
    for s in range(n):  # no seat ever sees another's hand or a face-down kitty
        view = partie.view(s)
        assert "hands" not in view["deal"]


def test_the_replay_of_a_three_player_lora_deal_shows_the_kitty_and_the_bets():
    from app.web.pages.replay import replay_deal

    record = json.loads((EXAMPLES / "house-rules" / "lora-libijska3-opklade-101.json").read_text())
    out = replay_deal(record, 10)  # the first dealer's lora: bets, kontra, the kitty's turns
    assert out["dealt"]["kitty"] == ["8S", "KC"] and all(len(h) == 10 for h in out["steps"][0]["hands"])
    words = [step["action"][1] for step in out["steps"][1:]]
    assert "kitty dalje" in words and "rekontra" in words
    first = out["steps"][0]["table"]
    assert first["kitty"] is None and first["kitty_size"] == 2  # face down before the first card
    last = out["steps"][-1]["table"]
    assert last["ended"] and last["bets"][0]["word"] == "kladim 3"
    assert out["result"]["deals"][10]["points"] == [34, -50, 25]
