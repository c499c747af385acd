"""What the games give a tournament (``descriptor.tournament``, rulings T3-T5, P13):
round settings, boards, traveller lines, place points, totals and their directions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from app.games.base import GameError, SettingsError
from app.games.registry import descriptor, descriptors
from app.games.simulate import random_partie
from app.games.tournament import check_place_points, points_by_places

LORA, LORUM, PREFERANS = (descriptor(code).tournament for code in ("lora", "lorum", "preferans"))


def test_every_game_has_its_tournament_rules():
    assert all(game.tournament is not None for game in descriptors())


# -- round settings (T3, P13) --------------------------------------------------------------------
def test_a_preferans_round_has_24_hands_unless_told():
    assert PREFERANS.round_settings({"bule": 100, "refe": 2}, None) == {"bule": 100, "refe": 2, "deljenja": 24}
    assert PREFERANS.round_settings({}, 6) == {"deljenja": 6}
    with pytest.raises(SettingsError, match="deljenja"):
        PREFERANS.round_settings({}, 7)


@pytest.mark.parametrize("rules", [LORA, LORUM])
def test_a_lora_or_lorum_round_plays_its_whole_schedule(rules):
    settings_ = {"variant": "klub", "bez": ["lora"]} if rules is LORA else {"makk": True}
    assert rules.round_settings(settings_, 24) == settings_ and rules.round_settings({}, None) == {}


# -- directions (T4, T5) -------------------------------------------------------------------------
def test_which_way_is_better():
    assert not LORA.boards_higher_better({}) and not LORA.totals_higher_better({"variant": "libijska"})
    assert LORA.boards_higher_better({"variant": "hrvatska"}) and LORA.totals_higher_better({"variant": "hrvatska"})
    assert LORUM.boards_higher_better({}) and LORUM.totals_higher_better({"sto_jedan": True})
    assert PREFERANS.boards_higher_better({}) and not PREFERANS.totals_higher_better({"deljenja": 24})


# -- place points (T5) ---------------------------------------------------------------------------
@pytest.mark.parametrize("places, expected", [
    ([1, 2, 3, 4], [3, 2, 1, 0]),
    ([4, 3, 2, 1], [0, 1, 2, 3]),
    ([1, 1, 3, 4], [2.5, 2.5, 1, 0]),
    ([3, 1, 1, 4], [1, 2.5, 2.5, 0]),
    ([1, 2, 2, 2], [3, 1, 1, 1]),
    ([1, 1, 1, 1], [1.5, 1.5, 1.5, 1.5]),
    ([1, 2, 2, 4], [3, 1.5, 1.5, 0]),
])
def test_shared_places_share_their_points(places, expected):
    assert points_by_places(places, (3, 2, 1, 0)) == expected
    assert LORA.place_points({"places": places}, None) == expected
    assert LORUM.place_points({"places": places}, None) == expected


def test_three_player_lora_takes_the_first_three_place_points():
    assert LORA.place_points({"places": [2, 3, 1]}, None) == [2, 1, 3]


@pytest.mark.parametrize("results, places, expected", [
    ([-100, 30, 70], [1, 2, 3], [4, 1, 0]),  # first alone in plus, second in minus
    ([-100, -20, 120], [1, 2, 3], [3, 2, 0]),  # two in plus
    ([-100, 0, 100], [1, 2, 3], [4, 2, 0]),  # second at 0: first alone in plus, second not in minus
    ([70, -100, 30], [3, 1, 2], [0, 4, 1]),
    ([0, 0, 0], [1, 2, 3], [3, 2, 0]),
    ([20, -40, 20], [2, 1, 3], [1, 4, 0]),  # equal results: the places of section 15 decide
])
def test_preferans_place_points(results, places, expected):
    assert PREFERANS.place_points({"results": results, "places": places}, None) == expected


def test_the_organizers_place_points_replace_the_table_and_its_bonuses():
    result = {"results": [-100, 30, 70], "places": [1, 2, 3]}
    assert PREFERANS.place_points(result, [5, 3, 1]) == [5, 3, 1]
    assert LORA.place_points({"places": [1, 1, 3, 4]}, (10, 6, 3, 0)) == [8, 8, 3, 0]


@pytest.mark.parametrize("custom, says", [
    ([3, 2], "3 numbers"), ([3, 2, 1, 0], "3 numbers"), ("3/2/0", "list"), ([3, "2", 0], "numbers"),
    ([3, True, 0], "numbers"), ([3, float("inf"), 0], "numbers"), ([0, 2, 3], "grow"),
])
def test_bad_place_points_are_refused(custom, says):
    with pytest.raises(SettingsError, match=says):
        check_place_points(custom, 3)
    with pytest.raises(SettingsError):
        PREFERANS.place_points({"results": [0, 0, 0], "places": [1, 2, 3]}, custom)


def test_totals():
    assert PREFERANS.totals({"results": [-20, 5, 15], "places": [1, 2, 3]}) == [-20, 5, 15]
    assert LORA.totals({"totals": [10, 4, 6, -12], "places": [4, 2, 3, 1]}) == [10, 4, 6, -12]


# -- boards (T4) ---------------------------------------------------------------------------------
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), hands=st.sampled_from([3, 6, 12]), bule=st.sampled_from([30, 60, 100]))
def test_preferans_boards_are_each_hands_change_of_the_final_reckoning(seed, hands, bule):
    """Random play with otpis and odlazak u bulu now and then: the boards and the ending
    otpis (if any) sum to each seat's change of result from the start, turned (more is
    better); each board sums to -10 x the hand's bule, and the line names its hand."""
    p = random_partie("preferans", seed, {"bule": bule, "refe": 2, "deljenja": hands})
    assert p.finished
    boards = PREFERANS.boards(p)
    assert len(boards) == p.hands_ended <= hands
    lines = p.papir()["lines"]
    otpis = [line for line in lines if line["kind"] == "otpis"]
    # the otpis changes each result by -10 x its share: no hand's board holds it
    ending = [-10 * x for x in otpis[0]["shares"]] if otpis else [0, 0, 0]
    results = p.result()["results"]
    for s in range(3):
        assert sum(b[s] for b in boards) == -(results[s] - 10 * bule - ending[s])
    for k, board in enumerate(boards):
        line = PREFERANS.board_line(p, k)
        assert line["dealer"] == k % 3 and line["slot"] == k
        assert set(line) == {"contract", "dealer", "declarer", "made", "slot", "kontra", "end"}
        if line["end"] == "refe":  # all passed, or pik sa talonom not played: refe only
            assert board == [0, 0, 0] and line["made"] is None
        else:
            assert isinstance(line["made"], bool) and line["contract"] and line["declarer"] in (0, 1, 2)
        assert sum(board) % 10 == 0  # the supe cancel out: only the bule count for the sum
    with pytest.raises(GameError):
        PREFERANS.board_line(p, p.hands_ended)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), settings_=st.sampled_from([
    {}, {"variant": "klub", "bez": ["lora", "dame", "herc"]}, {"variant": "libijska", "igraca": 3},
    {"variant": "hrvatska"},
]))
def test_lora_boards_are_the_deals_points(seed, settings_):
    p = random_partie("lora", seed, settings_)
    deals = p.result()["deals"]
    assert LORA.boards(p) == [d["points"] for d in deals]
    for k, d in enumerate(deals):
        line = LORA.board_line(p, k)
        assert line["contract"] == d["contract"] and line.get("void", False) == d.get("void", False)
        assert line["declarer"] is None and line["made"] is None and 0 <= line["dealer"] < p.n_seats
        assert line["slot"] == (p.view(None).get("slots") or range(len(deals)))[k]
    with pytest.raises(GameError):
        LORA.board_line(p, len(deals))


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), settings_=st.sampled_from([{}, {"sto_jedan": True, "makk": True}]))
def test_lorum_boards_are_the_deals_chips(seed, settings_):
    p = random_partie("lorum", seed, settings_)
    deals = p.result()["deals"]
    boards = LORUM.boards(p)
    assert boards == [d["transfers"] for d in deals]
    assert [sum(b) + d["bank"] for b, d in zip(boards, deals)] == [0] * len(deals)
    assert [LORUM.board_line(p, k)["dealer"] for k in range(len(deals))] == [k // (len(deals) // 4) for k in range(len(deals))]


def test_a_fall_taken_over_counts_in_its_hands_board():
    """Odlazak u bulu (P10) moves the fall of hand 0 and its supe to the taker: hand 0's
    board follows, whenever it is said."""
    from tests.support.preferans import both_fell
    from tests.support.preferans import say

    p = both_fell()
    before = PREFERANS.boards(p)
    assert before == [[-(r - 600) for r in p.result()["results"]]] == [[-80, 72, -72]]
    say(p, "0:preuzimam pad 2:prihvatam")
    assert PREFERANS.boards(p) == [[-(r - 600) for r in p.result()["results"]]] == [[-152, 72, 0]]
