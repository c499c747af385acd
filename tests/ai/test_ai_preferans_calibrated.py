"""Preferans computer players: the rule-defence check of contracts, the declarer's own
škart in his worlds, and the play worlds of a defender fitted to the contract."""

from __future__ import annotations

import random

import pytest

from app.ai.preferans.bots import MAJSTOR, PreferansBot
from app.ai.preferans.knowledge import PreferansKnowledge, read_view
from app.ai.preferans.sampler import PILE, sample_hands
from app.ai.preferans.simulated import PROLAZ, SimulatedChoices, against_table, contract_fit
from app.ai.preferans.solver import PlaySolver, RuleDefenceSolver
from app.ai.preferans.worlds import IMPERFECT, NodeBudget, makes
from app.games.cards import FULL_MASK
from app.games.preferans import PreferansPartie

from tests.support.preferans import dealt, replay


def random_deal(seed: int) -> list[int]:
    deck = list(range(32))
    random.Random(seed).shuffle(deck)
    return [sum(1 << c for c in deck[k * 10 : k * 10 + 10]) for k in range(3)]


def best_value(solver: PlaySolver, hands: list[int], leader: int) -> int:
    return max(k for k in range(11) if k == 0 or solver.reaches(hands, leader, k))


@pytest.mark.parametrize("seed", range(4))
def test_rule_defence_never_does_better_than_perfect_defence(seed: int) -> None:
    hands = random_deal(seed)
    for trump in (seed % 4, None):
        perfect = best_value(PlaySolver((0, 1, 2), 0, trump, False, node_limit=400_000), hands, 1)
        rule = RuleDefenceSolver((0, 1, 2), 0, trump, False)
        assert best_value(rule, hands, 1) >= perfect
        assert rule.nodes < 20_000  # only the declarer branches


def test_makes_counts_a_rule_defence_make_as_likely() -> None:
    found = {0.0: False, IMPERFECT: False, 1.0: False}
    for seed in range(16):  # 64 deals; the three answers all come by seed 13
        hands = random_deal(seed)
        for trump in range(4):
            p = makes(hands, 0, trump, False, 1, NodeBudget(10**7, 10**6), 0.5)
            perfect = PlaySolver((0, 1, 2), 0, trump, False).reaches(hands, 1, 6)
            rule = RuleDefenceSolver((0, 1, 2), 0, trump, False).reaches(hands, 1, 6)
            assert p == (1.0 if perfect else IMPERFECT if rule else 0.0)
            found[p] = True
    assert all(found.values())


def declarer_after_skart() -> tuple[PreferansPartie, int]:
    for seed in range(40):
        hands, talon = dealt(seed)
        partie = replay(hands, talon, [(1, "2"), (2, "dalje"), (0, "dalje")])
        if partie.hand is None or partie.hand.phase != "talon":
            continue
        skart = next(w for w in partie.legal_actions(1) if w.startswith("skart"))
        partie.apply(1, skart)
        return partie, 1
    raise AssertionError("no talon phase reached")


def test_the_declarer_samples_his_own_skart() -> None:
    partie, seat = declarer_after_skart()
    hand = partie.hand
    assert hand is not None
    know = read_view(partie.view(seat))
    assert know.skart == hand.skart and know.skart.bit_count() == 2
    assert not know.unknown & hand.skart
    for k in range(5):
        world = sample_hands(know, random.Random(k))
        assert world[PILE] == hand.skart
        assert world[0] | world[1] | world[2] | world[PILE] == FULL_MASK
    other = read_view(partie.view((seat + 1) % 3))
    assert other.skart == 0  # the others do not see it


def test_defender_play_worlds_fit_the_contract() -> None:
    hand = sum(1 << c for c in (0, 1, 2, 8, 9, 10, 16, 17, 24, 25))  # low cards everywhere
    know = PreferansKnowledge(seat=1, phase="igra", hand=hand, declarer=0, contract="tref", trump=3, in_play=(0, 1, 2))
    fit = contract_fit(know)
    bot = PreferansBot(MAJSTOR, seed=1)
    worlds = bot._play_worlds(know, random.Random(0), 12)
    plain = [sample_hands(know, random.Random(100 + k)) for k in range(12)]
    assert len(worlds) == 12
    assert sum(fit(w) > 0 for w in worlds) > sum(fit(w) > 0 for w in plain)
    for w in worlds:
        assert w[1] == hand and w[0].bit_count() == 10
    me_declarer = PreferansKnowledge(seat=0, phase="igra", hand=hand, declarer=0, contract="tref", trump=3, in_play=(0, 1, 2))
    assert len(bot._play_worlds(me_declarer, random.Random(0), 5)) == 5


def test_following_pays_unless_the_defence_falls() -> None:
    assert against_table(0, 10, 4) > PROLAZ  # a caller whose side takes nothing falls
    assert against_table(4, 6, 4) < PROLAZ  # four tricks written and no fall beat a prolaz
    assert against_table(5, 5, 4) < against_table(4, 6, 4)  # and the declarer failing is better still
    assert against_table(1, 9, 2) > PROLAZ  # sam with one trick falls


def follow_choices(hand: int, words: list[str], said: list[list]) -> str | None:
    know = PreferansKnowledge(seat=1, phase="pracenje", hand=hand, declarer=0, contract="karo", trump=1)
    h = {"phase": "pracenje", "deal_index": 0, "first_bidder": 1, "follow": {"words": said}}
    return SimulatedChoices(8, 4_000, 800, 1, sample_hands).decide(know, h, words)


def test_simulated_follow_follows_strong_hands_and_passes_weak_ones() -> None:
    suits = lambda *cards: sum(1 << c for c in cards)  # noqa: E731
    strong = suits(7, 6, 5, 15, 23, 22, 21, 31, 30, 29)  # aces and kings everywhere
    weak = suits(0, 1, 2, 3, 8, 16, 17, 24, 25, 26)  # nothing higher than a ten
    assert follow_choices(strong, ["pratim", "ne pratim"], []) == "pratim"
    assert follow_choices(weak, ["pratim", "ne pratim"], []) == "ne pratim"
    assert follow_choices(weak, ["sam", "kontra", "zovem", "ne pratim"], [[2, "ne pratim"]]) == "ne pratim"
    assert follow_choices(strong, ["sam", "kontra", "zovem", "ne pratim"], [[2, "ne pratim"]]) in ("sam", "zovem", "kontra")
    assert follow_choices(weak, ["kontra", "zovem", "sam"], [[1, "pratim"], [2, "ne pratim"]]) in ("zovem", "sam")
