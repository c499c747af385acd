"""Seating of a tournament's rounds (ruling T6): worked examples, the zero-repeat cases of
issue 25, the fewest repeats against brute force, and properties."""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.seating import Table, capacities, repeated_meetings
from app.tournaments.seating_first import first_round
from app.tournaments.seating_next import next_round

SECRET = "5e" * 32


def groups(tables: list[Table]) -> list[set[int]]:
    return [set(t.players) for t in tables]


def seat_counts(rounds: list[list[Table]], size: int) -> dict[int, list[int]]:
    counts: dict[int, list[int]] = defaultdict(lambda: [0] * size)
    for tables in rounds:
        for table in tables:
            for s, p in enumerate(table.seats):
                if p is not None:
                    counts[p][s] += 1
    return counts


def play(players: list[int], size: int, rounds: int, orders: random.Random, secret: str = SECRET,
         rounds_left: bool = False) -> list[list[Table]]:
    """A whole event: round 1 from the secret, each later round in a standings order drawn by ``orders``."""
    history = [first_round(players, size, secret)]
    for r in range(2, rounds + 1):
        order = list(players)
        orders.shuffle(order)
        history.append(next_round(order, size, history, rounds_left=rounds - r + 1 if rounds_left else None))
    return history


def assert_round_shape(tables: list[Table], players: list[int], size: int) -> None:
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == sorted(players)  # every player exactly once
    assert len(tables) == math.ceil(len(players) / size)
    assert all(len(t.seats) == size for t in tables)
    bots = sorted(t.seats.count(None) for t in tables)
    assert not bots or bots[-1] - bots[0] <= 1  # computer players spread: two at a table only if unavoidable


# -- worked examples --------------------------------------------------------------


def test_capacities_spread_the_computer_players_to_the_bottom_tables():
    assert capacities(9, 3) == [3, 3, 3]
    assert capacities(10, 4) == [4, 3, 3]
    assert capacities(7, 4) == [4, 3]
    assert capacities(5, 4) == [3, 2]  # three computer players at two tables: one table has two
    assert capacities(2, 3) == [2]
    assert capacities(0, 3) == []


def test_first_round_is_fixed_by_the_secret():
    players = list(range(1, 14))
    a = first_round(players, 4, SECRET)
    assert a == first_round(list(reversed(players)), 4, SECRET)  # the secret decides, not the list's order
    assert a != first_round(players, 4, "a1" * 32)
    assert_round_shape(a, players, 4)


def test_first_round_by_rating_is_a_snake():
    players = list(range(1, 9))
    ratings = {p: 2000 - 10 * p for p in players}  # 1 best ... 8 worst
    tables = first_round(players, 4, SECRET, ratings=ratings)
    assert groups(tables) == [{1, 4, 5, 8}, {2, 3, 6, 7}]
    # Unrated players after the rated ones; the three computer players spread over three tables.
    tables = first_round([1, 2, 3, 4, 5, 6, 7, 8, 9], 4, SECRET, ratings={1: 1500, 2: 1600})
    assert_round_shape(tables, list(range(1, 10)), 4)
    assert {2} <= groups(tables)[0] and {1} <= groups(tables)[1]


def test_without_history_tables_are_filled_from_the_top():
    order = [7, 3, 9, 1, 5, 2, 8]
    tables = next_round(order, 3, [])
    assert groups(tables) == [{7, 3, 9}, {1, 5}, {2, 8}]
    assert [t.seats.count(None) for t in tables] == [0, 1, 1]


def test_the_fewest_repeats_then_the_least_standings_distance():
    # Two tables met in round 1; any round 2 repeats at least one pair per table. Of those,
    # {1, 2, 4} and {3, 5, 6} has the least standings distance (6 + 6; the others 14 or 16).
    history = [[Table((1, 2, 3)), Table((4, 5, 6))]]
    tables = next_round([1, 2, 3, 4, 5, 6], 3, history)
    assert groups(tables) == [{1, 2, 4}, {3, 5, 6}]
    assert repeated_meetings(history + [tables]) == 2


def test_a_player_not_yet_met_is_taken_before_a_nearer_one_already_met():
    history = [[Table((1, 2, 3)), Table((4, 5, 6)), Table((7, 8, 9))]]
    tables = next_round(list(range(1, 10)), 3, history)
    assert repeated_meetings(history + [tables]) == 0
    assert groups(tables)[0] == {1, 4, 7}


def test_seats_rotate_at_a_table_that_stays_together():
    history: list[list[Table]] = []
    for _ in range(7):
        history.append(next_round([1, 2, 3], 3, history))
    counts = seat_counts(history, 3)
    assert all(max(c) - min(c) <= 1 for c in counts.values())
    assert all(len({r[0].seats for r in history[i:i + 3]}) == 3 for i in range(5))


def test_repeated_meetings_counts_a_pair_once_per_repeat():
    r = [Table((1, 2, 3))]
    assert repeated_meetings([r]) == 0
    assert repeated_meetings([r, r]) == 3
    assert repeated_meetings([r, r, r]) == 6
    assert repeated_meetings([[Table((1, 2, None))], [Table((None, 2, 1))], [Table((1, None, 3))]]) == 1


@pytest.mark.parametrize("order, size", [([1, 2, 1], 3), ([1, 2], 1), ([1, "2"], 3)])
def test_bad_input_is_a_clear_error(order, size):
    with pytest.raises(ValueError):
        next_round(order, size, [])


