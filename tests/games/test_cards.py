import pytest

from app.games.cards import (
    CARD_NAMES,
    DECK,
    CardError,
    card,
    card_name,
    check_partition,
    deal_one_by_one,
    mask_of,
    names_of,
    parse_card,
    parse_cards,
    rank_of,
    shuffled_deck,
    suit_of,
    ACE,
    HEARTS,
    SEVEN,
    SPADES,
    TEN,
)


def test_notation_is_rank_then_suit():
    assert parse_card("TH") == card(TEN, HEARTS)
    assert card_name(card(ACE, SPADES)) == "AS"
    assert card_name(card(SEVEN, 3)) == "7C"
    assert len(set(CARD_NAMES)) == 32
    assert all(suit_of(c) * 8 + rank_of(c) == c for c in DECK)


@pytest.mark.parametrize("bad", ["10H", "1H", "TX", "th", "", "AS "])
def test_bad_card_names_are_refused_with_the_text(bad):
    with pytest.raises(CardError) as e:
        parse_card(bad)
    assert str(e.value).startswith(f"{bad!r} is not a card: write rank")


@pytest.mark.parametrize("bad", [None, 7, ["AS"]])
def test_a_card_that_is_not_a_string_is_refused_by_its_type(bad):
    with pytest.raises(CardError) as e:
        parse_card(bad)
    assert str(e.value) == f"a card must be a two-character string, got {bad!r}"


def test_hand_parsing_refuses_duplicates_and_wrong_counts():
    with pytest.raises(CardError, match="QS appears twice"):
        parse_cards(["QS", "QS"])
    with pytest.raises(CardError, match="expected 8 cards, got 2"):
        parse_cards(["QS", "KS"], count=8)
    with pytest.raises(CardError, match="list"):
        parse_cards("QS KS")


def test_masks_round_trip_in_suit_then_rank_order():
    hand = ["AH", "7S", "TC", "8S"]
    assert names_of(mask_of(parse_cards(hand))) == ["7S", "8S", "AH", "TC"]


def test_shuffle_is_a_function_of_seed_and_deal():
    assert shuffled_deck(5, 0) == shuffled_deck(5, 0)
    assert shuffled_deck(5, 0) != shuffled_deck(5, 1)
    assert shuffled_deck(5, 0) != shuffled_deck(6, 0)
    assert sorted(shuffled_deck(5, 3)) == list(DECK)


def test_dealing_one_by_one_starts_with_the_first_seat():
    deck = list(range(32))
    hands = deal_one_by_one(deck, 4, 8, first_seat=1)
    assert hands[1][:2] == [0, 4]
    assert hands[2][:2] == [1, 5]
    assert hands[0] == [3, 7, 11, 15, 19, 23, 27, 31]
    talon_deal = deal_one_by_one(deck, 3, 10, first_seat=0)
    assert sum(len(h) for h in talon_deal) == 30


def test_partition_check_names_the_problem():
    hands = [list(range(i * 8, i * 8 + 8)) for i in range(4)]
    check_partition(hands)
    hands[3][0] = 0
    with pytest.raises(CardError, match="7S is dealt twice"):
        check_partition(hands)
    with pytest.raises(CardError, match="missing 7C"):
        check_partition([list(range(0, 24)), list(range(25, 32))])
