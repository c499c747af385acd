"""Scenario tests with crafted deals: bule, supe, falls, refe, the end cap (sections 10-13, P3, P5).

Every expected value is derived by hand in the comments: v = value x 2 x kontra x refe.
"""

from tests.support.preferans import (
    A_END_8_2_0, B_END_8_1_1, B_END_9_0_1, BETL_PASS, DEAL_A, DEAL_B, DEAL_C, DEAL_D, DEAL_E,
    HEARTS8, TREF_FIVE, all_pass, cards, deal, new, ordinary, prolaz, say,
)


def supe(p):
    return p.result()["supe"]


def bule(p):
    return p.result()["bule"]


def herc_by_1(d=DEAL_B, settings=None):
    p = new(settings)
    deal(p, d)
    ordinary(p, 1, "herc")
    return p


# -- trump contracts ----------------------------------------------------------------------
def test_trump_pass_two_followers_one_falls():
    p = herc_by_1(DEAL_A)
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    cards(p, HEARTS8 + " " + A_END_8_2_0)
    # herc v = 4*2 = 8; declarer 8 tricks passes; seat 2 has 0 < 2 falls; seat 0 has 2
    assert bule(p) == [60, 52, 68]
    assert supe(p) == [[0, 16, 0], [0, 0, 0], [0, 0, 0]]


def test_trump_fall_ends_when_followers_have_five_and_nobody_else_falls():
    p = new()
    deal(p, DEAL_B)
    ordinary(p, 1, "tref")
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    cards(p, TREF_FIVE)
    assert p.hand.over and len(p.hand.play.history) == 5  # five tricks left unplayed
    # tref v = 10: declarer falls +10; seat 2 writes 5 x 10; seat 0 (0 tricks) does not fall
    assert bule(p) == [60, 70, 60]
    assert supe(p) == [[0, 0, 0], [0, 0, 0], [0, 50, 0]]


def test_both_followers_fall_when_the_declarer_passes():
    p = herc_by_1()
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    cards(p, HEARTS8 + " " + B_END_9_0_1)
    assert bule(p) == [68, 52, 68]
    assert supe(p) == [[0, 0, 0], [0, 0, 0], [0, 8, 0]]


# -- sans and igra ----------------------------------------------------------------------------
def test_sans_pass_first_lead_by_the_player_before_the_declarer():
    p = new()
    deal(p, DEAL_C)
    ordinary(p, 1, "sans", skart="KD AD")
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    assert p.seats_to_act() == [0]  # (1 + 2) % 3 leads in sans
    cards(p, "KS AS 7C AH 8C 7S KH 9C 8S QH TC 9S JH JC TS TH QC JS 9H KC QS 8H TD 7D 7H JD 8D AC QD 9D")
    # sans v = 7*2 = 14; 10 tricks; both followers have 0 tricks and fall
    assert bule(p) == [74, 46, 74]
    assert supe(p) == [[0] * 3] * 3


def test_sans_fall():
    p = new()
    deal(p, DEAL_B)
    ordinary(p, 1, "sans")
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    cards(p, "AS 7H 7C KS 8H 8C QS 9H 9C JS TH TC TS JH JC")
    assert bule(p) == [60, 74, 60]
    assert supe(p) == [[0, 70, 0], [0, 0, 0], [0, 0, 0]]


def test_igra_pass_with_single_follower_who_falls():
    p = new()
    deal(p, DEAL_C)
    say(p, "1:igra 2:dalje 0:dalje 1:herc 2:pratim 0:ne pratim 2:sam")
    assert p.hand.play.seats == (1, 2)
    cards(p, "AH 7C KH 8C QH 9C JH TC TH JC 9H QC 8H KC 7H TD AS JD AC QD")
    # igra-herc value 5, v = 10; the single follower has 0 < 2 and falls
    assert bule(p) == [60, 50, 70]
    assert supe(p) == [[0] * 3] * 3
    assert "preuzimam pad" not in p.legal_actions(0)  # nobody can take over a single follower's fall


