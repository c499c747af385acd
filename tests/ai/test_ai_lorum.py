"""The Lórum computer players: legal words from the seat's view only, whole parties; the
search levels' knowledge, sampling and open-cards searches against brute force; the oracle."""

import ast
import copy
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.ai import make_bot
from app.ai.common.search import maxn_prefers
from app.ai.lorum.bots import LorumSearchBot, turn_game
from app.ai.lorum.knowledge import TRICK_CONTRACT_RULES, read_lorum
from app.ai.lorum.oracle import LorumOracle
from app.ai.lorum.rules import kvart_start, run_length, train_start
from app.ai.lorum.sampler import sample_lorum_world
from app.ai.lorum.tricks import LorumTrickSolver
from app.ai.lorum.turns import MaxnSearch
from app.games.cards import (
    CARD_BY_NAME,
    CARD_NAMES,
    FULL_MASK,
    SUIT_MASKS,
    cards_of,
    mask_of,
    parse_cards,
)
from app.games.lorum import LorumPartie
from app.games.lorum.contracts import LorumContract, order_of
from app.games.lorum.deals import StoJedanDeal
from tests.support.lora import partie_at
from tests.support.paths import ROOT

BOTH = {"sto_jedan": True, "makk": True}
SEARCH_LEVELS = ("iskusan", "majstor")


def hand(text):
    return mask_of(parse_cards(text.split()))


def test_kvart_opens_the_chain_it_can_carry_itself():
    h = hand("9S TS JS 7D AD 8H JC QC")
    assert run_length(parse_cards(["9S"])[0], h) == 3
    assert kvart_start(h) == parse_cards(["9S"])[0]


def test_fast_train_opens_with_its_commonest_rank():
    assert train_start(hand("8S 8D 8H 9C TS JD QH KC")) == parse_cards(["8S"])[0]


def test_four_bots_play_a_whole_partie_with_legal_words_only():
    partie = LorumPartie.new({}, seed=21)
    bots = [make_bot("pocetnik", "lorum", seed=s) for s in range(4)]
    steps = 0
    while not partie.finished:
        (seat,) = partie.seats_to_act()
        legal = partie.legal_actions(seat)
        word = bots[seat].choose(partie.view(seat), legal)
        assert word in legal
        partie.apply(seat, word)
        steps += 1
    assert len(partie.result()["deals"]) == 28 and steps > 28 * 8


def test_the_rule_bot_beats_random_play_in_trick_contracts():
    """Over a few partie seeds the rule player pays less than random play at the same seat."""
    def seat0_total(seed, level):
        partie = LorumPartie.new({}, seed=seed)
        players = [make_bot(level, "lorum", seed)] + [make_bot("random", "lorum", seed + s) for s in (1, 2, 3)]
        while not partie.finished:
            (seat,) = partie.seats_to_act()
            partie.apply(seat, players[seat].choose(partie.view(seat), partie.legal_actions(seat)))
        deals = partie.result()["deals"]
        return sum(d["transfers"][0] for d in deals if d["contract"] in (1, 2, 3, 6))

    seeds = range(6)
    assert sum(seat0_total(s, "pocetnik") for s in seeds) > sum(seat0_total(s, "random") for s in seeds)


def test_same_view_same_word():
    partie = LorumPartie.new({}, seed=5)
    rng = random.Random(1)
    for _ in range(40):
        (seat,) = partie.seats_to_act()
        partie.apply(seat, rng.choice(partie.legal_actions(seat)))
    (seat,) = partie.seats_to_act()
    view, legal = partie.view(seat), partie.legal_actions(seat)
    assert make_bot("pocetnik", "lorum", 1).choose(view, legal) == make_bot("pocetnik", "lorum", 2).choose(view, legal)


# -- the search levels (iskusan, majstor) and the oracle --------------------------------------



def lorum_in_play(seed: int, slot: int, moves: int, settings_: dict | None = None) -> LorumPartie:
    """A partie of ``seed`` at deal ``slot`` (the earlier deals by their first legal word)
    after ``moves`` random words of that deal."""
    partie = LorumPartie.new(BOTH if settings_ is None else settings_, seed=seed)
    while partie.deal_index < slot:
        (seat,) = partie.seats_to_act()
        partie.apply(seat, partie.legal_actions(seat)[0])
    rng = random.Random(seed)
    for _ in range(moves):
        if partie.deal.ended:
            break
        (seat,) = partie.seats_to_act()
        partie.apply(seat, rng.choice(partie.legal_actions(seat)))
    return partie