def test_a_history_table_of_another_size_is_an_error():
    with pytest.raises(ValueError, match="seats"):
        next_round([1, 2, 3], 3, [[Table((1, 2, 3, None))]])


# -- the must-show cases: zero repeats where a seating without them exists -----


def event_without_repeats(players: list[int], size: int, rounds: int, orders_seed: int, rounds_left: bool) -> None:
    history = play(players, size, rounds, random.Random(orders_seed), secret=f"{orders_seed + size:064x}",
                   rounds_left=rounds_left)
    assert repeated_meetings(history) == 0
    for tables in history:
        assert_round_shape(tables, players, size)


@pytest.mark.parametrize("orders_seed", range(6))
@pytest.mark.parametrize("rounds_left", [False, True])
def test_nine_preferans_players_four_rounds_no_pair_meets_twice(orders_seed, rounds_left):
    event_without_repeats(list(range(101, 110)), 3, 4, orders_seed, rounds_left)


@pytest.mark.parametrize("orders_seed", range(6))
@pytest.mark.parametrize("rounds_left", [False, True])
def test_sixteen_lora_players_five_rounds_no_pair_meets_twice(orders_seed, rounds_left):
    event_without_repeats(list(range(201, 217)), 4, 5, orders_seed, rounds_left)


@pytest.mark.parametrize("name", ["best first", "worst first", "by id interleaved"])
def test_sixteen_players_in_fixed_standings_orders(name):
    players = list(range(1, 17))
    history = [first_round(players, 4, SECRET)]
    for r in range(2, 6):
        if name == "best first":
            order = players
        elif name == "worst first":
            order = players[::-1]
        else:
            order = players[::2] + players[1::2]
        history.append(next_round(order, 4, history))
    assert repeated_meetings(history) == 0


def test_twenty_five_players_at_tables_of_five_six_rounds():
    players = list(range(1, 26))
    assert repeated_meetings(play(players, 5, 6, random.Random(3))) == 0


# -- the fewest repeats, against brute force ------------------------------------------


def all_partitions(items: list[int], caps: list[int]):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for cap in set(caps):
        left_caps = list(caps)
        left_caps.remove(cap)
        for combo in itertools.combinations(rest, cap - 1):
            left = [x for x in rest if x not in combo]
            for part in all_partitions(left, left_caps):
                yield [[first, *combo], *part]


def fewest_repeats(players: list[int], size: int, history: list[list[Table]]) -> int:
    best = None
    for part in all_partitions(players, capacities(len(players), size)):
        tables = [Table((*g, *([None] * (size - len(g))))) for g in part]
        r = repeated_meetings([*history, tables])
        best = r if best is None else min(best, r)
    assert best is not None
    return best


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.data())
def test_each_round_has_the_fewest_repeats_possible_on_small_fields(data):
    size = data.draw(st.sampled_from([3, 4]))
    n = data.draw(st.integers(2, 9 if size == 3 else 8))
    rounds = data.draw(st.integers(1, 5))
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    players = list(range(1, n + 1))
    history = play(players, size, rounds, rng)
    order = list(players)
    rng.shuffle(order)
    tables = next_round(order, size, history)
    assert repeated_meetings([*history, tables]) == fewest_repeats(players, size, history)


# -- properties -------------------------------------------------------------------


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.data())
def test_every_round_seats_every_player_once_at_tables_of_the_size(data):
    size = data.draw(st.sampled_from([2, 3, 4, 5]))
    players = data.draw(st.lists(st.integers(1, 10**6), min_size=1, max_size=60, unique=True))
    rounds = data.draw(st.integers(1, 6))
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    history = play(players, size, rounds, rng)
    for tables in history:
        assert_round_shape(tables, players, size)
    # Late joiners and players gone: the next round seats exactly the players of its order.
    order = [p for p in players if rng.random() < 0.8] + [10**7 + i for i in range(rng.randint(0, 3))]
    rng.shuffle(order)
    assert_round_shape(next_round(order, size, history), order, size)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.binary(min_size=32, max_size=32), st.integers(1, 40), st.sampled_from([3, 4]))
def test_seating_is_determined_by_its_inputs(key, n, size):
    players = list(range(1, n + 1))
    first = first_round(players, size, key.hex())
    assert first == first_round(players, size, key.hex())
    order = players[::-1]
    assert next_round(order, size, [first]) == next_round(order, size, [first])


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.data())
def test_seats_rotate_as_evenly_as_the_tables_allow(data):
    size = data.draw(st.sampled_from([3, 4]))
    n = data.draw(st.integers(2, 30))
    rounds = data.draw(st.integers(2, 10))
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    players = list(range(1, n + 1))
    history = play(players, size, rounds, rng)
    # Each table's seats are the best for its players' seats so far (brute force) ...
    for r in range(1, rounds):
        before = seat_counts(history[:r], size)
        for table in history[r]:
            def cost(seats: tuple[int | None, ...]) -> int:
                return sum(3 ** (before[p][s] - min(before[p])) - 1 for s, p in enumerate(seats) if p is not None)
            assert cost(table.seats) == min(cost(perm) for perm in itertools.permutations(table.seats))
    # ... so that no one holds a seat more than once above an even share.
    for counts in seat_counts(history, size).values():
        assert max(counts) <= math.ceil(rounds / size) + 1
