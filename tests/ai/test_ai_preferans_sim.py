"""Preferans computer players: view-only decisions, the simulation's worlds, the checked
auction and claims (fast: the search levels are run with small budgets where possible)."""

from __future__ import annotations

import random

import pytest

from app.ai import make_bot
from app.ai.preferans.auction import Outlook, declarer_expectation, skart_plans
from app.ai.preferans.knowledge import read_view
from app.ai.preferans.sampler import PILE, sample_hands
from app.ai.preferans.solver import PlaySolver
from app.games.cards import CARD_NAMES, FULL_MASK, cards_of, mask_of, names_of
from app.games.preferans import PreferansPartie
from tests.support.preferans import dealt, replay


def random_position(seed: int, pocetnik_words: int) -> tuple[list[list[str]], list[str], list[tuple[int, str]]]:
    """A deal and the words of three pocetnik bots, stopped after ``pocetnik_words`` words."""
    hands, talon = dealt(seed)
    partie = replay(hands, talon, [])
    bots = [make_bot("pocetnik", "preferans", seed=s) for s in range(3)]
    actions: list[tuple[int, str]] = []
    rng = random.Random(seed)
    for _ in range(pocetnik_words):
        seats = partie.seats_to_act()
        if not seats or partie.hands_ended:
            break
        s = seats[0]
        legal = partie.legal_actions(s)
        word = bots[s].choose(partie.view(s), legal) if rng.random() < 0.8 else rng.choice(legal)
        if partie.hand is not None and partie.hand.phase == "licitacija" and rng.random() < 0.5 and "2" in legal:
            word = "2"  # get contracts played often
        partie.apply(s, word)
        actions.append((s, word))
    return hands, talon, actions


def permuted(partie: PreferansPartie, seat: int, rng: random.Random) -> tuple[list[list[str]], list[str]] | None:
    """The same deal with the cards ``seat`` cannot see dealt again among their holders,
    respecting what the seat saw (sizes, played cards, the shown talon, voids)."""
    hand = partie.hand
    assert hand is not None
    know = read_view(partie.view(seat))
    others = [s for s in range(3) if s != seat]
    current = {s: hand.hands[s] for s in others}
    shown_talon = mask_of(hand.talon) if hand.talon_shown else 0
    pool_holders = {s: current[s] & ~shown_talon for s in others}
    if not hand.talon_shown:
        pool_holders[PILE] = mask_of(hand.talon)
    pool = [c for m in pool_holders.values() for c in cards_of(m)]
    for _ in range(200):
        rng.shuffle(pool)
        new, i = {}, 0
        for h, m in pool_holders.items():
            n = m.bit_count()
            new[h] = mask_of(pool[i : i + n])
            i += n
        if any(new[s] & know.forbidden[s] for s in others):
            continue
        out = [list(x) for x in partie.deals[-1]["hands"]]
        for s in others:
            played = know.played_by[s]
            orig = new[s] | (current[s] & shown_talon) | played
            if hand.declarer == s and hand.talon_shown:
                orig = (orig | hand.skart) & ~shown_talon
            out[s] = names_of(orig)
        talon = names_of(new[PILE]) if PILE in new else list(partie.deals[-1]["talon"])
        return out, talon
    return None


def test_decisions_read_only_the_view() -> None:
    """A seat's word does not change when the cards it cannot see are dealt differently."""
    checked = 0
    for seed in range(60):
        if checked >= 8:
            break
        hands, talon, actions = random_position(seed, 4 + seed % 30)
        partie = replay(hands, talon, actions)
        seats = partie.seats_to_act()
        if not seats or partie.hands_ended:
            continue
        seat = seats[0]
        other = permuted(partie, seat, random.Random(seed))
        if other is None:
            continue
        twin = replay(other[0], other[1], actions)
        view = partie.view(seat)
        assert twin.view(seat) == view
        legal = partie.legal_actions(seat)
        assert twin.legal_actions(seat) == legal
        for name in ("pocetnik", "majstor"):
            assert make_bot(name, "preferans", seed=3).choose(view, legal) == make_bot(name, "preferans", seed=3).choose(
                twin.view(seat), legal)
        checked += 1
    assert checked >= 8


def test_worlds_respect_the_view() -> None:
    checked = 0
    for seed in range(80):
        hands, talon, actions = random_position(seed, 4 + seed % 40)
        partie = replay(hands, talon, actions)
        seats = partie.seats_to_act()
        if not seats or partie.hands_ended:
            continue
        hand = partie.hand
        assert hand is not None
        know = read_view(partie.view(seats[0]))
        for k in range(6):
            world = sample_hands(know, random.Random(k))
            assert world[know.seat] == know.hand
            assert world[0] | world[1] | world[2] | world[PILE] | know.played == FULL_MASK
            assert sum(m.bit_count() for m in world) + know.played.bit_count() == 32
            for s in range(3):
                assert not world[s] & know.played
                assert not world[s] & know.forbidden[s]
                if s != know.seat:
                    assert world[s].bit_count() == hand.hands[s].bit_count()
                if know.talon and s != hand.declarer:
                    assert not world[s] & know.talon  # a shown talon is the declarer's or discarded
        checked += 1
    assert checked >= 20