def ask(bot, partie: LorumPartie) -> tuple[int, str]:
    (seat,) = partie.seats_to_act()
    return seat, bot.choose(partie.view(seat), partie.legal_actions(seat))


@pytest.mark.parametrize("name", SEARCH_LEVELS)
def test_the_search_levels_play_every_contract_legally_and_deterministically(name):
    """One dealer's nine contracts (with 101 and makk): the search player in seat 0 and 2,
    pocetnik in 1 and 3; every word is legal and a fresh bot with the same seed says it again."""
    partie = LorumPartie.new(BOTH, seed=8)
    contracts = order_of(BOTH)
    assert len(contracts) == 9
    bots = [make_bot(name if s % 2 == 0 else "pocetnik", "lorum", seed=s) for s in range(4)]
    seen = set()
    while partie.deal_index < len(contracts):
        (seat,) = partie.seats_to_act()
        view, legal = partie.view(seat), partie.legal_actions(seat)
        word = bots[seat].choose(copy.deepcopy(view), legal)
        assert word in legal
        if seat % 2 == 0 and len(legal) > 1:
            seen.add(partie.deal.contract)
            assert make_bot(name, "lorum", seed=seat).choose(view, legal) == word
        partie.apply(seat, word)
    assert seen == set(contracts)
    assert isinstance(bots[0], LorumSearchBot) and not isinstance(bots[0], LorumOracle)


@pytest.mark.parametrize("name", ("pocetnik", *SEARCH_LEVELS))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), slot=st.integers(0, 8), moves=st.integers(0, 40))
def test_every_level_says_a_legal_word_in_every_contract(name, seed, slot, moves):
    partie = lorum_in_play(seed, slot, moves)
    assume(not partie.deal.ended)
    seat, word = ask(make_bot(name, "lorum", seed=seed), partie)
    assert word in partie.legal_actions(seat)
    assert ask(make_bot(name, "lorum", seed=seed), partie)[1] == word


def test_the_choice_depends_on_the_view_only():
    """Whatever else the partie object holds, the bot is given the view: a deep copy, or
    a view whose missing keys fail loudly, give the same word."""
    for slot, moves in ((1, 9), (3, 6), (6, 10), (8, 7)):
        partie = lorum_in_play(4, slot, moves)
        (seat,) = partie.seats_to_act()
        view, legal = partie.view(seat), partie.legal_actions(seat)

        class Sealed(dict):
            def __getitem__(self, key):  # type: ignore[no-untyped-def]
                if key not in view:
                    raise AssertionError(f"the bot looked for {key!r}")
                return super().__getitem__(key)

        bot = make_bot("majstor", "lorum", seed=3)
        assert bot.choose(Sealed(copy.deepcopy(view)), legal) == bot.choose(view, legal)


def test_make_bot_never_builds_the_oracle():
    for level in ("pocetnik", "iskusan", "majstor", "unknown"):
        assert not isinstance(make_bot(level, "lorum", seed=1), LorumOracle)
    package = ROOT / "app" / "ai" / "lorum"
    for path in package.glob("*.py"):
        if path.name in ("oracle.py", "analysis.py"):  # the replay's analysis sees every hand too
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "app.ai.lorum.oracle", path.name


# -- what the seat knows, and the worlds it samples ---------------------------------------------

def true_hands(partie: LorumPartie) -> list[int]:
    return list(partie.deal.hands)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), slot=st.integers(0, 8), moves=st.integers(0, 40))
def test_sampled_worlds_respect_what_the_view_shows(seed, slot, moves):
    partie = lorum_in_play(seed, slot, moves)
    assume(not partie.deal.ended)
    (seat,) = partie.seats_to_act()
    know = read_lorum(partie.view(seat))
    truth = true_hands(partie)
    # what the seat inferred holds for the true deal
    for s in range(4):
        assert not know.forbidden[s] & truth[s], (s, know.forbidden[s], truth[s])
    rng = random.Random(seed)
    for _ in range(5):
        hands, stock = sample_lorum_world(know, rng)
        assert hands[seat] == know.hand
        assert [h.bit_count() for h in hands] == know.hand_sizes
        assert len(stock) == know.stock_size
        held = 0
        for s in range(4):
            assert not hands[s] & held and not hands[s] & know.played
            assert not hands[s] & know.forbidden[s]
            held |= hands[s]
        stock_mask = sum(1 << c for c in stock)
        assert held | stock_mask | know.played == FULL_MASK and not held & stock_mask