def test_igra_fall():
    p = new()
    deal(p, DEAL_B)
    say(p, "1:igra 2:dalje 0:dalje 1:tref 2:pratim 0:pratim 2:moze 0:moze")
    cards(p, TREF_FIVE)
    # igra-tref value 6, v = 12
    assert bule(p) == [60, 72, 60]
    assert supe(p) == [[0, 0, 0], [0, 0, 0], [0, 60, 0]]


# -- betl -----------------------------------------------------------------------------------------
def test_betl_pass():
    p = new()
    deal(p, DEAL_D)
    ordinary(p, 1, "betl", skart="KD AD")
    say(p, "2:moze 0:moze")
    cards(p, BETL_PASS)
    assert bule(p) == [60, 48, 60]
    assert supe(p) == [[0] * 3] * 3


def test_betl_fall_ends_at_the_declarers_first_trick():
    p = new()
    deal(p, DEAL_D)
    ordinary(p, 1, "betl", skart="7D 8D")
    say(p, "2:moze 0:moze")
    cards(p, "AD TH 9D")
    assert p.hand.over
    # betl v = 12; each follower writes 60
    assert bule(p) == [60, 72, 60]
    assert supe(p) == [[0, 60, 0], [0, 0, 0], [0, 60, 0]]


def test_igra_betl_fall_writes_70():
    p = new()
    deal(p, DEAL_E)
    say(p, "1:betl 2:dalje 0:dalje 2:moze 0:moze")
    cards(p, "AD TH 9D")
    assert bule(p) == [60, 74, 60]
    assert supe(p) == [[0, 70, 0], [0, 0, 0], [0, 70, 0]]


def test_betl_kontra_rekontra_fall():
    p = new()
    deal(p, DEAL_E)
    ordinary(p, 1, "betl")
    say(p, "2:kontra 1:rekontra")
    cards(p, "AD TH 9D")
    # v = 6*2*4 = 48; the kontra-giver alone writes for both followers: 2 x 60 x 4
    assert bule(p) == [60, 108, 60]
    assert supe(p) == [[0, 0, 0], [0, 0, 0], [0, 480, 0]]


def test_betl_kontra_pass_the_kontra_giver_falls():
    p = new()
    deal(p, DEAL_D)
    ordinary(p, 1, "betl", skart="KD AD")
    say(p, "2:moze 0:kontra 1:moze")
    cards(p, BETL_PASS)
    assert bule(p) == [84, 36, 60]
    assert supe(p) == [[0] * 3] * 3


# -- kontra, rekontra, zovem, single follower ---------------------------------------------------------
def test_kontra_rekontra_the_kontra_giver_falls_and_writes_for_both():
    p = herc_by_1()
    say(p, "2:pratim 0:pratim 2:moze 0:kontra 1:rekontra")
    cards(p, HEARTS8 + " " + B_END_8_1_1)
    # v = 4*2*4 = 32; declarer 8 passes; the followers have 2 < 4: the kontra-giver falls
    assert bule(p) == [92, 28, 60]
    assert supe(p) == [[0, 64, 0], [0, 0, 0], [0, 0, 0]]


def test_kontra_after_ne_pratim_brings_the_third_player_in():
    p = new()
    deal(p, DEAL_B)
    ordinary(p, 1, "tref")
    say(p, "2:pratim 0:ne pratim 2:kontra 1:moze")
    assert p.hand.play.seats == (0, 1, 2)
    cards(p, TREF_FIVE)
    assert bule(p) == [60, 80, 60]  # v = 5*2*2 = 20
    assert supe(p) == [[0, 0, 0], [0, 0, 0], [0, 100, 0]]


def test_single_follower_falls_with_one_trick():
    p = herc_by_1()
    say(p, "2:ne pratim 0:sam")
    assert p.hand.play.seats == (0, 1)
    cards(p, "AH 7S KH 8S QH 9S JH TS TH JS 9H QS 8H KS 7H AS QD KD 9D JD")
    assert bule(p) == [68, 52, 60]
    assert supe(p) == [[0, 8, 0], [0, 0, 0], [0, 0, 0]]