def test_declarer_in_the_talon_phase_samples_no_pile() -> None:
    for seed in range(30):
        hands, talon = dealt(seed)
        partie = replay(hands, talon, [(1, "2"), (2, "dalje"), (0, "dalje")])
        if partie.hand is None or partie.hand.phase != "talon":
            continue
        know = read_view(partie.view(1))
        world = sample_hands(know, random.Random(0))
        assert world[PILE] == 0 and world[1].bit_count() == 12
        assert world[0].bit_count() == world[2].bit_count() == 10
        return
    raise AssertionError("no talon phase reached")


def test_expectation_prefers_likely_contracts() -> None:
    assert declarer_expectation(("herc", False), 1.0) < 0 < declarer_expectation(("herc", False), 0.3)
    assert declarer_expectation(("betl", True), 1.0) < declarer_expectation(("betl", False), 1.0)
    outlook = Outlook({("tref", False): 0.95, ("pik", False): 0.5})
    assert outlook.best([("tref", False), ("pik", False), ("sans", False)])[1] == ("tref", False)  # type: ignore[index]


def test_skart_plans_respect_the_bid() -> None:
    hands, talon = dealt(5)
    twelve = mask_of(CARD_NAMES.index(w) for w in hands[0] + talon)
    for bid in (2, 4, 6, 7):
        for name, (a, b) in skart_plans(twelve, bid).items():
            assert (twelve >> a) & 1 and (twelve >> b) & 1 and a != b
            assert {"pik": 2, "karo": 3, "herc": 4, "tref": 5, "betl": 6, "sans": 7}[name] >= bid


def test_claims_only_when_the_rest_is_certain() -> None:
    """Every nosim sve / nemam pad of a search bot holds with all cards open."""
    claims = 0
    strong = ["AC", "KC", "QC", "JC", "TC", "9C", "AH", "KH", "AD", "KD"]
    for seed in range(3):
        hands, talon = dealt(100 + seed)
        if seed < 2:  # seat 1 (first bidder) gets a hand that claims sooner or later
            spades = ["AS", "KS", "QS"]  # so that seat 0 follows
            rest = [c for h in hands for c in h if c not in strong + spades] + [c for c in talon if c not in strong + spades]
            random.Random(seed).shuffle(rest)
            hands, talon = [spades + rest[:7], strong, rest[7:17]], rest[17:19]
        scripted = [(1, "igra"), (2, "dalje"), (0, "dalje"), (1, "tref"), (2, "pratim"), (0, "pratim"), (2, "moze"), (0, "moze")]
        partie = replay(hands, talon, scripted if seed < 2 else [])
        bots = [make_bot("iskusan", "preferans", seed=s) for s in range(3)]
        for _ in range(300):
            seats = partie.seats_to_act()
            if not seats or partie.hands_ended:
                break
            s = seats[0]
            word = bots[s].choose(partie.view(s), partie.legal_actions(s))
            hand = partie.hand
            if word in ("nosim sve", "nemam pad") and hand is not None and hand.play is not None:
                play = hand.play
                d = hand.declarer
                assert d is not None
                solver = PlaySolver(play.seats, d, play.trump, play.betl)
                left = 10 - len(play.history)
                if play.trick:
                    values = solver.move_values(list(play.hands), list(play.trick), play.turn)
                    maximizing = (play.turn == d) != play.betl
                    value = max(values.values()) if maximizing else min(values.values())
                else:
                    value = solver._trick(list(play.hands), play.turn, -1, 11)
                assert value == (0 if play.betl else left)
                claims += 1
            partie.apply(s, word)
    assert claims >= 1


@pytest.mark.parametrize("words", [10, 20, 30])
def test_sampled_cards_never_include_own_or_played(words: int) -> None:
    hands, talon, actions = random_position(3, words)
    partie = replay(hands, talon, actions)
    seats = partie.seats_to_act()
    assert seats and partie.hand.phase == "igra", "the position is in the play and waits for a word"
    know = read_view(partie.view(seats[0]))
    for k in range(20):
        world = sample_hands(know, random.Random(k))
        others = [world[s] for s in range(3) if s != know.seat] + [world[PILE]]
        for m in others:
            assert not m & know.hand and not m & know.played
