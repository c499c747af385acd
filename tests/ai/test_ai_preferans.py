"""The preferans computer players: legal words in every phase, seeds, exact play search."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.ai import BOT_NAMES, make_bot
from app.ai.preferans.knowledge import read_view
from app.ai.preferans.sampler import PILE, sample_hands
from app.ai.preferans.solver import PlaySolver
from app.games.cards import CARD_NAMES
from app.games.preferans import PreferansPartie
from app.games.preferans.play import legal_mask, trick_winner

SETTINGS = {"bule": 60, "refe": 2}


def partie_after(seed: int, words: int) -> PreferansPartie:
    rng = random.Random(seed)
    partie = PreferansPartie.new(SETTINGS, seed=seed)
    for _ in range(words):
        seats = partie.seats_to_act()
        if not seats:
            break
        partie.apply(seats[0], rng.choice(partie.legal_actions(seats[0])))
    return partie


@pytest.mark.parametrize("name", BOT_NAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), words=st.integers(0, 120))
def test_every_bot_says_a_legal_word(name: str, seed: int, words: int) -> None:
    partie = partie_after(seed, words)
    seats = partie.seats_to_act()
    assume(seats)
    word = make_bot(name, "preferans", seed=seed).choose(partie.view(seats[0]), partie.legal_actions(seats[0]))
    assert word in partie.legal_actions(seats[0])


def test_three_majstor_bots_play_hands_to_the_end() -> None:
    partie = PreferansPartie.new(SETTINGS, seed=4)
    bots = [make_bot("majstor", "preferans", seed=s) for s in range(3)]
    played = []
    for _ in range(200):
        seats = partie.seats_to_act()
        if not seats or partie.deal_index >= 2:
            break
        s = seats[0]
        word = bots[s].choose(partie.view(s), partie.legal_actions(s))
        played.append(word)
        partie.apply(s, word)
    assert partie.deal_index >= 2, f"200 words played only {partie.deal_index} hands"
    assert sum(w in CARD_NAMES for w in played) >= 10  # hands played out, not only passed


@pytest.mark.parametrize("name", ["pocetnik", "majstor"])
def test_same_seed_same_view_same_word(name: str) -> None:
    for seed in range(6):
        partie = partie_after(seed, 20 + 7 * seed)
        seats = partie.seats_to_act()
        if not seats:
            continue
        view, legal = partie.view(seats[0]), partie.legal_actions(seats[0])
        assert make_bot(name, "preferans", seed=1).choose(copy.deepcopy(view), legal) == make_bot(
            name, "preferans", seed=1
        ).choose(view, legal)


def test_sampler_keeps_sizes_played_cards_and_voids() -> None:
    checked = 0
    for seed in range(60):
        partie = partie_after(seed, 40)
        seats = partie.seats_to_act()
        hand = partie.hand
        if not seats or hand is None or hand.play is None:
            continue
        know = read_view(partie.view(seats[0]))
        for _ in range(10):
            hands = sample_hands(know, random.Random(seed))
            assert hands[know.seat] == know.hand
            assert hands[PILE].bit_count() == 2
            for s in range(3):
                assert hands[s].bit_count() == know.hand_size(s)
                assert not hands[s] & know.played
                assert not hands[s] & know.forbidden[s]
        checked += 1
    assert checked


def brute(hands: list[int], seats: tuple[int, ...], trump: int | None, declarer: int, betl: bool,
          trick: list[tuple[int, int]], turn: int) -> int:
    if not hands[declarer] and not trick:
        return 0
    maximizing = (turn == declarer) != betl
    values = []
    lead = trick[0][1] if trick else None
    m = legal_mask(hands[turn], lead, trump)
    for c in range(32):
        if not (m >> c) & 1:
            continue
        h = list(hands)
        h[turn] &= ~(1 << c)
        t = trick + [(turn, c)]
        if len(t) == len(seats):
            w = trick_winner(t, trump)
            values.append((w == declarer) + brute(h, seats, trump, declarer, betl, [], w))
        else:
            values.append(brute(h, seats, trump, declarer, betl, t, seats[(seats.index(turn) + 1) % len(seats)]))
    return max(values) if maximizing else min(values)


@pytest.mark.parametrize("trump,betl", [(0, False), (3, False), (None, False), (None, True)])
def test_play_solver_is_exact_on_small_endings(trump: int | None, betl: bool) -> None:
    rng = random.Random(7)
    for _ in range(5):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[i * 4 : i * 4 + 4]) for i in range(3)]
        seats = (0, 1, 2)
        declarer = rng.randrange(3)
        leader = rng.randrange(3)
        values = PlaySolver(seats, declarer, trump, betl).move_values(hands, [], leader)
        for c, v in values.items():
            h = list(hands)
            h[leader] &= ~(1 << c)
            expect = brute(h, seats, trump, declarer, betl, [(leader, c)], seats[(leader + 1) % 3])
            assert v == expect
