"""Contracts 1-6: trick play, each scoring line and each early end (section 5)."""

import pytest

from app.games.base import IllegalAction, NotYourTurn
from app.games.tricks.contracts import Contract, contract_of
from tests.support.lora import cards, partie_at, play, suit

# Seat 0 wins every spade trick, seat 1 every diamond trick; seats 2 and 3 never follow.
SPLIT_HANDS = [
    cards("TS JS QS KS AS 7D 8D 9D"),
    cards("7S 8S 9S TD JD QD KD AD"),
    suit("H"),
    suit("C"),
]
# Seat 1 opens (dealer 0); seat 0 takes tricks 1-5, seat 1 tricks 6-8.
SPLIT_PLAY = [
    "9S", "7H", "7C", "JS",
    "TS", "8S", "8H", "8C",
    "QS", "7S", "9H", "9C",
    "KS", "TD", "TH", "TC",
    "AS", "JD", "JH", "JC",
    "7D", "QD", "QH", "QC",
    "KD", "KH", "KC", "8D",
    "AD", "AH", "AC", "9D",
]


def finished_points(partie):
    assert partie.deal.ended
    return partie.points[-1]


def test_deal_order_follows_ruling_l1():
    assert [int(contract_of(k)) for k in range(9)] == [1, 2, 3, 4, 5, 6, 7, 1, 2]
    partie = partie_at(9, SPLIT_HANDS)
    view = partie.view(0)["deal"]
    assert view["dealer"] == 1 and view["first"] == 2 and view["contract"] == 3
    assert partie.seats_to_act() == [2]


def test_sto_vise_minus_one_per_trick():
    partie = partie_at(0, SPLIT_HANDS)
    play(partie, *SPLIT_PLAY)
    assert finished_points(partie) == [-5, -3, 0, 0]


def test_sto_manje_plus_one_per_trick():
    partie = partie_at(1, SPLIT_HANDS)
    play(partie, *SPLIT_PLAY)
    assert finished_points(partie) == [5, 3, 0, 0]


def test_dame_two_per_queen_and_ends_when_the_fourth_is_taken():
    partie = partie_at(2, SPLIT_HANDS)
    play(partie, *SPLIT_PLAY[:23])
    assert not partie.deal.ended
    play(partie, SPLIT_PLAY[23])  # QC completes trick 6: the last queen is taken
    assert finished_points(partie) == [2, 6, 0, 0]
    assert partie.view(None)["deal"]["penalty_cards"] == [["QS"], ["QD", "QH", "QC"], [], []]
    with pytest.raises(NotYourTurn, match="deal has ended"):
        partie.apply(1, "KD")


def test_herc_one_per_heart_played_to_the_last_trick():
    partie = partie_at(3, SPLIT_HANDS)
    play(partie, *SPLIT_PLAY)
    assert finished_points(partie) == [5, 3, 0, 0]


def test_herc_ends_when_the_last_heart_is_taken():
    hands = [
        cards("TS JS QS KS AS 7D 8D 9D"),
        cards("7S 8S 9S TD JD QD KD AD"),
        cards("7H 8H 9H TH 7C 8C 9C TC"),
        cards("JH QH KH AH JC QC KC AC"),
    ]
    partie = partie_at(3, hands)
    play(partie,
         "9S", "7H", "JH", "JS",
         "TS", "8S", "8H", "QH",
         "7D", "TD", "9H", "KH",
         "JD", "TH", "AH", "8D")
    assert finished_points(partie) == [4, 4, 0, 0]
    assert len(partie.actions[-1]) == 16


def test_herc_all_eight_hearts_is_minus_eight_and_others_zero():
    hands = [
        cards("JC QC KC AC JS QS KS AS"),
        suit("D"),
        cards("7H 8H 9H TH 7C 8C 9C TC"),
        cards("JH QH KH AH 7S 8S 9S TS"),
    ]
    partie = partie_at(3, hands)
    play(partie,
         "7D", "7H", "JH", "JC",
         "8D", "8H", "QH", "QC",
         "9D", "9H", "KH", "KC",
         "TD", "TH", "AH", "AC")
    assert finished_points(partie) == [0, -8, 0, 0]
    assert partie.seats_to_act() == []


def test_zandar_tref_eight_and_ends_when_the_jack_is_taken():
    partie = partie_at(4, SPLIT_HANDS)
    play(partie, *SPLIT_PLAY[:20])
    assert finished_points(partie) == [8, 0, 0, 0]
    assert len(partie.actions[-1]) == 20


def test_king_of_hearts_and_last_trick_to_one_player_is_eight():
    partie = partie_at(5, SPLIT_HANDS)
    play(partie, *SPLIT_PLAY)
    assert finished_points(partie) == [0, 8, 0, 0]


def test_king_of_hearts_and_last_trick_to_two_players_four_each():
    partie = partie_at(5, SPLIT_HANDS)
    play(partie,
         "9S", "7H", "7C", "JS",
         "TS", "8S", "8H", "8C",
         "7D", "TD", "KH", "9C",   # seat 1 takes K herc
         "JD", "9H", "TC", "8D",
         "QD", "TH", "JC", "9D",
         "7S", "JH", "QC", "QS",
         "KS", "KD", "QH", "KC",
         "AS", "AD", "AH", "AC")  # seat 0 takes the 8th trick
    assert finished_points(partie) == [4, 4, 0, 0]


@pytest.mark.parametrize("deal_index", [0, 1, 5])
def test_sto_vise_manje_and_king_always_play_all_eight_tricks(deal_index):
    partie = partie_at(deal_index, SPLIT_HANDS)
    play(partie, *SPLIT_PLAY[:28])
    assert not partie.deal.ended


def test_must_follow_suit_but_may_discard_anything_otherwise():
    partie = partie_at(0, SPLIT_HANDS)
    play(partie, "9S")
    assert partie.legal_actions(2) == suit("H")  # no spade: anything
    play(partie, "7H", "7C")
    assert partie.legal_actions(0) == ["TS", "JS", "QS", "KS", "AS"]
    with pytest.raises(IllegalAction, match="does not follow"):
        partie.apply(0, "7D")
    with pytest.raises(IllegalAction, match="not in seat 0's hand"):
        partie.apply(0, "8S")
    with pytest.raises(NotYourTurn):
        partie.apply(1, "7S")
    with pytest.raises(IllegalAction, match="dalje"):
        partie.apply(0, "dalje")
    assert partie.version == sum(len(a) for a in partie.actions)


def test_highest_card_of_the_led_suit_wins_and_leads_next():
    partie = partie_at(0, SPLIT_HANDS)
    play(partie, "9S", "7H", "AC", "TS")  # AC is higher but not of the led suit
    tricks = partie.view(None)["deal"]["tricks"]
    assert tricks[0]["winner"] == 0
    assert partie.seats_to_act() == [0]
    assert partie.deal.contract is Contract.STO_VISE