def test_zovem_the_caller_falls_the_called_never():
    p = herc_by_1()
    say(p, "2:ne pratim 0:zovem")
    assert p.hand.play.seats == (0, 1, 2)
    cards(p, HEARTS8 + " " + B_END_8_1_1)
    # caller 0 with the called 2: 2 tricks < 4; the caller writes 2 x 8
    assert bule(p) == [68, 52, 60]
    assert supe(p) == [[0, 16, 0], [0, 0, 0], [0, 0, 0]]


def test_zovem_early_end_caller_writes_five():
    p = new()
    deal(p, DEAL_B)
    ordinary(p, 1, "tref")
    say(p, "2:ne pratim 0:zovem")
    cards(p, TREF_FIVE)
    assert bule(p) == [60, 70, 60]
    assert supe(p) == [[0, 50, 0], [0, 0, 0], [0, 0, 0]]


# -- pik sa talonom ------------------------------------------------------------------------------
def test_pik_without_kontra_is_not_played_and_writes_refe():
    p = new()
    deal(p, DEAL_B)
    ordinary(p, 1, "pik")
    say(p, "2:pratim 0:ne pratim 2:moze")
    assert p.hand.over
    r = p.result()
    assert r["bule"] == [60, 60, 60] and r["refe"] == {"open": [1, 1, 1], "played": [0, 0, 0]}


def test_pik_with_kontra_is_played():
    p = new()
    deal(p, DEAL_B)
    ordinary(p, 1, "pik")
    say(p, "2:pratim 0:ne pratim 2:kontra 1:moze")
    cards(p, "AH 7C 7S AS 7H 8C KS 8H 9C QS 9H TC JS TH JC")
    # v = 2*2*2 = 8; seat 0 took the five tricks, the kontra-giver 2 writes them
    assert bule(p) == [60, 68, 60]
    assert supe(p) == [[0, 0, 0], [0, 0, 0], [0, 40, 0]]


def test_pik_without_kontra_and_no_refe_left_is_a_prolaz():
    p = new({"bule": 60, "refe": 0})
    deal(p, DEAL_B)
    ordinary(p, 1, "pik")
    say(p, "2:ne pratim 0:ne pratim")
    r = p.result()
    assert r["bule"] == [60, 56, 60] and r["refe"] == {"open": [0, 0, 0], "played": [0, 0, 0]}


def test_pik_on_refe_needs_no_kontra_and_doubles():
    p = new()
    all_pass(p)  # deal 0: refe to all
    deal(p, DEAL_B)  # deal 1: dealer 1, first bidder 2
    say(p, "2:dalje 0:dalje 1:2 1:skart 7D 8D 1:pik 2:ne pratim")
    assert p.legal_actions(0) == ["sam", "kontra", "zovem", "ne pratim"]
    say(p, "0:ne pratim")
    r = p.result()
    assert r["bule"] == [60, 52, 60]  # prolaz v = 2*2*1*2 = 8
    assert r["refe"] == {"open": [1, 0, 1], "played": [0, 1, 0]}


# -- refe ---------------------------------------------------------------------------------------
def test_all_pass_refe_limit():
    p = new({"bule": 60, "refe": 1})
    all_pass(p)
    all_pass(p)
    assert p.result()["refe"] == {"open": [1, 1, 1], "played": [0, 0, 0]}


def test_refe_doubles_bule_and_is_marked_played():
    p = new()
    all_pass(p)
    prolaz(p, 1, "karo")  # deal 1: v = 3*2*2 = 12
    r = p.result()
    assert r["bule"] == [60, 48, 60]
    assert r["refe"] == {"open": [1, 0, 1], "played": [0, 1, 0]}


