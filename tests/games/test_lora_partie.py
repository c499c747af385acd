"""The partie: 28 deals, totals, places and their tie rules (section 7, rulings L4)."""

import random

import pytest

from app.games.base import DealError, NotYourTurn, SettingsError
from app.games.lora import LoraPartie
from app.games.lora.standings import places
from tests.support.lora import play_randomly


def test_lowest_total_first():
    assert places([10, -3, 25, 4], [[1, 0, 1, 0]]) == [3, 1, 4, 2]


def test_equal_totals_fewer_positive_deals_ranks_higher():
    points = [[5, 1, 0, 0], [5, 1, 0, 0], [0, 8, 5, 0]]  # positive deals: 2, 3, 1, 0
    assert places([10, 10, 5, 0], points) == [3, 4, 2, 1]


def test_still_equal_share_the_place_and_skip_the_next():
    points = [[5, 5, 2, 0], [5, 5, 0, 20]]
    assert places([10, 10, 2, 20], points) == [2, 2, 1, 4]
    assert places([10, 10, 12, 20], points) == [1, 1, 3, 4]


def test_four_equal():
    assert places([0, 0, 0, 0], []) == [1, 1, 1, 1]


def test_a_partie_is_28_deals_dealt_by_each_seat_seven_times():
    partie = LoraPartie.new({}, seed=11)
    rng = random.Random(1)
    dealers = []
    while not partie.finished:
        dealers.append(partie.view(None)["deal"]["dealer"])
        play_randomly(partie, rng)
    assert dealers == [0] * 7 + [1] * 7 + [2] * 7 + [3] * 7
    result = partie.result()
    assert [d["contract"] for d in result["deals"]] == list(range(1, 8)) * 4
    assert result["totals"] == [sum(d["points"][s] for d in result["deals"]) for s in range(4)]
    assert partie.seats_to_act() == []
    with pytest.raises(NotYourTurn, match="partie has ended"):
        partie.apply(0, "AS")
    with pytest.raises(DealError):
        partie.start_deal([[]] * 4)


def test_seeded_parties_are_reproducible():
    a, b = LoraPartie.new({}, seed="x"), LoraPartie.new({}, seed="x")
    assert a.view(0) == b.view(0)
    assert a.view(0)["deal"]["hand"] != LoraPartie.new({}, seed="y").view(0)["deal"]["hand"]


@pytest.mark.parametrize(
    "settings, message",
    [({"bule": 60}, "no setting bule"), ({"timer": 5}, "15-300"), ({"timer": True}, "15-300"), ([], "object")],
)
def test_bad_settings_are_refused(settings, message):
    with pytest.raises(SettingsError, match=message):
        LoraPartie.new(settings)


def test_timer_is_a_setting_but_not_part_of_the_record():
    partie = LoraPartie.new({"timer": 30}, seed=1)
    assert partie.settings == {"timer": 30}
    assert partie.to_record(["a", "b", "c", "d"])["settings"] == {}


def test_start_deal_refuses_a_deal_that_is_not_the_deck():
    partie = LoraPartie.new()
    hands = [["7S", "8S"]] * 4
    with pytest.raises(DealError, match="seat 0's hand: expected 8 cards"):
        partie.start_deal(hands)
    deck = [r + s for s in "SDHC" for r in "789TJQKA"]
    hands = [deck[i * 8 : i * 8 + 8] for i in range(4)]
    hands[3][7] = "7S"
    with pytest.raises(DealError, match="7S is dealt twice"):
        partie.start_deal(hands)
    with pytest.raises(DealError, match="no talon"):
        partie.start_deal([deck[i * 8 : i * 8 + 8] for i in range(4)], ["7S", "8S"])
    assert partie.needs_deal and partie.version == 0


def test_view_shows_own_hand_and_public_play_only():
    partie = LoraPartie.new({}, seed=3)
    own = partie.view(2)["deal"]["hand"]
    assert len(own) == 8
    assert "hand" not in partie.view(None)["deal"]
    assert partie.view(None)["legal_actions"] == []
    assert partie.view(2)["legal_actions"] == []  # seat 1 opens
    assert partie.view(1)["legal_actions"] == partie.view(1)["deal"]["hand"]
