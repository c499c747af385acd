"""Contract 7, Lora: the layout (section 6, rulings L3)."""

import pytest

from app.games.base import IllegalAction, NotYourTurn
from tests.support.lora import cards, partie_at, play, suit

LORA = 6  # deal index of the first contract 7; dealer 0, seat 1 opens
HANDS = [
    cards("KH AH 8C TC JC QC KC AC"),
    suit("S"),
    cards("TD JD QD KD AD TH JH QH"),
    cards("9D 9H 9C 7D 8D 7H 8H 7C"),
]


def test_first_card_fixes_the_start_rank_of_every_suit():
    partie = partie_at(LORA, HANDS)
    assert partie.legal_actions(1) == suit("S")  # the opening card is free
    play(partie, "9S")
    assert partie.view(None)["deal"]["start_rank"] == "9"
    play(partie, "dalje")
    assert partie.legal_actions(3) == ["9D", "9H", "9C"]


def test_forced_dalje_is_the_only_word_and_is_recorded():
    partie = partie_at(LORA, HANDS)
    play(partie, "9S")
    assert partie.legal_actions(2) == ["dalje"]
    with pytest.raises(IllegalAction, match="does not fit"):
        partie.apply(2, "TD")
    partie.apply(2, "dalje")
    assert partie.actions[-1][-1] == (2, "dalje")
    assert partie.seats_to_act() == [3]


def test_dalje_is_refused_while_holding_a_playable_card():
    partie = partie_at(LORA, HANDS)
    play(partie, "9S", "dalje", "9D", "dalje")
    with pytest.raises(IllegalAction, match="may not say dalje while holding TS"):
        partie.apply(1, "dalje")
    assert partie.legal_actions(1) == ["TS"]


def test_ace_wraps_to_seven_and_the_last_card_ends_the_deal():
    partie = partie_at(LORA, HANDS)
    play(partie,
         "9S", "dalje", "9D", "dalje",
         "TS", "TD", "9H", "dalje",
         "JS", "JD", "9C", "TC",
         "QS", "QD", "dalje", "JC",
         "KS", "KD", "dalje", "QC",
         "AS", "AD")
    assert partie.legal_actions(3) == ["7D"]  # after the ace of karo comes its seven
    play(partie, "7D", "KC")
    assert partie.legal_actions(1) == ["7S"]
    play(partie, "7S", "TH", "8D", "AC")
    assert not partie.deal.ended
    play(partie, "8S")  # seat 1's last card
    assert partie.deal.ended
    assert partie.points[-1] == [3, -8, 2, 3]  # KH AH 8C | - | JH QH | 7H 8H 7C
    with pytest.raises(NotYourTurn):
        partie.apply(2, "JH")


def test_layout_rows_are_public():
    partie = partie_at(LORA, HANDS)
    play(partie, "9S", "dalje", "9D")
    rows = partie.view(None)["deal"]["rows"]
    assert rows == [["9S"], ["9D"], [], []]
