"""Matchpoints and the duplikat standings (T4, T7); place points and the svajcarski
standings (T5, T7): worked examples by hand and properties."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.scoring import (
    BoardResult,
    RoundPlaces,
    duplicate_standings,
    matchpoints,
    swiss_standings,
)


def br(round_no, board, table_no, seat, player, value):
    return BoardResult(round_no, board, table_no, seat, player, value)


# -- matchpoints -----------------------------------------------------------------------


def test_matchpoints_two_for_each_table_beaten_one_for_each_equal():
    # Lora points, lower better: seat 0 of board 1 at three tables scored 2, 5 and 5.
    results = [br(1, 1, 1, 0, 11, 2), br(1, 1, 2, 0, 21, 5), br(1, 1, 3, 0, 31, 5)]
    mp = matchpoints(results, higher_better=False)
    assert mp == {(1, 1, 1, 0): (4.0, 4.0), (1, 1, 2, 0): (1.0, 4.0), (1, 1, 3, 0): (1.0, 4.0)}
    # Higher better (Lórum chips, preferans): the other way round.
    mp = matchpoints(results, higher_better=True)
    assert mp[(1, 1, 1, 0)] == (0.0, 4.0) and mp[(1, 1, 2, 0)] == (3.0, 4.0)


def test_each_seat_and_board_is_compared_only_with_itself():
    results = [br(1, 1, 1, 0, 1, 0), br(1, 1, 2, 0, 2, 9), br(1, 1, 1, 1, 3, 9), br(1, 1, 2, 1, 4, 0),
               br(1, 2, 1, 0, 1, 9), br(2, 1, 1, 0, 1, 9)]
    mp = matchpoints(results, higher_better=True)
    assert mp[(1, 1, 1, 0)] == (0.0, 2.0) and mp[(1, 1, 1, 1)] == (2.0, 2.0)
    assert mp[(1, 2, 1, 0)] == (0.0, 0.0)  # nobody else played board 2: nothing possible
    assert mp[(2, 1, 1, 0)] == (0.0, 0.0)


def test_two_results_for_one_seat_are_an_error():
    with pytest.raises(ValueError, match="two results"):
        matchpoints([br(1, 1, 1, 0, 1, 3), br(1, 1, 1, 0, 2, 4)], True)


results_strategy = st.lists(
    st.tuples(st.integers(1, 2), st.integers(1, 3), st.integers(1, 5), st.integers(0, 3),
              st.integers(-3, 3).map(float)),
    max_size=80, unique_by=lambda t: t[:4])


@settings(max_examples=80, deadline=None)
@given(results_strategy, st.booleans())
def test_matchpoints_are_symmetric(rows, higher_better):
    results = [br(r, b, t, s, None, v) for r, b, t, s, v in rows]
    mp = matchpoints(results, higher_better)
    by_seat = defaultdict(list)
    for (r, b, t, s), value in mp.items():
        by_seat[(r, b, s)].append(value)
    for values in by_seat.values():
        tables = len(values)
        assert all(possible == 2 * (tables - 1) for _, possible in values)
        assert sum(got for got, _ in values) == pytest.approx(2 * (tables - 1) * tables / 2)
        assert all(0 <= got <= possible for got, possible in values)


# -- duplikat standings ------------------------------------------------------------------


def two_tables_two_boards():
    # Table 1: players 1 (seat 0) and 2 (seat 1); table 2: 3 and 4. Higher better.
    return [
        br(1, 1, 1, 0, 1, 10), br(1, 1, 2, 0, 3, 5),  # board 1 seat 0: 1 beats 3
        br(1, 1, 1, 1, 2, 0), br(1, 1, 2, 1, 4, 0),  # board 1 seat 1: equal
        br(1, 2, 1, 0, 1, 3), br(1, 2, 2, 0, 3, 3),  # board 2 seat 0: equal
        br(1, 2, 1, 1, 2, 7), br(1, 2, 2, 1, 4, 9),  # board 2 seat 1: 4 beats 2
    ]


def test_duplicate_standings_by_hand():
    rows = duplicate_standings(two_tables_two_boards(), True, [1, 2, 3, 4], boards_total=2)
    got = {s.player: (s.rank, s.score, s.played, s.tiebreaks, s.ranked) for s in rows}
    assert got == {
        1: (1, 75.0, 2, (3.0, 4.0), True),
        4: (1, 75.0, 2, (3.0, 4.0), True),
        2: (3, 25.0, 2, (1.0, 4.0), True),
        3: (3, 25.0, 2, (1.0, 4.0), True),
    }
    assert [s.rank for s in rows] == [1, 1, 3, 3]


def test_a_player_of_fewer_than_half_the_boards_is_not_ranked_and_comes_last():
    results = two_tables_two_boards() + [br(2, 1, 1, 0, 5, 100), br(2, 1, 2, 0, 1, 0)]
    rows = duplicate_standings(results, True, [1, 2, 3, 4, 5, 6], boards_total=4)
    by = {s.player: s for s in rows}
    assert by[5].score == 100.0 and by[5].played == 1 and not by[5].ranked and by[5].rank is None
    assert by[6].played == 0 and not by[6].ranked  # registered, never played
    assert by[1].played == 3 and by[1].score == pytest.approx(100 * 3 / 6) and by[1].ranked
    assert [s.player for s in rows][-2:] == [5, 6]
    assert [s.rank for s in rows[:4]] == [1, 2, 3, 3]  # 4 (75%), 1 (50%), then 2 and 3 (25%)


def test_a_withdrawn_player_is_listed_last_with_his_score_and_not_ranked():
    """T7, T10: his boards stay in the others' comparisons; he is listed, never ranked."""
    results = two_tables_two_boards() + [br(2, 1, 1, 0, 5, 100), br(2, 1, 2, 0, 1, 0)]
    rows = duplicate_standings(results, True, [1, 2, 3, 4, 5, 6], boards_total=4, withdrawn={4})
    by = {s.player: s for s in rows}
    assert by[4].withdrawn and not by[4].ranked and by[4].rank is None and by[4].score == 75.0
    assert not any(by[p].withdrawn for p in (1, 2, 3, 5, 6))
    assert [s.player for s in rows] == [1, 2, 3, 5, 6, 4]  # the too-few-boards first, the withdrawn last
    assert [s.rank for s in rows[:3]] == [1, 2, 2]
    # svajcarski: 3 withdrew after round 1; his points stay in his table-mates' Buchholz
    rows = swiss_standings(six_players_two_rounds(), [1, 2, 3, 4, 5, 6], rounds_played=2, withdrawn={3})
    assert [(s.player, s.rank, s.withdrawn) for s in rows][-1] == (3, None, True)
    assert [s.rank for s in rows[:5]] == [1, 2, 3, 4, 5]
    assert {s.player: s.tiebreaks for s in rows}[1] == (8.0, 14.0)


