"""Follow round (section 8, P8), play (section 9) and ponuda (P9) with crafted deals."""

import pytest

from app.games.base import IllegalAction, NotYourTurn
from tests.support.preferans import (
    B_END_8_1_1, BETL_PASS, DEAL_B, DEAL_C, DEAL_D, HEARTS8, TREF_FIVE, cards, deal, new, ordinary, say,
)


def start(contract="herc", d=DEAL_B, skart="7D 8D"):
    p = new()
    deal(p, d)
    ordinary(p, 1, contract, skart=skart)
    return p


# -- P8: the words and their order ---------------------------------------------------------
def test_first_opponent_only_pratim_or_ne_pratim():
    p = start()
    assert p.seats_to_act() == [2]
    assert p.legal_actions(2) == ["pratim", "ne pratim"]
    with pytest.raises(IllegalAction):
        p.apply(2, "kontra")
    with pytest.raises(NotYourTurn):
        p.apply(0, "pratim")


def test_second_opponent_words_depend_on_the_first():
    p = start()
    say(p, "2:pratim")
    assert p.legal_actions(0) == ["pratim", "ne pratim"]
    p = start()
    say(p, "2:ne pratim")
    assert p.legal_actions(0) == ["sam", "kontra", "zovem", "ne pratim"]


def test_both_follow_then_kontra_round_in_order():
    p = start()
    say(p, "2:pratim 0:pratim")
    assert p.seats_to_act() == [2] and p.legal_actions(2) == ["kontra", "moze"]
    say(p, "2:moze")
    assert p.legal_actions(0) == ["kontra", "moze"]
    say(p, "0:kontra")
    assert p.seats_to_act() == [1] and p.legal_actions(1) == ["rekontra", "moze"]


def test_only_first_follows_he_chooses_kontra_zovem_or_sam():
    p = start()
    say(p, "2:pratim 0:ne pratim")
    assert p.legal_actions(2) == ["kontra", "zovem", "sam"]
    say(p, "2:zovem")
    assert p.hand.follow.caller == 2 and p.hand.follow.called == 0
    assert p.hand.play.seats == (0, 1, 2)


def test_nobody_follows_prolaz_as_ten_tricks():
    p = start()
    say(p, "2:ne pratim 0:ne pratim")
    assert p.hand.over and p.result()["bule"] == [60, 52, 60]
    assert p.result()["supe"] == [[0] * 3] * 3


def test_betl_has_no_follow_statements():
    p = start("betl", DEAL_D, "KD AD")
    assert p.legal_actions(2) == ["kontra", "moze"]
    say(p, "2:moze")
    assert p.legal_actions(0) == ["kontra", "moze"]
    say(p, "0:moze")
    assert p.hand.play.seats == (0, 1, 2)


def test_pik_sa_talonom_words():
    p = start("pik")
    say(p, "2:ne pratim")
    assert p.legal_actions(0) == ["kontra", "ne pratim"]  # no sam, no zovem
    p = start("pik")
    say(p, "2:pratim 0:pratim")
    assert p.legal_actions(2) == ["kontra", "moze"]
    say(p, "2:moze")
    assert p.legal_actions(0) == ["kontra", "moze"]
    say(p, "0:moze")
    assert p.hand.over and p.hand.end == "not played"


def test_igra_pik_is_an_ordinary_contract():
    p = new()
    deal(p, DEAL_B)
    say(p, "1:igra 2:dalje 0:dalje 1:pik 2:ne pratim")
    assert p.legal_actions(0) == ["sam", "kontra", "zovem", "ne pratim"]


# -- play ---------------------------------------------------------------------------------------------
def test_first_lead_is_the_first_bidder_or_the_next_in_play():
    p = start()
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    assert p.seats_to_act() == [1]
    p = new()
    deal(p, DEAL_B)  # deal 0: first bidder 1; seat 2 declares, seat 0 plays alone
    say(p, "1:dalje 2:2 0:dalje 2:skart 7D 8D 2:tref 0:ne pratim 1:sam")
    assert p.hand.play.seats == (1, 2) and p.seats_to_act() == [1]
    p = new()
    deal(p, DEAL_B)
    say(p, "1:dalje 2:2 0:dalje 2:skart 7D 8D 2:tref 0:pratim 1:ne pratim 0:sam")  # first bidder 1 is out
    assert p.hand.play.seats == (0, 2) and p.seats_to_act() == [2]