def test_a_seat_that_showed_a_void_never_gets_that_suit():
    # Hearts (slot 0): seat 1 leads a spade, seat 2 discards a heart: seat 2 has no spade.
    hands = [
        "7D 8D 9D TD JD QD KD AD", "7S 8S 9S TS JS 7C 8C 9C",
        "7H 8H 9H TH JH QH KH AH", "QS KS AS TC JC QC KC AC",
    ]
    partie = partie_at(0, [h.split() for h in hands], cls=LorumPartie)
    for word in ("7S", "7H", "QS"):
        (seat,) = partie.seats_to_act()
        partie.apply(seat, word)
    know = read_lorum(partie.view(0))
    assert know.forbidden[2] & SUIT_MASKS[0] == SUIT_MASKS[0]
    rng = random.Random(0)
    for _ in range(50):
        hands_, _ = sample_lorum_world(know, rng)
        assert not hands_[2] & SUIT_MASKS[0]


def test_dalje_in_fast_train_and_domino_is_read_as_holding_no_such_card():
    for slot in (4, 8):  # Fast train, Domino (with both options)
        partie = lorum_in_play(11, slot, 0)
        rng = random.Random(2)
        checked = 0
        while not partie.deal.ended and checked < 3:
            (seat,) = partie.seats_to_act()
            legal = partie.legal_actions(seat)
            if legal == ["dalje"]:
                partie.apply(seat, "dalje")
                (viewer,) = partie.seats_to_act()
                know = read_lorum(partie.view(viewer))
                assert not know.forbidden[seat] & true_hands(partie)[seat]
                assert know.forbidden[seat]
                checked += 1
                continue
            partie.apply(seat, rng.choice(legal))
        assert checked, slot


# -- the open-cards searches against brute force on the engine ----------------------------------

def brute_force(deal, me: int, prefers) -> tuple[int, ...]:
    """Every seat's cost to the end of the deal by the engine itself (deep copies of the
    deal), each seat choosing by ``prefers(costs, best so far, seat, me)``: small endgames only."""
    if deal.ended:
        return tuple(-t for t in deal.transfers)
    seat = deal.turn
    legal = deal.legal_mask(seat)
    if not legal:
        twin = copy.deepcopy(deal)
        twin.pass_turn(seat)
        return brute_force(twin, me, prefers)
    best = None
    for c in cards_of(legal):
        twin = copy.deepcopy(deal)
        twin.play(seat, c)
        v = brute_force(twin, me, prefers)
        if prefers(v, best, seat, me):
            best = v
    return best


def paranoid(v, best, seat, me) -> bool:
    """Me against the rest: I lower my cost, the others raise it."""
    return best is None or (v[me] < best[me] if seat == me else v[me] > best[me])


def assert_exact(values: dict[int, int], deal, me: int, prefers) -> None:
    """Each legal card's value is my cost by brute force after it."""
    assert set(values) == set(cards_of(deal.legal_mask(me)))
    for c, v in values.items():
        twin = copy.deepcopy(deal)
        twin.play(me, c)
        assert v == brute_force(twin, me, prefers)[me], (CARD_NAMES[c], deal.contract)


def play_randomly_while(partie: LorumPartie, rng: random.Random, going) -> int | None:
    """Random legal words while ``going()`` and the current deal lasts; the seat to act
    then (None: the deal ended, and the partie may have dealt the next)."""
    deal = partie.deal
    while not deal.ended and going():
        (seat,) = partie.seats_to_act()
        partie.apply(seat, rng.choice(partie.legal_actions(seat)))
    return None if deal.ended else partie.seats_to_act()[0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), contract=st.sampled_from(sorted(TRICK_CONTRACT_RULES)),
       tricks=st.integers(5, 6))
def test_the_trick_search_gives_the_exact_value_of_small_endgames(seed, contract, tricks):
    slot = order_of(BOTH).index(contract)
    partie = lorum_in_play(seed, slot, 0)
    rng = random.Random(seed)
    deal = partie.deal
    stop = rng.randrange(4)  # cards already on the last trick
    me = play_randomly_while(partie, rng, lambda: len(deal.tricks) < tricks or len(deal.trick) < stop)
    assume(me is not None)
    know = read_lorum(partie.view(me))
    assert_exact(LorumTrickSolver(know).move_values(true_hands(partie), know.trick), deal, me, paranoid)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), contract=st.sampled_from(
    [LorumContract.KVART, LorumContract.FAST_TRAIN, LorumContract.DOMINO, LorumContract.STO_JEDAN]))
