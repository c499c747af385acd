"""The Lora computer players: legal words, only the view, exact search, sampling, seeds."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.ai import BOT_NAMES, Bot, make_bot
from app.ai.lora.knowledge import read_view
from app.ai.lora.layout_solver import LayoutSolver
from app.ai.tricks.sampler import sample_hands
from app.ai.tricks.trick_solver import TrickSolver, herc_context
from app.games.cards import CARD_BY_NAME, SUIT_MASKS, mask_of, names_of
from app.games.lora import LoraPartie
from app.games.tricks.contracts import Contract
from app.games.tricks.deal import LayoutDeal, TrickDeal
from tests.support.lora import partie_at


def partie_in_play(seed: int, deal_index: int, moves: int) -> LoraPartie:
    """A partie at deal ``deal_index`` (dealt from a random deck) after ``moves`` random words."""
    rng = random.Random(seed)
    deck = list(names_of((1 << 32) - 1))
    rng.shuffle(deck)
    partie = partie_at(deal_index, [sorted(deck[i * 8 : i * 8 + 8]) for i in range(4)], seed=seed)
    for _ in range(moves):
        seats = partie.seats_to_act()
        if not seats or partie.deal.ended:
            break
        partie.apply(seats[0], rng.choice(partie.legal_actions(seats[0])))
    return partie


def ask(bot: Bot, partie: LoraPartie) -> tuple[int, str]:
    seat = partie.seats_to_act()[0]
    return seat, bot.choose(partie.view(seat), partie.legal_actions(seat))


@pytest.mark.parametrize("name", BOT_NAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), deal_index=st.integers(0, 27), moves=st.integers(0, 31))
def test_every_bot_says_a_legal_word(name: str, seed: int, deal_index: int, moves: int) -> None:
    partie = partie_in_play(seed, deal_index, moves)
    assume(partie.seats_to_act())
    seat, word = ask(make_bot(name, "lora", seed=seed), partie)
    assert word in partie.legal_actions(seat)


def test_four_search_bots_finish_a_deal_of_each_contract() -> None:
    bots = [make_bot("iskusan", "lora", seed=s) for s in range(4)]
    for deal_index in range(7):
        partie = partie_in_play(deal_index, deal_index, 0)
        words = 0
        while not partie.deal.ended:
            seat, word = ask(bots[partie.seats_to_act()[0]], partie)
            assert word in partie.legal_actions(seat), (deal_index, seat, word)
            partie.apply(seat, word)
            words += 1
            assert words <= 40, f"deal {deal_index} does not end after {words} words"
        assert partie.needs_deal and len(partie.deal.points) == 4


@pytest.mark.parametrize("name", ["pocetnik", "iskusan", "majstor"])
def test_the_choice_depends_on_the_view_only(name: str) -> None:
    """Deal the other seats' cards differently but consistently with what the seat saw:
    the view is the same, and so is the word."""
    for seed in range(6):
        deal_index = seed % 7 + 7 * (seed % 4)
        partie = partie_in_play(seed, deal_index, 5 + 3 * seed)
        if not partie.seats_to_act():
            continue
        seat = partie.seats_to_act()[0]
        view = partie.view(seat)
        other_hands = sample_hands(read_view(view), random.Random(seed + 100))
        # the cards already played go back to the seats that played them
        dealt = list(other_hands)
        for s, w in view["deal"]["actions"]:
            if w != "dalje":
                dealt[s] |= 1 << CARD_BY_NAME[w]
        twin = partie_at(deal_index, [names_of(h) for h in dealt], seed=seed)
        for s, w in view["deal"]["actions"]:
            twin.apply(s, w)
        assert twin.view(seat) == view
        bot = make_bot(name, "lora", seed=7)
        assert bot.choose(copy.deepcopy(view), partie.legal_actions(seat)) == bot.choose(
            twin.view(seat), twin.legal_actions(seat)
        )


def test_a_bot_reads_nothing_but_the_view_it_is_given() -> None:
    partie = partie_in_play(3, 2, 9)
    seat = partie.seats_to_act()[0]
    view = partie.view(seat)

    class Sealed(dict):
        """A view that refuses every key the engine would not send."""

        def __getitem__(self, key):  # type: ignore[no-untyped-def]
            if key not in view:
                raise AssertionError(f"the bot looked for {key!r}")
            return super().__getitem__(key)

    for name in ("pocetnik", "majstor"):
        word = make_bot(name, "lora", seed=1).choose(Sealed(copy.deepcopy(view)), partie.legal_actions(seat))
        assert word in partie.legal_actions(seat)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_same_seed_same_view_same_word(name: str) -> None:
    for seed in range(5):
        partie = partie_in_play(seed, seed * 5 % 28, seed * 4)
        if not partie.seats_to_act():
            continue
        a = ask(make_bot(name, "lora", seed="x"), partie)
        b = ask(make_bot(name, "lora", seed="x"), partie)
        assert a == b


# -- the open-cards solvers against brute force ---------------------------------------


def brute_tricks(deal: TrickDeal, me: int) -> int:
    if deal.ended:
        assert deal.points is not None
        return deal.points[me]
    seat = deal.turn
    values = []
    for c in range(32):
        if (deal.legal_mask(seat) >> c) & 1:
            d = copy.deepcopy(deal)
            d.play(seat, c)
            values.append(brute_tricks(d, me))
    return min(values) if seat == me else max(values)


def points_so_far(contract: Contract, deal: TrickDeal, me: int) -> int:
    taken = deal.taken[me]
    return {
        Contract.STO_VISE: -deal.trick_counts[me],
        Contract.STO_MANJE: deal.trick_counts[me],
        Contract.DAME: 2 * (taken & sum(1 << (8 * s + 5) for s in range(4))).bit_count(),
        Contract.HERC: 0,  # the solver gives Herc's final points
        Contract.ZANDAR_TREF: 8 * ((taken >> CARD_BY_NAME["JC"]) & 1),
        Contract.KING_AND_LAST: 4 * ((taken >> CARD_BY_NAME["KH"]) & 1),
    }[contract]


@pytest.mark.parametrize("contract", [c for c in Contract if c is not Contract.LORA])
def test_trick_solver_is_exact_on_small_endings(contract: Contract) -> None:
    rng = random.Random(int(contract))
    checked = 0
    while checked < 6:
        deck = list(range(32))
        rng.shuffle(deck)
        deal = TrickDeal(contract, [mask_of(deck[i * 8 : i * 8 + 8]) for i in range(4)], rng.randrange(4))
        cards_left = rng.choice([8, 9, 10, 11])
        while not deal.ended and sum(h.bit_count() for h in deal.hands) > cards_left:
            seat = deal.turn
            deal.play(seat, rng.choice([c for c in range(32) if (deal.legal_mask(seat) >> c) & 1]))
        if deal.ended:
            continue
        me = deal.turn
        values = TrickSolver(contract, me).move_values(list(deal.hands), list(deal.trick), herc_context(me, deal.taken))
        for c, v in values.items():
            d = copy.deepcopy(deal)
            d.play(me, c)
            assert v + points_so_far(contract, deal, me) == brute_tricks(d, me)
        checked += 1


def test_solver_takes_the_last_tricks_it_can_claim() -> None:
    """Što više, seat 0 to lead with A K of pik against small pik: both tricks are his."""
    hands = [mask_of([CARD_BY_NAME[w] for w in ws]) for ws in (["AS", "KS"], ["7S", "8S"], ["9S", "7D"], ["8D", "9D"])]
    values = TrickSolver(Contract.STO_VISE, 0).move_values(hands, [])
    assert values == {CARD_BY_NAME["KS"]: -2, CARD_BY_NAME["AS"]: -2}


def test_solver_leads_low_under_the_jack_of_tref() -> None:
    """Žandar tref, seat 0 to lead with JC 7C: the seven loses to 9C, then the jack is
    thrown on seat 1's ace of pik; leading the jack would win it."""
    hands = [mask_of([CARD_BY_NAME[w] for w in ws]) for ws in (["JC", "7C"], ["9C", "AS"], ["8C", "KS"], ["7S", "QS"])]
    values = TrickSolver(Contract.ZANDAR_TREF, 0).move_values(hands, [])
    assert values == {CARD_BY_NAME["7C"]: 0, CARD_BY_NAME["JC"]: 8}


