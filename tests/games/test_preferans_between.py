"""Odlazak u bulu (section 11, P10), otpis (section 14, P11), results and places (15, P7)."""

import pytest

from app.games.base import IllegalAction, NotYourTurn
from app.games.preferans.papir import Papir
from app.games.records import replay
from tests.support.preferans import (
    BETL_PASS, DEAL_B, DEAL_D, all_pass, cards, deal, new, ordinary,
    prolaz, say,
)
from tests.support.preferans import both_fell, zovem_fall


# -- odlazak u bulu ---------------------------------------------------------------------------------
def test_called_player_takes_over_the_callers_fall():
    p = zovem_fall()
    assert p.legal_actions(2) == ["otpis", "preuzimam pad"]
    assert "preuzimam pad" not in p.legal_actions(0) and "preuzimam pad" not in p.legal_actions(1)
    say(p, "2:preuzimam pad")
    assert p.seats_to_act() == [0]
    say(p, "0:prihvatam")
    r = p.result()
    assert r["bule"] == [60, 52, 68]
    assert r["supe"] == [[0, 0, 0], [0, 0, 0], [0, 16, 0]]


def test_refused_offer_closes_odlazak_for_that_hand():
    p = zovem_fall()
    say(p, "2:preuzimam pad 0:odbijam")
    assert p.result()["bule"] == [68, 52, 60]
    assert "preuzimam pad" not in p.legal_actions(2)
    with pytest.raises(IllegalAction):
        p.apply(2, "preuzimam pad")


def test_taken_returned_and_taken_again():
    p = both_fell()
    assert p.legal_actions(0) == ["otpis", "preuzimam pad"]
    say(p, "0:preuzimam pad 2:prihvatam")
    # both fell: seat 0 takes seat 2's fall over besides his own, and writes its supe
    assert p.result()["bule"] == [76, 52, 60]
    assert p.result()["supe"] == [[0, 8, 0], [0, 0, 0], [0, 0, 0]]
    assert "vracam pad" in p.legal_actions(0) and "preuzimam pad" not in p.legal_actions(2)
    say(p, "0:vracam pad 2:prihvatam")
    assert p.result()["bule"] == [68, 52, 68]
    assert p.result()["supe"] == [[0, 0, 0], [0, 0, 0], [0, 8, 0]]
    say(p, "2:preuzimam pad 0:prihvatam")  # now the other way round
    assert p.result()["bule"] == [60, 52, 76]


def test_refused_return_closes_the_window():
    p = both_fell()
    say(p, "0:preuzimam pad 2:prihvatam 0:vracam pad 2:odbijam")
    assert p.result()["bule"] == [76, 52, 60]
    assert "vracam pad" not in p.legal_actions(0) and "preuzimam pad" not in p.legal_actions(2)


def test_kontra_giver_fall_taken_by_the_other_follower_in_betl():
    p = new()
    deal(p, DEAL_D)
    ordinary(p, 1, "betl", skart="KD AD")
    say(p, "2:moze 0:kontra 1:moze")
    cards(p, BETL_PASS)
    assert p.result()["bule"] == [84, 36, 60]
    say(p, "2:preuzimam pad 0:prihvatam")
    assert p.result()["bule"] == [60, 36, 84]


def test_offer_during_the_next_hand_and_its_place_in_the_record():
    p = zovem_fall()
    deal(p, DEAL_B)  # deal 1: first bidder 2
    say(p, "2:dalje 2:preuzimam pad 0:odbijam")
    rec = p.to_record(["a", "b", "c"])
    assert rec["deals"][1]["actions"] == [[2, "dalje"], [2, "preuzimam pad"], [0, "odbijam"]]
    assert replay(rec).result() == p.result()


def test_offer_between_hands_is_recorded_with_the_finished_hand():
    p = zovem_fall()
    say(p, "2:preuzimam pad 0:prihvatam")
    deal(p, DEAL_B)
    say(p, "2:dalje")
    rec = p.to_record(["a", "b", "c"])
    assert rec["deals"][0]["actions"][-2:] == [[2, "preuzimam pad"], [0, "prihvatam"]]
    assert rec["deals"][1]["actions"] == [[2, "dalje"]]
    assert replay(rec).result() == p.result()