def test_the_turn_search_gives_the_exact_max_n_value_of_small_endgames(seed, contract):
    slot = order_of(BOTH).index(contract)
    partie = lorum_in_play(seed, slot, 0)
    rng = random.Random(seed)
    deal = partie.deal
    left = 13 if contract is not LorumContract.STO_JEDAN else 9

    def in_play():
        return sum(h.bit_count() for h in deal.hands) + len(getattr(deal, "stock", ())) - getattr(deal, "drawn", 0)

    me = play_randomly_while(partie, rng, lambda: in_play() > left or len(partie.legal_actions(partie.seats_to_act()[0])) < 2)
    assume(me is not None)
    know = read_lorum(partie.view(me))
    stock = tuple(deal.stock[deal.drawn:]) if isinstance(deal, StoJedanDeal) else ()
    game, state = turn_game(know, (true_hands(partie), stock))
    assert_exact(MaxnSearch(game, me).move_values(state), deal, me, maxn_prefers)


def test_the_search_levels_see_the_kvart_chain_that_empties_their_hand():
    """Kvart, seat 3 to open a chain with 9S AS left; 7S and 8S are still out. AS takes
    the chain AS 7S 8S 9S round to me again and empties my hand (+7 chips, whoever holds
    7S and 8S); the rule bot's 9S (its longest own run) lets seat 0 go out instead."""
    hands = [
        "TS QS 7D TD QH 7C 9C TC", "KS QD AD 8H JH KH JC AC",
        "7S 8S JS KD TH AH QC KC", "9S AS 8D 9D JD 7H 9H 8C",
    ]
    partie = partie_at(3, [h.split() for h in hands], cls=LorumPartie)
    assert partie.deal.contract is LorumContract.KVART
    for word in "8H 9H TH JH JC QC KC AC QD KD AD 7D 9C TC 7C 8C 8D 9D TD JD 7H".split():
        (seat,) = partie.seats_to_act()
        partie.apply(seat, word)
    (seat,) = partie.seats_to_act()
    view, legal = partie.view(seat), partie.legal_actions(seat)
    assert seat == 3 and legal == ["9S", "AS"]
    assert make_bot("pocetnik", "lorum", seed=0).choose(view, legal) == "9S"
    for name in SEARCH_LEVELS:
        assert make_bot(name, "lorum", seed=0).choose(view, legal) == "AS"
    know = read_lorum(view)
    game, state = turn_game(know, (true_hands(partie), ()))
    values = MaxnSearch(game, seat).move_values(state)
    assert values[CARD_BY_NAME["AS"]] == -7  # 3 + 2 + 2 cards left in the others' hands
    assert values[CARD_BY_NAME["9S"]] > 0


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), slot=st.integers(0, 8), moves=st.integers(0, 30))
def test_the_playouts_are_the_rule_bots_playing_on(seed, slot, moves):
    """On the true deal, a playout's cost is what the engine makes of the card played and
    four pocetnik after it."""
    from app.ai.lorum.tricks import trick_playout_cost
    from app.ai.lorum.turns import playout

    partie = lorum_in_play(seed, slot, moves)
    assume(not partie.deal.ended)
    (me,) = partie.seats_to_act()
    legal = partie.legal_actions(me)
    assume(legal != ["dalje"])
    know = read_lorum(partie.view(me))
    deal = partie.deal
    stock = tuple(deal.stock[deal.drawn:]) if isinstance(deal, StoJedanDeal) else ()
    rule = make_bot("pocetnik", "lorum", seed=0)
    for word in legal:
        c = CARD_BY_NAME[word]
        if know.rule is not None:
            cost = trick_playout_cost(know, true_hands(partie), c)
        else:
            game, state = turn_game(know, (true_hands(partie), stock))
            cost = playout(game, state, c)[me]
        twin = copy.deepcopy(partie)
        twin.apply(me, word)
        while twin.deal_index == partie.deal_index and not twin.deal.ended:
            (seat,) = twin.seats_to_act()
            twin.apply(seat, rule.choose(twin.view(seat), twin.legal_actions(seat)))
        assert cost == -twin.deals[partie.deal_index].transfers[me], word


def test_the_oracle_plays_every_contract_legally_on_the_true_deal():
    partie = LorumPartie.new(BOTH, seed=12)
    oracle = LorumOracle(partie, "o")
    rule = make_bot("pocetnik", "lorum", seed=0)
    while partie.deal_index < len(order_of(BOTH)):
        (seat,) = partie.seats_to_act()
        legal = partie.legal_actions(seat)
        word = (oracle if seat == 1 else rule).choose(partie.view(seat), legal)
        assert word in legal
        partie.apply(seat, word)