def brute_layout(deal: LayoutDeal, me: int, sign: int = 1) -> tuple[int, ...]:
    """Every seat's cost (``sign`` * the engine's own points) under the solver's max-n play."""
    if deal.ended:
        assert deal.points is not None
        return tuple(sign * p for p in deal.points)
    seat = deal.turn
    mask = deal.legal_mask(seat)
    if not mask:
        d = copy.deepcopy(deal)
        d.pass_turn(seat)
        return brute_layout(d, me, sign)
    best: tuple[int, ...] | None = None
    for c in range(32):
        if (mask >> c) & 1:
            d = copy.deepcopy(deal)
            d.play(seat, c)
            v = brute_layout(d, me, sign)
            if best is None or v[seat] < best[seat] or (v[seat] == best[seat] and seat != me and v[me] > best[me]):
                best = v
    assert best is not None
    return best


def test_layout_solver_is_exact_on_small_endings() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 8:
        deck = list(range(32))
        rng.shuffle(deck)
        deal = LayoutDeal([mask_of(deck[i * 8 : i * 8 + 8]) for i in range(4)], rng.randrange(4))
        while not deal.ended and sum(h.bit_count() for h in deal.hands) > 14:
            seat = deal.turn
            mask = deal.legal_mask(seat)
            if mask:
                deal.play(seat, rng.choice([c for c in range(32) if (mask >> c) & 1]))
            else:
                deal.pass_turn(seat)
        if deal.ended or not deal.legal_mask(deal.turn):
            continue
        me = deal.turn
        values = LayoutSolver(me, deal.start_rank).move_values(list(deal.hands), deal.next_cards)
        for c, v in values.items():
            d = copy.deepcopy(deal)
            d.play(me, c)
            assert v == brute_layout(d, me)[me]
        checked += 1


