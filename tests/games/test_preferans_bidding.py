"""Settings (P4), dealing, licitacija (5), prijavljene igre (6, P2), talon (7)."""

import pytest

from app.games.base import DealError, IllegalAction, NotYourTurn, SettingsError
from app.games.cards import CardError, deal_one_by_one, names_of, mask_of, shuffled_deck
from app.games.preferans import PreferansPartie
from tests.support.preferans import DEAL_B, all_pass, deal, new, say


# -- settings and dealing ---------------------------------------------------------------------
def test_default_settings():
    p = PreferansPartie.new({})
    assert p.settings == {"bule": 60, "refe": 2, "timer": None}
    assert p.result()["bule"] == [60, 60, 60] and p.needs_deal and p.deal_index == 0


@pytest.mark.parametrize("settings", [
    {"bule": 70}, {"bule": "60"}, {"bule": True}, {"refe": 9}, {"refe": -1}, {"timer": 10},
    {"timer": 301}, {"timer": 20.5}, {"speed": 1}, [],
])
def test_bad_settings_are_refused(settings):
    with pytest.raises(SettingsError):
        PreferansPartie.new(settings)


def test_timer_is_kept_but_not_recorded():
    p = PreferansPartie.new({"bule": 400, "refe": 8, "timer": 15})
    assert p.settings["timer"] == 15
    assert p.to_record(["a", "b", "c"])["settings"] == {"bule": 400, "refe": 8}


def test_bad_deals_are_refused():
    p = new()
    h0, h1, h2, talon = (x.split() for x in DEAL_B)
    with pytest.raises(DealError):
        p.start_deal([h0, h1], talon)
    with pytest.raises(CardError):
        p.start_deal([h0, h1, h2[:-1]], talon + h2[-1:])
    with pytest.raises(CardError):
        p.start_deal([h0, h1, h2], ["7D", "7D"])
    with pytest.raises(DealError):
        p.start_deal([h0, h1, h2], None)
    p.start_deal([h0, h1, h2], talon)
    with pytest.raises(DealError):
        p.start_deal([h0, h1, h2], talon)


def test_seeded_deals_ten_each_from_the_first_bidder_and_talon_last():
    p = PreferansPartie.new({}, seed=7)
    deck = shuffled_deck(7, 0)
    hands = deal_one_by_one(deck, 3, 10, 1)
    assert [names_of(m) for m in p.hand.original] == [names_of(mask_of(h)) for h in hands]
    assert sorted(p.hand.talon) == sorted(deck[30:])
    assert not p.needs_deal and p.seats_to_act() == [1]
    with pytest.raises(DealError):
        p.start_deal([[]], [])


def test_dealer_moves_after_every_hand_including_all_pass():
    p = new()
    for k in range(4):
        assert p.deal_index == k
        all_pass(p)
        assert p.hand.dealer == k % 3 and p.hand.first == (k + 1) % 3


# -- licitacija ------------------------------------------------------------------------------------------
def test_first_bid_is_two_raise_by_exactly_one():
    p = new()
    deal(p)
    assert p.legal_actions(1) == ["2", "dalje", "igra", "betl", "sans"]
    with pytest.raises(IllegalAction):
        p.apply(1, "3")
    say(p, "1:2")
    assert p.legal_actions(2) == ["3", "dalje", "igra", "betl", "sans"]
    with pytest.raises(IllegalAction):
        p.apply(2, "4")
    with pytest.raises(NotYourTurn):
        p.apply(0, "3")


def test_priority_says_moje_never_raises():
    p = new()
    deal(p)
    say(p, "1:2 2:3 0:dalje")
    assert p.legal_actions(1) == ["moje", "dalje"]
    say(p, "1:moje")
    assert p.legal_actions(2) == ["4", "dalje"]
    say(p, "2:4 1:moje 2:dalje")
    h = p.hand
    assert h.declarer == 1 and h.bid == 4 and h.phase == "talon"
    assert p.legal_actions(1)[0].startswith("skart ") and len(p.legal_actions(1)) == 66


def test_dalje_is_final_and_bids_stop_at_seven():
    p = new()
    deal(p)
    say(p, "1:2 2:dalje 0:3 1:moje 0:4 1:moje 0:5 1:moje 0:6 1:moje 0:7")
    assert p.seats_to_act() == [1] and p.legal_actions(1) == ["moje", "dalje"]
    say(p, "1:moje")
    assert p.legal_actions(0) == ["dalje"]
    say(p, "0:dalje")
    assert p.hand.declarer == 1 and p.hand.bid == 7
    assert p.legal_actions(1)[0].startswith("skart")


def test_all_pass_is_a_hand_without_play():
    p = new()
    all_pass(p)
    assert p.hand.over and p.hand.end == "all pass" and p.needs_deal
    assert p.result()["refe"]["open"] == [1, 1, 1]