def test_sans_lead_falls_to_the_other_follower_when_the_one_before_is_out():
    p = start("sans")
    say(p, "2:pratim 0:ne pratim 2:sam")
    assert p.seats_to_act() == [2]


def test_must_follow_suit_then_trump():
    p = start("karo")  # trump diamonds; seat 2 has AD TD, seat 0 KD 9D
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    p.apply(1, "AH")
    assert p.legal_actions(2)[:2] == ["TD", "AD"] and "7C" not in p.legal_actions(2)
    with pytest.raises(IllegalAction):
        p.apply(2, "7C")
    p.apply(2, "TD")
    assert [w for w in p.legal_actions(0) if len(w) == 2] == ["9D", "KD"]


def test_no_trump_in_sans_anything_when_void():
    p = start("sans")
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    p.apply(0, "AS")
    assert len([w for w in p.legal_actions(1) if len(w) == 2]) == 10


def test_declarer_with_six_plays_to_the_end():
    p = start()
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    cards(p, HEARTS8)
    assert not p.hand.over
    cards(p, B_END_8_1_1)
    assert p.hand.over and p.hand.play.tricks == [1, 8, 1]


def test_single_follower_taking_the_fifth_trick_ends_the_hand():
    p = start("tref")
    say(p, "2:pratim 0:ne pratim 2:sam")
    cards(p, "AH 7C 8C KH 9C QH TC JH JC TH")
    assert p.hand.over and p.hand.play.tricks == [0, 0, 5]


def test_betl_play_to_the_end_when_the_declarer_takes_nothing():
    p = start("betl", DEAL_D, "KD AD")
    say(p, "2:moze 0:moze")
    cards(p, BETL_PASS)
    assert p.hand.over and p.hand.play.tricks == [10, 0, 0]


def test_card_out_of_turn_and_card_not_in_hand():
    p = start()
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    with pytest.raises(NotYourTurn):
        p.apply(2, "7C")
    with pytest.raises(IllegalAction):
        p.apply(1, "AS")
    v = p.version
    with pytest.raises(IllegalAction):
        p.apply(1, "bogus")
    assert p.version == v


# -- ponuda --------------------------------------------------------------------------------------------
def test_nosim_sve_accepted_by_both_shows_cards_meanwhile():
    p = start()
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    assert p.legal_actions(1)[-1:] == ["nosim sve"]
    say(p, "1:nosim sve")
    assert sorted(p.seats_to_act()) == [0, 2]
    shown = p.view(0)["hand"]["ponuda"]["declarer_hand"]
    assert shown == ["JD", "QD", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]
    assert "declarer_hand" not in p.view(None)["hand"]["ponuda"]
    assert "declarer_hand" not in p.view(1)["hand"]["ponuda"]
    say(p, "0:prihvatam 2:prihvatam")
    # 10 tricks to the declarer: -8; both followers have 0 < 2 and fall
    assert p.result()["bule"] == [68, 52, 68]


def test_nosim_sve_one_refusal_ends_it_and_it_can_be_repeated():
    p = start()
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    say(p, "1:nosim sve 2:prihvatam 0:odbijam")
    assert p.hand.ponuda is None and p.seats_to_act() == [1]
    assert "ponuda" not in p.view(0)["hand"]
    cards(p, "AH 7C 7S")
    say(p, "1:nosim sve 0:odbijam")
    assert p.seats_to_act() == [1]


# -- P12: the same offer again only after one more card -------------------------------------------
def test_refused_offer_not_repeated_before_a_card_a_different_one_at_once():
    p = start()
    say(p, "2:ne pratim 0:sam")
    say(p, "1:nudim 3 0:odbijam")
    words = p.legal_actions(1)
    assert "nudim 3" not in words and ["nosim sve", "nudim 2", "nudim 4"] == words[-3:]
    with pytest.raises(IllegalAction, match="P12"):
        p.apply(1, "nudim 3")
    assert p.hand.ponuda is None and p.seats_to_act() == [1]
    say(p, "1:nudim 2 0:odbijam 1:nosim sve 0:odbijam")  # different offers: legal at once
    assert [w for w in p.legal_actions(1) if w.startswith("n")] == ["nudim 4"]
    cards(p, "AH")  # one more card, even in the middle of a trick
    assert p.legal_actions(1)[-4:] == ["nosim sve", "nudim 2", "nudim 3", "nudim 4"]
    say(p, "1:nudim 3 0:odbijam")
    assert "nudim 3" not in p.legal_actions(1) and "nudim 2" in p.legal_actions(1)