def test_seeded_partie_accepts_the_offer_before_the_next_hands_first_word():
    import random

    from app.games.preferans import PreferansPartie

    for seed in range(200):  # random play until a hand ends with a fall that can be taken over
        p = PreferansPartie.new({}, seed=seed)
        rng = random.Random(seed)
        while not p.finished and p.fall_window is None:
            (seat,) = p.seats_to_act()[:1] or [None]
            words = [w for w in p.legal_actions(seat) if w not in ("otpis", "preuzimam pad")]
            p.apply(seat, rng.choice(words))
        if p.fall_window is not None and p.hand.n_actions == 0:
            break
    fw = p.fall_window
    taker = fw.other(fw.fallen[0])
    n = len(p.deals)
    p.apply(taker, "preuzimam pad")
    p.apply(fw.fallen[0], "odbijam")
    rec = p.to_record(["a", "b", "c"])
    assert rec["deals"][n - 2]["actions"][-2:] == [[taker, "preuzimam pad"], [fw.fallen[0], "odbijam"]]
    assert replay(rec).result() == p.result()


def test_window_closes_at_the_end_of_the_next_hand():
    p = zovem_fall()
    all_pass(p)
    assert "preuzimam pad" not in p.legal_actions(2)
    with pytest.raises(IllegalAction):
        p.apply(2, "preuzimam pad")


# -- otpis --------------------------------------------------------------------------------------------
def test_otpis_remainder_two_to_the_two_largest():
    p = new({"bule": 30, "refe": 2})
    prolaz(p, 1, "tref")  # [30, 20, 30], sum 80 = 3 x 26 + 2
    say(p, "0:otpis 1:prihvatam 2:prihvatam")
    r = p.result()
    assert r["bule"] == [3, -6, 3] and r["finished"] is True
    assert p.legal_actions(0) == [] and p.seats_to_act() == []
    with pytest.raises(IllegalAction):
        p.apply(0, "otpis")


def test_otpis_remainder_one_tie_by_order_from_the_next_first_player():
    p = new({"bule": 30, "refe": 2})
    prolaz(p, 1, "herc")  # [30, 22, 30], sum 82 = 3 x 27 + 1; results equal for 0 and 2
    all_pass(p)  # the next hand (deal 2) starts with seat 0
    say(p, "2:otpis 0:prihvatam 1:prihvatam")
    assert p.result()["bule"] == [2, -5, 3]


def test_otpis_remainder_one_tie_by_the_worse_result():
    p = new({"bule": 30, "refe": 2})
    deal(p, DEAL_B)
    ordinary(p, 1, "herc")
    say(p, "2:ne pratim 0:sam 1:nudim 3 0:prihvatam")  # [30, 22, 30], supe[0][1] = 24
    all_pass(p)
    # results: seat 0: -24 + 300, seat 2: 300 -> seat 2 is worse and takes the extra point
    say(p, "1:otpis 0:prihvatam 2:prihvatam")
    assert p.result()["bule"] == [3, -5, 2]


def test_otpis_remainder_two_tie_for_the_second_point():
    p = new({"bule": 30, "refe": 2})
    prolaz(p, 1, "herc")
    prolaz(p, 2, "herc")  # [30, 22, 22], sum 74 = 3 x 24 + 2; the next hand starts with seat 0
    say(p, "0:otpis 1:prihvatam 2:prihvatam")
    assert p.result()["bule"] == [5, -3, -2]


def test_otpis_refused_and_not_during_a_hand():
    p = new()
    prolaz(p, 1, "herc")
    deal(p, DEAL_B)
    assert "otpis" in p.legal_actions(0)  # still between hands: no word of the new hand yet
    say(p, "0:otpis 1:prihvatam 2:odbijam")
    assert not p.finished
    say(p, "2:dalje")
    with pytest.raises(IllegalAction):
        p.apply(0, "otpis")


# -- P12: a refused otpis again only after the next hand -----------------------------------------
def test_refused_otpis_is_proposed_again_only_after_the_next_hand():
    p = new()
    prolaz(p, 1, "herc")
    say(p, "0:otpis 1:odbijam")
    for seat in range(3):  # the same question, whoever would ask it
        assert "otpis" not in p.legal_actions(seat)
        with pytest.raises(IllegalAction, match="P12"):
            p.apply(seat, "otpis")
    deal(p, DEAL_B)  # the next hand is dealt but no word said: still the same break
    assert "otpis" not in p.legal_actions(2)
    with pytest.raises(IllegalAction, match="only after the next hand"):
        p.apply(2, "otpis")
    say(p, "2:dalje 0:dalje 1:dalje")  # the next hand ends (an all-pass hand counts)
    assert all("otpis" in p.legal_actions(s) for s in range(3))
    say(p, "2:otpis 0:prihvatam 1:prihvatam")
    assert p.finished