# -- prijavljene igre ---------------------------------------------------------------------------------
def test_declaration_only_as_first_word():
    p = new()
    deal(p)
    say(p, "1:2 2:3 0:dalje")
    assert "igra" not in p.legal_actions(1)
    with pytest.raises(IllegalAction):
        p.apply(1, "igra")


def test_after_a_declaration_players_without_a_word_get_one_ordinary_bidders_are_out():
    p = new()
    deal(p)
    say(p, "1:2 2:igra")
    assert p.seats_to_act() == [0]
    assert p.legal_actions(0) == ["igra", "betl", "sans", "dalje"]
    say(p, "0:dalje")
    # seat 1 bid ordinarily and is out; seat 2 names the trump
    assert p.seats_to_act() == [2] and p.legal_actions(2) == ["pik", "karo", "herc", "tref"]
    say(p, "2:karo")
    assert p.hand.declarer == 2 and p.hand.contract.label == "igra-karo" and p.hand.contract.value == 4
    assert p.hand.phase == "pracenje"


def test_stronger_declaration_cancels_weaker():
    p = new()
    deal(p)
    say(p, "1:igra")
    assert p.legal_actions(2) == ["igra", "betl", "sans", "dalje"]
    say(p, "2:betl")
    assert p.legal_actions(0) == ["sans", "dalje"]
    say(p, "0:sans")
    h = p.hand
    assert h.declarer == 0 and h.contract.label == "igra-sans" and h.contract.value == 8
    p = new()
    deal(p)
    say(p, "1:sans")
    assert p.legal_actions(2) == ["dalje"]
    say(p, "2:dalje 0:dalje")
    assert p.hand.contract.label == "igra-sans"


def test_igra_contest_each_names_a_stronger_suit_or_slabija():
    p = new()
    deal(p)
    say(p, "1:igra 2:igra 0:igra")
    assert p.legal_actions(1) == ["pik", "karo", "herc", "tref"]
    say(p, "1:karo")
    assert p.legal_actions(2) == ["herc", "tref", "slabija"]
    say(p, "2:herc")
    assert p.legal_actions(0) == ["tref", "slabija"]
    say(p, "0:slabija")
    assert p.hand.declarer == 2 and p.hand.contract.label == "igra-herc"


def test_igra_contest_after_tref_only_slabija():
    p = new()
    deal(p)
    say(p, "1:igra 2:igra 0:dalje 1:tref")
    assert p.legal_actions(2) == ["slabija"]
    say(p, "2:slabija")
    assert p.hand.declarer == 1 and p.hand.contract.value == 6


def test_betl_cannot_follow_betl_igra_cannot_follow_betl():
    p = new()
    deal(p)
    say(p, "1:betl")
    assert p.legal_actions(2) == ["sans", "dalje"]
    with pytest.raises(IllegalAction):
        p.apply(2, "igra")


# -- talon ------------------------------------------------------------------------------------------------
def test_talon_shown_taken_skart_hidden_contract_at_least_the_bid():
    p = new()
    deal(p)
    say(p, "1:2 2:3 0:dalje 1:moje 2:dalje")
    assert p.view(0)["hand"]["talon"] == ["7D", "8D"]
    assert len(p.view(1)["hand"]["cards"]) == 12
    with pytest.raises(IllegalAction):
        p.apply(1, "skart 7S 7D")  # 7S is not his
    with pytest.raises(IllegalAction):
        p.apply(1, "skart 7D 7D")
    say(p, "1:skart 8D AH")
    assert p.view(0)["hand"]["words"][-1] == [1, "skart"]  # the skart stays hidden
    assert "skart" not in p.view(0)["hand"] and "skart" not in p.view(None)["hand"]
    assert p.view(1)["hand"]["skart"] == ["8D", "AH"]  # but the declarer knows his own
    assert p.view(1)["hand"]["words"][-1] == [1, "skart 8D AH"]
    assert p.legal_actions(1) == ["karo", "herc", "tref", "betl", "sans"]
    with pytest.raises(IllegalAction):
        p.apply(1, "pik")
    say(p, "1:karo")
    assert p.hand.contract.label == "karo"
    assert p.view(1)["hand"]["cards"] == ["7D", "JD", "QD", "7H", "8H", "9H", "TH", "JH", "QH", "KH"]


def test_skart_cards_in_either_order():
    p = new()
    deal(p)
    say(p, "1:2 2:dalje 0:dalje 1:skart AH 7D 1:herc")
    assert p.hand.skart_word == "skart AH 7D" and p.to_record(["a", "b", "c"])["deals"][0]["actions"][3] == [1, "skart AH 7D"]