def test_the_robot_field_counts_in_every_comparison_but_ranks_no_one():
    results = [br(1, 1, 1, 0, 1, 10), br(1, 1, 2, 0, 2, 5), br(1, 1, 9, 0, None, 7)]
    mp = matchpoints(results, True)
    assert mp[(1, 1, 1, 0)] == (4.0, 4.0) and mp[(1, 1, 2, 0)] == (0.0, 4.0) and mp[(1, 1, 9, 0)] == (2.0, 4.0)
    rows = duplicate_standings(results, True, [1, 2], boards_total=1)
    assert [(s.player, s.score) for s in rows] == [(1, 100.0), (2, 0.0)]


@settings(max_examples=80, deadline=None)
@given(results_strategy, st.booleans(), st.integers(1, 12))
def test_duplicate_ranks_are_monotone_in_score(rows, higher_better, boards_total):
    players = [1, 2, 3, 4, 5, 6, 7]
    results = [br(r, b, t, s, players[(t * 4 + s) % 7], v) for r, b, t, s, v in rows]
    standings = duplicate_standings(results, higher_better, players, boards_total)
    assert sorted(s.player for s in standings) == players
    ranked = [s for s in standings if s.ranked]
    assert all(s.rank is None for s in standings[len(ranked):])  # unranked after ranked
    for a, b in zip(ranked, ranked[1:]):
        assert a.score >= b.score - 1e-9
        assert (a.rank == b.rank) == (abs(a.score - b.score) < 1e-9)
    if ranked:
        assert ranked[0].rank == 1
    for i, s in enumerate(ranked):
        assert s.rank == 1 + sum(1 for o in ranked if o.score > s.score + 1e-9)
    for s in standings:
        assert s.ranked == (s.played > 0 and 2 * s.played >= boards_total)
        assert 0.0 <= s.score <= 100.0


# -- svajcarski standings --------------------------------------------------------------


def six_players_two_rounds():
    return [
        RoundPlaces(1, 1, (1, 2, 3), (3, 2, 0), (10, 5, -15)),
        RoundPlaces(1, 2, (4, 5, 6), (3, 2, 0), (20, -5, -15)),
        RoundPlaces(2, 1, (1, 4, None), (2, 3, 0), (4, 8, -12)),  # 3 withdrew; a computer player filled
        RoundPlaces(2, 2, (2, 5, 6), (0, 2, 3), (-9, 1, 8)),
    ]