def test_accepted_fall_offer_leaves_otpis_as_it_was_and_refused_otpis_leaves_the_fall_offer():
    p = zovem_fall()
    say(p, "1:otpis 2:odbijam")
    assert p.legal_actions(2) == ["preuzimam pad"]  # a different question is asked at once
    say(p, "2:preuzimam pad 0:prihvatam")
    assert "otpis" not in p.legal_actions(0)


def test_refused_fall_offer_is_not_made_again_in_its_window():
    """P12 for fall offers is P10's closing: one refusal, no second offer, in the same break
    or in the next hand."""
    p = zovem_fall()
    say(p, "2:preuzimam pad 0:odbijam")
    deal(p, DEAL_B)
    assert "preuzimam pad" not in p.legal_actions(2)
    say(p, "2:dalje")
    assert "preuzimam pad" not in p.legal_actions(2)
    with pytest.raises(IllegalAction):
        p.apply(2, "preuzimam pad")


def test_otpis_answers_in_either_order_and_block_the_game():
    p = PreferansPartie_seeded()
    say(p, "0:otpis")
    assert sorted(p.seats_to_act()) == [1, 2]
    with pytest.raises(NotYourTurn):
        p.apply(0, "prihvatam")
    say(p, "2:prihvatam 1:prihvatam")
    assert p.finished
    rec = p.to_record(["a", "b", "c"])
    assert len(rec["deals"]) == 1 and rec["deals"][0]["actions"][-3:] == [[0, "otpis"], [2, "prihvatam"], [1, "prihvatam"]]
    assert replay(rec).result() == p.result()


def PreferansPartie_seeded():
    from app.games.preferans import PreferansPartie

    p = PreferansPartie.new({}, seed=3)
    first = p.hand.first
    for k in range(3):
        p.apply((first + k) % 3, "dalje")
    return p


def test_abandoned_partie_stays_unfinished():
    p = new()
    prolaz(p, 1, "herc")
    r = p.result()
    assert r["finished"] is False and r["results"] == [600, 520, 600]


# -- results and places ----------------------------------------------------------------------------
def sheet(bule, supe):
    p = Papir(30, 2)
    p.bule, p.supe = list(bule), [list(r) for r in supe]
    return p


def test_results_formula():
    p = sheet([2, -4, 2], [[0, 18, 0], [0, 0, 0], [0, 0, 0]])
    assert p.results() == [2, -22, 20] and p.places() == [2, 1, 3]


def test_tie_fewer_bule_first():
    p = sheet([2, 0, 5], [[0, 0, 0], [0, 0, 0], [0, 20, 0]])
    assert p.results() == [20, 20, 30]
    assert p.places() == [2, 1, 3]


def test_tie_of_two_more_supe_written_to_the_other():
    p = sheet([1, 1, 3], [[0, 0, 10], [10, 0, 0], [0, 10, 0]])
    assert p.results() == [10, 10, 30]
    assert p.places() == [2, 1, 3]  # seat 1 wrote 10 against seat 0, seat 0 nothing against 1


def test_three_equal_skip_the_pairwise_rule_more_supe_in_total():
    p = sheet([0, 0, 0], [[0, 0, 10], [0, 0, 5], [10, 5, 0]])
    assert p.results() == [0, 0, 0]
    assert p.places() == [2, 3, 1]


def test_all_equal_lower_seat_first():
    assert sheet([0, 0, 0], [[0] * 3] * 3).places() == [1, 2, 3]
    assert sheet([1, 1, 0], [[0] * 3] * 3).places() == [2, 3, 1]


def test_kapa_and_papir_columns():
    p = new({"bule": 30, "refe": 2})
    for _ in range(3):
        prolaz(p, 1, "tref")
    sheet_ = p.papir()
    seat1 = sheet_["players"][1]
    assert seat1["bule"] == [30, 20, 10, 0] and seat1["kapa"] is True
    assert seat1["left"]["against"] == 0 and seat1["right"]["against"] == 2
    assert sheet_["players"][0]["kapa"] is False
    assert [line["deal"] for line in sheet_["lines"]] == [0, 1, 2]