@pytest.mark.parametrize("settings", [{"variant": "klub", "dalje_kazna": True}, {"variant": "hrvatska"}])
def test_layout_solver_is_exact_with_a_house_rules_layout_line(settings) -> None:
    """A dalje that costs (V6), the first out's +8 that forgives his dalje and -1 a card
    (V9): the solver's values are the engine's own points under the same play."""
    from app.games.lora.house import HouseTable
    from app.games.lora.house_deals import ScoredLayoutDeal

    rule = HouseTable(settings).rules["lora"]
    sign = -1 if settings["variant"] == "hrvatska" else 1
    rng = random.Random(11)
    checked = passed_before = 0
    while checked < 8:
        deck = list(range(32))
        rng.shuffle(deck)
        deal = ScoredLayoutDeal(rule, [mask_of(deck[i * 8 : i * 8 + 8]) for i in range(4)], rng.randrange(4))
        while not deal.ended and sum(h.bit_count() for h in deal.hands) > 13:
            seat = deal.turn
            mask = deal.legal_mask(seat)
            if mask:
                deal.play(seat, rng.choice([c for c in range(32) if (mask >> c) & 1]))
            else:
                deal.pass_turn(seat)
        if deal.ended or not deal.legal_mask(deal.turn):
            continue
        me = deal.turn
        passed_before += sum(deal.passes)
        solver = LayoutSolver(me, deal.start_rank, None, rule.layout, deal.passes, sign)
        for c, v in solver.move_values(list(deal.hands), deal.next_cards).items():
            d = copy.deepcopy(deal)
            d.play(me, c)
            assert v == brute_layout(d, me, sign)[me]
        checked += 1
    assert passed_before  # the dalje said before the search count too


# -- the sampler ------------------------------------------------------------------------


def test_sampler_respects_hand_sizes_played_cards_and_voids() -> None:
    for seed in range(20):
        partie = partie_in_play(seed, seed % 6, 6 + seed)
        if not partie.seats_to_act():
            continue
        seat = partie.seats_to_act()[0]
        know = read_view(partie.view(seat))
        rng = random.Random(seed)
        for _ in range(20):
            hands = sample_hands(know, rng)
            assert hands[seat] == partie.deal.hands[seat]
            assert sum(hands) == sum(partie.deal.hands)  # a partition of the same cards
            for s in range(4):
                assert hands[s].bit_count() == partie.deal.hands[s].bit_count()
                assert not hands[s] & know.played
                assert not hands[s] & know.forbidden[s]
        # voids: a seat that did not follow suit is void in it in every sample
        for trick in partie.deal.tricks:
            led = trick[1][0][1] >> 3
            for s, c in trick[1]:
                if c >> 3 != led:
                    assert know.forbidden[s] & SUIT_MASKS[led] == SUIT_MASKS[led]


def test_sampler_uses_dalje() -> None:
    """Contract 7: after dalje a seat holds none of the cards that were playable then."""
    for seed in range(30):
        partie = partie_in_play(seed, 6, 12)
        if not partie.seats_to_act():
            continue
        seat = partie.seats_to_act()[0]
        know = read_view(partie.view(seat))
        for s, w in partie.view(seat)["deal"]["actions"]:
            if w == "dalje":
                assert know.forbidden[s]
        rng = random.Random(seed)
        for _ in range(10):
            hands = sample_hands(know, rng)
            for s in range(4):
                assert not hands[s] & know.forbidden[s]


# -- house rules (rulings V2-V9): every level answers only legal words ------------------