def test_refused_claim_in_betl_waits_for_a_card_played_by_anyone():
    p = start("betl", DEAL_D, "KD AD")
    say(p, "2:moze 0:moze")
    say(p, "1:nemam pad 0:prihvatam 2:odbijam")
    assert "nemam pad" not in p.legal_actions(1)
    with pytest.raises(IllegalAction, match="no card has been played since"):
        p.apply(1, "nemam pad")
    cards(p, "7S")  # the declarer's own lead
    say(p, "1:nemam pad 2:odbijam")
    assert p.seats_to_act() == [2] and "nemam pad" not in p.legal_actions(1)
    cards(p, "TH")  # a follower's card counts as well
    assert p.legal_actions(1)[-1] == "nemam pad"


def test_nosim_sve_after_kontra_answered_by_both_opponents():
    p = start()
    say(p, "2:pratim 0:ne pratim 2:kontra 1:moze 1:nosim sve")
    assert sorted(p.hand.ponuda.responders) == [0, 2]


def test_nudim_to_a_single_follower():
    p = start()
    say(p, "2:ne pratim 0:sam")
    assert p.legal_actions(1)[-4:] == ["nosim sve", "nudim 2", "nudim 3", "nudim 4"]
    say(p, "1:nudim 2")
    assert p.seats_to_act() == [0]
    assert "declarer_hand" not in p.view(0)["hand"]["ponuda"]  # a trick offer shows no cards
    say(p, "0:odbijam")
    cards(p, "AH 7S KH 8S QH 9S JH TS TH JS 9H QS 8H KS 7H AS QD KD")  # seat 0 has 1 trick
    assert [w for w in p.legal_actions(1) if w.startswith("nudim")] == ["nudim 2"]
    say(p, "1:nudim 2 0:prihvatam")
    # the follower ends with 2, the declarer with 8: -8; follower not fallen, writes 2 x 8
    assert p.result()["bule"] == [60, 52, 60]
    assert p.result()["supe"] == [[0, 16, 0], [0, 0, 0], [0, 0, 0]]


def test_nudim_4_after_zovem_answered_by_the_caller_only():
    p = start()
    say(p, "2:ne pratim 0:zovem")
    assert [w for w in p.legal_actions(1) if w.startswith("nudim")] == ["nudim 4"]
    say(p, "1:nudim 4")
    assert p.seats_to_act() == [0]
    with pytest.raises(NotYourTurn):
        p.apply(2, "prihvatam")
    say(p, "0:prihvatam")
    # declarer 6 passes: -8; the caller has 4 with the called, writes 4 x 8
    assert p.result()["bule"] == [60, 52, 60]
    assert p.result()["supe"] == [[0, 32, 0], [0, 0, 0], [0, 0, 0]]


def test_nudim_4_after_zovem_counts_all_four_to_the_caller():
    """P9: after zovem an accepted nudim 4 gives the caller and the called 4 together, all
    counted to the caller: the hand's tricks line reads declarer 6, caller 4, called 0,
    also when the called player had taken a trick himself."""
    p = start()
    say(p, "2:ne pratim 0:zovem")  # seat 0 calls seat 2
    cards(p, "JD AD 9D")  # the called player takes the first trick
    assert p.hand.play.tricks == [0, 0, 1]
    say(p, "1:nudim 4 0:prihvatam")
    line = p.papir()["lines"][-1]
    assert line["tricks"] == [4, 6, 0]
    assert p.view(0)["hand"]["trick_counts"] == [4, 6, 0]
    # the score is that of 4 tricks of the caller: declarer -8, the caller writes 4 x 8
    assert p.result()["bule"] == [60, 52, 60]
    assert p.result()["supe"] == [[0, 32, 0], [0, 0, 0], [0, 0, 0]]