def test_refe_at_exactly_zero_is_written_below_zero_is_not():
    p = new({"bule": 30, "refe": 2})
    for _ in range(3):
        prolaz(p, 1, "tref")
    assert bule(p) == [30, 0, 30]
    all_pass(p)
    assert p.result()["refe"]["open"] == [1, 1, 1]
    p = new({"bule": 30, "refe": 2})
    for _ in range(3):
        prolaz(p, 1, "tref")
    prolaz(p, 1, "karo")
    assert bule(p) == [30, -6, 30]
    all_pass(p)
    assert p.result()["refe"]["open"] == [0, 0, 0]


# -- the end of the partie: bule never sum below 0 --------------------------------------------------
def _down_to_six(p):
    for k in range(6):  # each seat passes tref twice: 30 - 20 = 10
        prolaz(p, (k + 1) % 3, "tref")
    for k in range(6, 9):  # and herc once: 10 - 8 = 2
        prolaz(p, (k + 1) % 3, "herc")
    assert bule(p) == [2, 2, 2]


def test_end_cap_reduces_the_pass_and_its_supe():
    p = new({"bule": 30, "refe": 0})
    _down_to_six(p)
    deal(p, DEAL_B)  # deal 9: first bidder 1
    ordinary(p, 1, "herc")
    say(p, "2:ne pratim 0:sam 1:nudim 3 0:prihvatam")
    # v = 8 but the sum is 6: the pass is 6, and the follower's 3 tricks write 3 x 6
    r = p.result()
    assert r["bule"] == [2, -4, 2]
    assert r["supe"] == [[0, 18, 0], [0, 0, 0], [0, 0, 0]]
    assert r["finished"] is True and p.needs_deal is False
    assert p.seats_to_act() == [] and all(p.legal_actions(s) == [] for s in range(3))
    assert r["results"] == [20 - 18, 18 - 40, 20]
    assert r["places"] == [2, 1, 3]


def test_end_cap_on_a_prolaz():
    p = new({"bule": 30, "refe": 0})
    _down_to_six(p)
    prolaz(p, 1, "tref")
    assert bule(p) == [2, -4, 2] and p.finished


def test_a_fall_in_the_same_hand_leaves_room_for_the_whole_pass():
    p = new({"bule": 30, "refe": 0})
    _down_to_six(p)
    deal(p, DEAL_A)
    ordinary(p, 1, "herc")
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    cards(p, HEARTS8 + " " + A_END_8_2_0)
    # seat 2 falls +8, so the declarer's -8 fits: sum 6 + 8 - 8 = 6; supe use the full v
    assert bule(p) == [2, -6, 10]
    assert supe(p) == [[0, 16, 0], [0, 0, 0], [0, 0, 0]]
    assert not p.finished


# -- the papir's lines: what the hand-by-hand list shows ------------------------------------
def test_papir_line_names_who_followed_how():
    """Each hand's line says who gave kontra, who called whom, who played alone and which
    seats were in play (all public words of section 8), besides contract, tricks and v."""
    p = herc_by_1()
    say(p, "2:ne pratim 0:zovem")
    cards(p, HEARTS8 + " " + B_END_8_1_1)
    line = p.papir()["lines"][-1]
    assert (line["caller"], line["called"], line["kontra_by"], line["single"]) == (0, 2, None, None)
    assert line["in_play"] == [0, 1, 2] and line["declarer"] == 1 and line["v"] == 8
    p = herc_by_1()
    say(p, "2:ne pratim 0:sam")
    cards(p, "AH 7S KH 8S QH 9S JH TS TH JS 9H QS 8H KS 7H AS QD KD 9D JD")
    line = p.papir()["lines"][-1]
    assert (line["single"], line["in_play"], line["falls"]) == (0, [0, 1], [0])
    p = herc_by_1()
    say(p, "2:pratim 0:pratim 2:moze 0:kontra 1:rekontra")
    cards(p, HEARTS8 + " " + B_END_8_1_1)
    line = p.papir()["lines"][-1]
    assert (line["kontra_by"], line["kontra"], line["caller"], line["single"]) == (0, 4, None, None)