def test_swiss_standings_by_hand():
    rows = swiss_standings(six_players_two_rounds(), [1, 2, 3, 4, 5, 6], rounds_played=2)
    got = [(s.player, s.rank, s.score, s.played, s.tiebreaks) for s in rows]
    # Points: 4: 6, 1: 5, 5: 4, 6: 3, 2: 2, 3: 0. Buchholz (table-mates' final points,
    # the computer player left out): 4: 4+3+5, 1: 2+0+6, 5: 6+3+2+3, 6: 6+4+2+4, 2: 5+0+4+3, 3: 5+2.
    assert got == [
        (4, 1, 6.0, 2, (12.0, 28.0)),
        (1, 2, 5.0, 2, (8.0, 14.0)),
        (5, 3, 4.0, 2, (14.0, -4.0)),
        (6, 4, 3.0, 2, (16.0, -7.0)),
        (2, 5, 2.0, 2, (12.0, -4.0)),
        (3, 6, 0.0, 1, (7.0, -15.0)),
    ]
    assert all(s.ranked for s in rows)


def test_swiss_ties_go_to_buchholz_then_the_total_then_share_the_rank():
    rounds = [
        RoundPlaces(1, 1, (1, 2, 3), (3, 0, 0), (9, 0, 0)),
        RoundPlaces(1, 2, (4, 5, 6), (3, 0, 0), (9, 0, 0)),
        RoundPlaces(2, 1, (2, 4, 6), (3, 0, 0), (5, 0, 0)),
        RoundPlaces(2, 2, (1, 3, 5), (0, 3, 0), (0, 7, 0)),
    ]
    # Points: 1, 2, 3, 4 three each; 5, 6 none. Buchholz: 1: (2+3) + (3+0) = 9, 2: (3+3) +
    # (3+0) = 9, 3: (3+3) + (3+0) = 9, 4: (0+0) + (3+0) = 3; 5 and 6: 9 each. Totals: 1: 9,
    # 3: 7, 2: 5; 5 and 6: 0, equal in all three, share 5th.
    rows = swiss_standings(rounds, [1, 2, 3, 4, 5, 6], rounds_played=2)
    assert [(s.player, s.rank) for s in rows] == [(1, 1), (3, 2), (2, 3), (4, 4), (5, 5), (6, 5)]
    # Equal points and Buchholz: the total decides; equal in all, a shared rank.
    rounds = [RoundPlaces(1, 1, (1, 2), (3, 3), (5, 7)), RoundPlaces(1, 2, (3, 4), (3, 3), (5, 5))]
    rows = swiss_standings(rounds, [1, 2, 3, 4], rounds_played=1)
    assert [(s.player, s.rank) for s in rows] == [(2, 1), (1, 2), (3, 2), (4, 2)]


def test_a_late_joiner_gets_the_lowest_place_points_of_each_missed_round():
    rounds = [
        RoundPlaces(1, 1, (1, 2, 3, 4), (3, 2, 0.5, 0.5), (0, 0, 0, 0)),  # the last two shared 0 + 1
        RoundPlaces(1, 2, (5, 6, 7, None), (3, 2, 1, 0), (0, 0, 0, 0)),
        RoundPlaces(2, 1, (1, 2, 3, 8), (0, 1, 2, 3), (0, 0, 0, 0)),
        RoundPlaces(3, 1, (1, 2, 3, 8), (0, 1, 2, 3), (0, 0, 0, 0)),  # not yet played: not counted
    ]
    rows = {s.player: s for s in swiss_standings(rounds, [1, 2, 3, 8], rounds_played=2, joined={8: 2})}
    assert rows[8].score == 0.0 + 3  # round 1's lowest place points (the computer player's 0), then 3
    assert rows[8].played == 1
    rows = {s.player: s for s in swiss_standings(rounds[:1] + rounds[2:3], [1, 2, 3, 8], 2, joined={8: 2})}
    assert rows[8].score == 0.5 + 3


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.permutations([1, 2, 3, 4, 5, 6]), st.lists(st.sampled_from([0.0, 1.0, 1.5, 2.0, 3.0]),
                                                                          min_size=6, max_size=6)),
                min_size=1, max_size=4))
def test_swiss_ranks_are_monotone_in_points_buchholz_and_total(rounds_drawn):
    rounds = []
    for r, (perm, pts) in enumerate(rounds_drawn, 1):
        rounds.append(RoundPlaces(r, 1, tuple(perm[:3]), tuple(pts[:3]), tuple(pts[:3])))
        rounds.append(RoundPlaces(r, 2, tuple(perm[3:]), tuple(pts[3:]), tuple(-x for x in pts[3:])))
    rows = swiss_standings(rounds, [1, 2, 3, 4, 5, 6], rounds_played=len(rounds_drawn))
    keys = [(s.score, *s.tiebreaks) for s in rows]
    assert keys == sorted(keys, reverse=True)
    for a, b, ka, kb in zip(rows, rows[1:], keys, keys[1:]):
        assert (a.rank == b.rank) == (ka == kb)
    assert sum(s.score for s in rows) == pytest.approx(sum(sum(p) for _, p in rounds_drawn))