def test_no_trick_offers_to_two_followers():
    p = start()
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    assert not [w for w in p.legal_actions(1) if w.startswith("nudim")]
    with pytest.raises(IllegalAction):
        p.apply(1, "nudim 3")


def test_nemam_pad_in_betl_both_answer_without_kontra():
    p = start("betl", DEAL_D, "KD AD")
    say(p, "2:moze 0:moze")
    assert p.legal_actions(1)[-1] == "nemam pad" and "nosim sve" not in p.legal_actions(1)
    say(p, "1:nemam pad")
    assert sorted(p.seats_to_act()) == [0, 2]
    assert len(p.view(2)["hand"]["ponuda"]["declarer_hand"]) == 10
    say(p, "2:prihvatam 0:prihvatam")
    assert p.result()["bule"] == [60, 48, 60]


def test_nemam_pad_with_kontra_answered_by_the_kontra_giver():
    p = start("betl", DEAL_D, "KD AD")
    say(p, "2:kontra 1:moze 1:nemam pad")
    assert p.seats_to_act() == [2]
    say(p, "2:prihvatam")
    # v = 24: the betl passes, the kontra-giver falls
    assert p.result()["bule"] == [60, 36, 84]


def test_nemam_pad_refused():
    p = start("betl", DEAL_D, "KD AD")
    say(p, "2:moze 0:moze 1:nemam pad 0:odbijam")
    assert p.seats_to_act() == [1] and not p.hand.over


def test_ponuda_in_the_middle_of_a_trick_and_only_by_the_declarer():
    p = start()
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    cards(p, "AH 7C")
    with pytest.raises(IllegalAction):
        p.apply(0, "nosim sve")
    say(p, "1:nosim sve 0:prihvatam 2:prihvatam")
    assert p.hand.play.tricks[1] == 10  # the unfinished trick counts as unplayed


def test_seats_play_only_after_the_offer_is_answered():
    p = start()
    say(p, "2:pratim 0:pratim 2:moze 0:moze 1:nosim sve")
    with pytest.raises(NotYourTurn):
        p.apply(1, "AH")
    assert p.legal_actions(1) == []


def test_tref_five_fixture_is_consistent():
    p = start("tref")
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    cards(p, TREF_FIVE)
    assert p.hand.play.tricks == [0, 0, 5]


def test_declared_game_talon_stays_hidden_until_the_end():
    p = new()
    deal(p, DEAL_C)
    say(p, "1:igra 2:dalje 0:dalje 1:herc")
    assert p.view(1)["hand"]["talon"] is None and p.view(None)["hand"]["talon"] is None
    say(p, "2:ne pratim 0:ne pratim")
    assert p.view(None)["hand"]["talon"] == ["KD", "AD"]


def test_out_of_play_hand_hidden_whole_deal_shown_at_the_end():
    p = start()
    say(p, "2:ne pratim 0:sam")
    out_of_play = set(DEAL_B[2].split())
    import json

    for seat in (None, 0, 1):
        text = json.dumps(p.view(seat)["hand"])
        assert not any(f'"{c}"' in text for c in out_of_play)
    assert "skart" in p.view(0)["hand"]["words"][3][1] and "7D" not in json.dumps(p.view(0)["hand"]["words"])
    say(p, "1:nosim sve 0:prihvatam")
    deal_ = p.view(None)["hand"]["deal"]
    assert set(deal_["hands"][2]) == out_of_play and len(deal_["hands"][2]) == 10
    assert deal_["talon"] == ["7D", "8D"] and deal_["skart"] == ["7D", "8D"]
    assert p.view(None)["hand"]["words"][3] == [1, "skart 7D 8D"]


def test_shown_deal_of_an_ended_hand_in_a_seeded_partie():
    from app.games.base import GameError
    from app.games.preferans import PreferansPartie

    p = PreferansPartie.new({}, seed=11)
    with pytest.raises(GameError):
        p.shown_deal(0)
    first = p.hand.first
    original = [list(h) for h in p.deals[0]["hands"]]
    for k in range(3):
        p.apply((first + k) % 3, "dalje")
    assert p.view(None)["last_deal_index"] == 0 and p.view(None)["hand"]["deal_index"] == 1
    shown = p.shown_deal(0)
    assert [set(h) for h in shown["hands"]] == [set(h) for h in original] and shown["skart"] == []