HOUSE_SETTINGS = [
    {"variant": "hrvatska"},
    {"variant": "klub", "izbor": True, "dodatni": True, "kralj_sesti": True, "parovi": True, "dalje_kazna": True},
    {"variant": "klub", "izbor": True, "bez": ["vise", "manje", "herc", "lora"]},
]


def bots_play(partie: LoraPartie, bots: list, until_deal: int) -> None:
    while not partie.finished and partie.deal_index < until_deal:
        seat = partie.seats_to_act()[0]
        legal = partie.legal_actions(seat)
        word = bots[seat].choose(partie.view(seat), legal)
        assert word in legal
        partie.apply(seat, word)


@pytest.mark.parametrize("level", ["pocetnik", "iskusan"])
@pytest.mark.parametrize("settings", HOUSE_SETTINGS, ids=["hrvatska", "klub-all", "mala-izbor"])
def test_bots_finish_a_house_rules_partie(level: str, settings: dict) -> None:
    partie = LoraPartie.new(settings, seed=len(level))
    bots_play(partie, [make_bot(level, "lora", seed=s) for s in range(4)], 10**6)
    assert partie.finished and len(partie.result()["deals"]) == partie.n_deals


def test_majstor_plays_every_croatian_contract_and_chooses_contracts() -> None:
    partie = LoraPartie.new({"variant": "hrvatska"}, seed=4)
    bots_play(partie, [make_bot("majstor", "lora", seed=s) for s in range(4)], 8)
    assert [d["contract"] for d in partie.result()["deals"]][:8] == [
        "vise", "manje", "kralj_zadnji", "babe", "herc", "lora", "prognoza", "slepi"]
    partie = LoraPartie.new(HOUSE_SETTINGS[2], seed=4)
    bots_play(partie, [make_bot("majstor", "lora", seed=s) for s in range(4)], 10**6)
    assert partie.finished


def test_random_settings_bot_words_are_legal() -> None:
    rng = random.Random(5)
    for i in range(6):
        settings = rng.choice(HOUSE_SETTINGS)
        partie = LoraPartie.new(settings, seed=i)
        for _ in range(rng.randrange(0, 60)):
            seat = partie.seats_to_act()[0]
            partie.apply(seat, rng.choice(partie.legal_actions(seat)))
        seat = partie.seats_to_act()[0]
        for name in BOT_NAMES:
            assert make_bot(name, "lora", seed=i).choose(partie.view(seat), partie.legal_actions(seat)) \
                in partie.legal_actions(seat)


def _brute_rule_cost(deal, me: int, sign: int) -> int:
    """My final cost (``sign`` * the engine's points) with me minimizing it and the three
    others maximizing it: the solver's paranoid reading, searched over every card."""
    if deal.ended:
        return sign * deal.points[me]
    seat = deal.turn
    mask = deal.legal_mask(seat)
    values = []
    for c in range(32):
        if (mask >> c) & 1:
            d = copy.deepcopy(deal)
            d.play(seat, c)
            values.append(_brute_rule_cost(d, me, sign))
    return min(values) if seat == me else max(values)


@pytest.mark.parametrize("settings, code", [
    ({"variant": "hrvatska"}, "kralj_zadnji"), ({"variant": "hrvatska"}, "babe"), ({"variant": "hrvatska"}, "herc"),
    ({"variant": "hrvatska"}, "prognoza"), ({"variant": "hrvatska"}, "vise"),
    ({"variant": "klub", "parovi": True}, "zandar"),
])
def test_rule_solver_is_exact_on_small_endings(settings, code) -> None:
    """The house contracts' search gives each card the value a brute-force search of the
    engine's own deal gives (the last two tricks, several random deals)."""
    from app.ai.tricks.rule_solver import RuleSolver

    sign = -1 if settings["variant"] == "hrvatska" else 1
    checked = 0
    for seed in range(200):
        if checked == 4:
            break
        partie = LoraPartie(settings, seed)
        rng = random.Random(seed)
        while not partie.finished and not (
            partie.deal.code == code and isinstance(partie.deal, TrickDeal) and partie.deal.legal_mask(partie.deal.turn)
            and sum(h.bit_count() for h in partie.deal.hands) <= 8
        ):
            seat = partie.seats_to_act()[0]
            partie.apply(seat, rng.choice(partie.legal_actions(seat)))
        if partie.finished:
            continue
        deal = partie.deal
        me = deal.turn
        know = read_view(partie.view(me))
        values = RuleSolver(know).move_values(list(deal.hands), know.trick)
        assert values
        for c, v in values.items():
            d = copy.deepcopy(deal)
            d.play(me, c)
            assert v == _brute_rule_cost(d, me, sign), (seed, names_of(1 << c))
        checked += 1
    assert checked == 4
