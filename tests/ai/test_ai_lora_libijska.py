"""The Lora computer players on Libyan Lora (rulings V10-V12, V15, V17): whole parties with
three and four seats, with and without bets, legal words only, decisions from the view
alone, the searches against brute force, sensible bets and the kitty's card."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, assume, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from app.ai import BOT_NAMES, make_bot
from app.ai.lora.betting import bet_under_answer
from app.ai.lora.bots import padded
from app.ai.lora.knowledge import LoraKnowledge, read_view
from app.ai.lora.layout_solver import LayoutSolver
from app.ai.lora.libyan import LibyanPlayout, void_cost
from app.ai.lora.libyan_solver import LibyanSolver
from app.ai.tricks.sampler import sample_world
from app.games.cards import CARD_BY_NAME, CARD_NAMES, FULL_MASK, mask_of, names_of
from app.games.lora import LoraPartie
from app.games.lora.bets import Bet
from app.games.tricks.contracts import Contract
from app.games.tricks.deal import TrickDeal
from app.games.lora.libijska import LibyanLayoutDeal, libijska_rules

LIBYAN = [
    {"variant": "libijska"},
    {"variant": "libijska", "opklade": True},
    {"variant": "libijska", "igraca": 3},
    {"variant": "libijska", "igraca": 3, "opklade": True},
]
IDS = ["4", "4-opklade", "3", "3-opklade"]
THREE_BETS = LIBYAN[3]
FOUR_BETS = LIBYAN[1]


def masks(text: str) -> int:
    return mask_of(CARD_BY_NAME[w] for w in text.split())


def bots_play(partie: LoraPartie, bots: list, until_deal: int = 10**6) -> None:
    """Every seat says its bot's word (which must be legal) until the deal index is reached."""
    while not partie.finished and partie.deal_index < until_deal:
        seat = partie.seats_to_act()[0]
        legal = partie.legal_actions(seat)
        word = bots[seat].choose(partie.view(seat), legal)
        assert word in legal, (word, legal)
        partie.apply(seat, word)


def random_words(partie: LoraPartie, rng: random.Random, count: int) -> None:
    for _ in range(count):
        if not partie.seats_to_act():  # finished, or a deal voided at once waits for the next
            return
        seat = partie.seats_to_act()[0]
        partie.apply(seat, rng.choice(partie.legal_actions(seat)))


def libyan_at(settings: dict, code: str, hands: list[str], kitty: str | None = None, seed: int = 0) -> LoraPartie:
    """A Libyan partie (dealt by hand) whose earlier deals were played randomly, at the
    first deal of contract ``code``, dealt with these hands (and kitty)."""
    partie = LoraPartie.new(settings)
    rng = random.Random(seed)
    n = partie.n_seats
    per_hand = 32 // n
    while partie.house.schedule.fixed_contract(partie.next_slot) != code:
        deck = list(CARD_NAMES)
        rng.shuffle(deck)
        partie.start_deal([sorted(deck[i * per_hand:(i + 1) * per_hand]) for i in range(n)],
                          sorted(deck[n * per_hand:]) if n == 3 else None)
        k = partie.deal_index
        while partie.deal_index == k and partie.seats_to_act():
            random_words(partie, rng, 1)
    partie.start_deal([h.split() for h in hands], kitty.split() if kitty else None)
    return partie


# -- whole parties --------------------------------------------------------------------------


@pytest.mark.parametrize("settings", LIBYAN, ids=IDS)
def test_every_level_at_one_table_finishes_a_libyan_partie(settings: dict) -> None:
    partie = LoraPartie.new(settings, seed=21)
    levels = ["majstor", "iskusan", "pocetnik", "majstor"][: partie.n_seats]
    bots_play(partie, [make_bot(level, "lora", seed=s) for s, level in enumerate(levels)])
    result = partie.result()
    assert partie.finished and len(result["deals"]) >= partie.n_deals
    assert len(result["totals"]) == partie.n_seats
    codes = [d["contract"] for d in result["deals"] if not d.get("void")]
    assert set(codes) == set(libijska_rules(partie.n_seats))


# iskusan's whole tables cost 5-15 s each and add nothing to the table of every level above
@pytest.mark.parametrize("level", ["pocetnik"])
@pytest.mark.parametrize("settings", LIBYAN, ids=IDS)
def test_a_table_of_one_level_finishes_a_libyan_partie(level: str, settings: dict) -> None:
    partie = LoraPartie.new(settings, seed=len(level))
    bots_play(partie, [make_bot(level, "lora", seed=s) for s in range(partie.n_seats)])
    assert partie.finished


@pytest.mark.parametrize("name", BOT_NAMES)
@hypothesis_settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), which=st.integers(0, 3), moves=st.integers(0, 400))
def test_every_bot_says_a_legal_word_in_libyan_lora(name: str, seed: int, which: int, moves: int) -> None:
    """Random positions: bets, their answers, tricks, the layout and the kitty's place."""
    partie = LoraPartie.new(LIBYAN[which], seed=seed)
    random_words(partie, random.Random(seed), moves)
    assume(partie.seats_to_act())
    seat = partie.seats_to_act()[0]
    word = make_bot(name, "lora", seed=seed).choose(partie.view(seat), partie.legal_actions(seat))
    assert word in partie.legal_actions(seat)


# -- only the view --------------------------------------------------------------------------


def twin_of(partie: LoraPartie, seat: int, rng: random.Random) -> LoraPartie:
    """The same partie with the current deal's cards that ``seat`` has not seen (the other
    hands, a face-down kitty) dealt otherwise, consistently with what it has seen."""
    view = partie.view(seat)
    hands, kitty = sample_world(read_view(view), rng)
    dealt = list(hands)
    for s, w in view["deal"]["actions"]:  # the cards played go back where they came from
        if w.startswith("kitty "):
            if w != "kitty dalje":
                kitty |= 1 << CARD_BY_NAME[w.split()[1]]
        elif w in CARD_BY_NAME:
            dealt[s] |= 1 << CARD_BY_NAME[w]
    twin = LoraPartie.new(partie.settings)
    for deal, actions in zip(partie.deals[:-1], partie.actions[:-1]):
        twin.start_deal(deal.record_hands(), deal.record_pile().get("kitty"))
        for s, w in actions:
            twin.apply(s, w)
    twin.start_deal([names_of(h) for h in dealt], names_of(kitty) if partie.n_seats == 3 else None)
    for s, w in partie.actions[-1]:
        twin.apply(s, w)
    return twin


def dealt_partie(settings: dict, seed: int) -> LoraPartie:
    """A partie dealt by hand (``start_deal``) from random decks, so that a twin can be built."""
    partie = LoraPartie.new(settings)
    rng = random.Random(seed)
    n = partie.n_seats
    per_hand = 32 // n
    target = rng.randrange(8 * n)
    while len(partie.deals) <= target:
        deck = list(CARD_NAMES)
        rng.shuffle(deck)
        partie.start_deal([sorted(deck[i * per_hand:(i + 1) * per_hand]) for i in range(n)],
                          sorted(deck[n * per_hand:]) if n == 3 else None)
        if len(partie.deals) <= target:
            k = partie.deal_index
            while partie.deal_index == k and partie.seats_to_act():
                random_words(partie, rng, 1)
    random_words(partie, rng, rng.randrange(0, 30))
    return partie


@pytest.mark.parametrize("name", ["pocetnik", "iskusan", "majstor"])
@pytest.mark.parametrize("settings", [FOUR_BETS, THREE_BETS], ids=["4-opklade", "3-opklade"])
def test_the_choice_depends_on_the_view_only(name: str, settings: dict) -> None:
    """Another deal of the cards the seat has not seen, with the same view: the same word."""
    for seed in range(8):
        partie = dealt_partie(settings, seed)
        if partie.finished or not partie.seats_to_act() or partie.deal.ended:
            continue
        seat = partie.seats_to_act()[0]
        view = partie.view(seat)
        twin = twin_of(partie, seat, random.Random(seed + 50))
        assert twin.view(seat) == view
        bot = make_bot(name, "lora", seed=3)
        assert bot.choose(copy.deepcopy(view), partie.legal_actions(seat)) == bot.choose(
            twin.view(seat), twin.legal_actions(seat))


def test_a_bot_reads_nothing_but_the_view_it_is_given() -> None:
    for settings, moves in ((THREE_BETS, 3), (THREE_BETS, 20), (FOUR_BETS, 2), (THREE_BETS, 200)):
        partie = LoraPartie.new(settings, seed=4)
        random_words(partie, random.Random(4), moves)
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


def test_the_sampler_deals_two_or_three_hands_and_the_face_down_kitty() -> None:
    for seed in range(30):
        settings = LIBYAN[seed % 4]
        partie = LoraPartie.new(settings, seed=seed)
        random_words(partie, random.Random(seed), seed * 7)
        if partie.finished:
            continue
        seat = partie.seats_to_act()[0]
        know = read_view(partie.view(seat))
        deal = partie.deal
        rng = random.Random(seed)
        for _ in range(10):
            hands, kitty = sample_world(know, rng)
            assert len(hands) == partie.n_seats and hands[seat] == deal.hands[seat]
            assert [h.bit_count() for h in hands] == [h.bit_count() for h in deal.hands]
            for s in range(partie.n_seats):
                assert not hands[s] & know.forbidden[s] and not hands[s] & know.played
            if partie.n_seats == 4:
                assert kitty == 0 and sum(hands) == sum(deal.hands)
                continue
            true_kitty = deal.kitty if isinstance(deal, LibyanLayoutDeal) else deal.pile_mask
            assert kitty.bit_count() == true_kitty.bit_count()
            assert sum(hands) + kitty == sum(deal.hands) + true_kitty  # a partition of the same cards
            if isinstance(deal, LibyanLayoutDeal) and deal.kitty_shown:
                assert kitty == true_kitty  # face up: known
            assert not kitty & deal.rule.kitty_voids


def test_the_kitty_never_holds_the_card_that_would_have_voided_the_deal() -> None:
    """Three seats, kralj_herc: K herc in the kitty voids the deal at once (V15), so a deal
    in play has it in a hand, and the sampler never puts it in the kitty."""
    partie = libyan_at(LIBYAN[2], "kralj_herc", [
        "7S 8S 9S TS JS QS KS AS 7D 8D", "9D TD JD QD KD AD 7C 8C 9C TC", "JC QC KC AC 7H 8H 9H TH JH QH"], "KH AH")
    assert partie.deal.void  # the kitty held K herc: void before any word
    partie = libyan_at(LIBYAN[2], "kralj_herc", [
        "7S 8S 9S TS JS QS KS AS 7D 8D", "9D TD JD QD KD AD 7C 8C 9C TC", "JC QC KC AC 7H 8H 9H TH JH KH"], "QH AH")
    know = read_view(partie.view(0))
    rng = random.Random(1)
    assert all(not (sample_world(know, rng)[1] >> CARD_BY_NAME["KH"]) & 1 for _ in range(50))


# -- the searches against brute force ---------------------------------------------------------


def _brute_trick_cost(deal, me: int, know: LoraKnowledge) -> int:
    """My final cost (the engine's points, bets included; a void deal's expected cost) with
    me minimizing it and the others maximizing it, over every card."""
    if deal.ended:
        return void_cost(know) if deal.void else deal.points[me]
    seat = deal.turn
    mask = deal.legal_mask(seat)
    values = []
    for c in range(32):
        if (mask >> c) & 1:
            d = copy.deepcopy(deal)
            d.play(seat, c)
            values.append(_brute_trick_cost(d, me, know))
    return min(values) if seat == me else max(values)


def reach_trick_ending(settings: dict, code: str, seed: int, cards_left: int) -> LoraPartie | None:
    """A partie of random words at contract ``code`` with at most ``cards_left`` cards in hands."""
    partie = LoraPartie(settings, seed)
    rng = random.Random(seed)
    while not partie.finished:
        deal = partie.deal
        if (deal.code == code and isinstance(deal, TrickDeal) and not deal.ended and deal.legal_mask(deal.turn)
                and sum(h.bit_count() for h in deal.hands) <= cards_left):
            return partie
        random_words(partie, rng, 1)
    return None


@pytest.mark.parametrize("settings", [FOUR_BETS, THREE_BETS], ids=["4-opklade", "3-opklade"])
@pytest.mark.parametrize("code", ["herc", "kralj_herc", "dame", "zandar", "sesti", "stihovi", "dvojica"])
def test_libyan_trick_search_is_exact_on_small_endings(settings: dict, code: str) -> None:
    """Each card's value is what a brute-force search of the engine's own deal (its kitty,
    its end, its points and the bets said at random) gives."""
    checked = 0
    for seed in range(300):
        if checked == 3:
            break
        partie = reach_trick_ending(settings, code, seed, 9)
        if partie is None:
            continue
        deal = partie.deal
        me = deal.turn
        know = read_view(partie.view(me))
        values = LibyanSolver(know, deal.pile_mask).move_values(padded(deal.hands), know.trick)
        assert values
        for c, v in values.items():
            d = copy.deepcopy(deal)
            d.play(me, c)
            assert v == _brute_trick_cost(d, me, know), (seed, names_of(1 << c))
        checked += 1
    assert checked == 3


def _brute_layout(deal: LibyanLayoutDeal, me: int) -> tuple[int, ...]:
    """Every seat's points under max-n play; the dealer picks the kitty's card for himself."""
    if deal.ended:
        return tuple(deal.points)
    seat = deal.turn
    if deal.kitty_turn:
        words, chooser = deal.kitty_words(), deal.dealer
    else:
        mask = deal.legal_mask(seat)
        words, chooser = [CARD_NAMES[c] for c in range(32) if (mask >> c) & 1] or ["dalje"], seat
    best: tuple[int, ...] | None = None
    for word in words:
        d = copy.deepcopy(deal)
        if word in CARD_BY_NAME:
            d.play(seat, CARD_BY_NAME[word])
        else:
            d.say(seat, word)
        v = _brute_layout(d, me)
        if best is None or v[chooser] < best[chooser] or (
            v[chooser] == best[chooser] and chooser != me and v[me] > best[me]
        ):
            best = v
    assert best is not None
    return best


@pytest.mark.parametrize("settings", [FOUR_BETS, THREE_BETS], ids=["4-opklade", "3-opklade"])
def test_libyan_layout_search_is_exact_on_small_endings(settings: dict) -> None:
    """The +2 dalje, the doubling on the first card's rank, the bets on dalje counts and the
    kitty's place before the dealer: the search's values are the engine's own points."""
    checked = kitty_turns = 0
    for seed in range(400):
        if checked == 24:
            break
        partie = LoraPartie(settings, seed)
        rng = random.Random(seed)
        while not partie.finished:
            deal = partie.deal
            if (isinstance(deal, LibyanLayoutDeal) and not deal.ended and not deal.betting
                    and sum(h.bit_count() for h in deal.hands) <= 13
                    and (deal.kitty_turn or deal.legal_mask(deal.turn))):
                break
            random_words(partie, rng, 1)
        if partie.finished:
            continue
        deal = partie.deal
        me = deal.turn
        know = read_view(partie.view(me))
        solver = LayoutSolver(me, know.start_rank, None, know.rule.layout, know.passes, 1, know.n,
                              deal.dealer if know.kitty_place else None, True, know.bets)
        if deal.kitty_turn:
            kitty_turns += 1
            for c, v in solver.kitty_values(list(deal.hands), know.next_cards, deal.kitty).items():
                d = copy.deepcopy(deal)
                d.say(me, f"kitty {CARD_NAMES[c]}")
                assert v == _brute_layout(d, me)[me]
        else:
            for c, v in solver.move_values(list(deal.hands), know.next_cards, know.kitty).items():
                d = copy.deepcopy(deal)
                d.play(me, c)
                assert v == _brute_layout(d, me)[me]
        checked += 1
    assert checked == 24
    if settings.get("igraca") == 3:
        assert kitty_turns


# -- bets ---------------------------------------------------------------------------------


def say(partie: LoraPartie, *words: str) -> None:
    for word in words:
        partie.apply(partie.seats_to_act()[0], word)


def word_of(level: str, partie: LoraPartie, seed: int = 0) -> str:
    seat = partie.seats_to_act()[0]
    return make_bot(level, "lora", seed=seed).choose(partie.view(seat), partie.legal_actions(seat))


LOW_HERC_4 = ["7S 8S 7D 8D 7C 8C 7H 8H", "9S TS JS QS 9D TD JD QD",
              "KS AS KD AD 9C TC JC QC", "KC AC 9H TH JH QH KH AH"]
LOW_HERC_3 = ["7S 8S 9S 7D 8D 9D 7C 8C 7H 8H", "TS JS QS KS TD JD QD KD TC JC", "AS AD QC KC AC 9H TH JH QH KH"]


@pytest.mark.parametrize("level", ["pocetnik", "majstor"])
def test_a_hand_that_cannot_take_a_heart_bets_none_in_herc(level: str) -> None:
    """Four seats: seat 1 (the first to speak) holds the sevens and eights; three seats: the
    sevens, eights and the nines of three suits."""
    partie = libyan_at(FOUR_BETS, "herc", [LOW_HERC_4[3], LOW_HERC_4[0], LOW_HERC_4[1], LOW_HERC_4[2]])
    assert partie.seats_to_act() == [1]
    assert word_of(level, partie) == "kladim 0"
    partie = libyan_at(THREE_BETS, "herc", [LOW_HERC_3[2], LOW_HERC_3[0], LOW_HERC_3[1]], "AH 9C")
    assert word_of(level, partie) == "kladim 0"


def test_a_high_hand_bets_no_heart_at_no_level() -> None:
    partie = libyan_at(FOUR_BETS, "herc", [LOW_HERC_4[0], LOW_HERC_4[3], LOW_HERC_4[1], LOW_HERC_4[2]])
    for level in ("pocetnik", "iskusan", "majstor"):
        assert word_of(level, partie) != "kladim 0"


@pytest.mark.parametrize("level", ["pocetnik", "iskusan", "majstor"])
def test_a_seat_with_the_top_of_a_long_suit_does_not_bet_on_no_trick_in_stihovi(level: str) -> None:
    hands = ["7D 8D 7C 8C 9C 7H 8H 9H", "AS KS QS JS TS 9D TD JD", "7S 8S 9S QD KD AD TC JC", "QC KC AC TH JH QH KH AH"]
    partie = libyan_at(FOUR_BETS, "stihovi", [hands[3], hands[1], hands[0], hands[2]])
    assert partie.seats_to_act() == [1]
    word = word_of(level, partie)
    assert word != "kladim 0" and word in partie.legal_actions(1)


def test_kontra_to_a_bet_on_all_hearts_from_a_seat_that_holds_the_top_hearts() -> None:
    """Seat 1 bets he takes all eight hearts; seat 2 holds A K Q J of hearts: he can keep
    at least one of them, so he says kontra."""
    hands = ["7S 8S 9S 7D 8D 9D 7C 8C", "TS JS TD JD TC JC 7H 8H", "QS KS QD KD AH KH QH JH", "AS AD QC KC AC 9H TH 9C"]
    partie = libyan_at(FOUR_BETS, "herc", hands)
    say(partie, "kladim 8", "ne kladim", "ne kladim", "ne kladim")
    assert partie.seats_to_act() == [2] and partie.legal_actions(2) == ["kontra", "moze"]
    assert word_of("majstor", partie) == "kontra"
    assert word_of("pocetnik", partie) == "moze"


def test_rekontra_on_a_safe_bet_and_moze_on_an_unlikely_one() -> None:
    partie = libyan_at(FOUR_BETS, "herc", [LOW_HERC_4[3], LOW_HERC_4[0], LOW_HERC_4[1], LOW_HERC_4[2]])
    say(partie, "kladim 0", "ne kladim", "ne kladim", "ne kladim", "kontra")
    assert partie.seats_to_act() == [1] and partie.legal_actions(1) == ["rekontra", "moze"]
    assert word_of("majstor", partie) == "rekontra"
    partie = libyan_at(FOUR_BETS, "herc", [LOW_HERC_4[3], LOW_HERC_4[0], LOW_HERC_4[1], LOW_HERC_4[2]])
    say(partie, "kladim 5", "ne kladim", "ne kladim", "ne kladim", "kontra")  # he cannot take five hearts
    assert word_of("majstor", partie) == "moze"


def test_the_bet_under_answer_follows_the_round() -> None:
    partie = libyan_at(FOUR_BETS, "herc", [LOW_HERC_4[3], LOW_HERC_4[0], LOW_HERC_4[1], LOW_HERC_4[2]])
    say(partie, "kladim 0", "ne kladim", "kladim 2", "kladim 1", "moze", "moze")
    view = partie.view(partie.seats_to_act()[0])
    assert bet_under_answer(view, read_view(view)).seat == 1  # seat 0's answer to seat 1's bet
    say(partie, "moze", "kontra")  # seat 0's moze closes seat 1's bet; his kontra to seat 3's
    view = partie.view(partie.seats_to_act()[0])
    assert partie.seats_to_act() == [3] and bet_under_answer(view, read_view(view)).seat == 3
    for level in ("pocetnik", "iskusan", "majstor"):
        assert word_of(level, partie) in ("rekontra", "moze")


def bet_knowledge(hands: list[str], bets: list[Bet]) -> LoraKnowledge:
    """Stihovi, four seats, two tricks left, seat 0 to lead, the tricks so far 0 2 2 2."""
    hand = masks(hands[0])
    played = FULL_MASK & ~sum(masks(h) for h in hands)
    return LoraKnowledge(seat=0, contract=Contract.STO_MANJE, hand=hand, hand_sizes=[2, 2, 2, 2], turn=0,
                         played=played, trick_counts=[0, 2, 2, 2], tricks_done=6, rule=libijska_rules(4)["stihovi"],
                         bets=bets, dealer=3)


def test_a_seat_with_a_bet_plays_for_it() -> None:
    """Stihovi: leading the ace takes a trick (+1), the seven none. Without a bet the seven
    is better; with ``kladim 1`` the ace (-10 for the bet that comes true)."""
    hands = ["AS 7D", "8S 8D", "9C 9D", "TC TD"]
    world = [masks(h) for h in hands]
    for bets, best in (([], "7D"), ([Bet(0, 1)], "AS"), ([Bet(0, 1, kontra_by=2)], "AS"), ([Bet(0, 0)], "7D")):
        know = bet_knowledge(hands, bets)
        values = LibyanSolver(know, 0).move_values(padded(world), [])
        assert min(values, key=lambda c: values[c]) == CARD_BY_NAME[best], (bets, values)
        playout = LibyanPlayout(know, 0)
        values = {c: playout.value(world, [], c) for c in values}
        assert min(values, key=lambda c: values[c]) == CARD_BY_NAME[best], (bets, values)


def test_bets_said_by_the_search_levels_mostly_come_true() -> None:
    """Over a partie with bets, the bets majstor and iskusan say come true more often than not."""
    said = true = 0
    for settings in (FOUR_BETS, THREE_BETS):
        partie = LoraPartie.new(settings, seed=8)
        levels = ["majstor", "iskusan", "majstor", "iskusan"][: partie.n_seats]
        bots = [make_bot(level, "lora", seed=s) for s, level in enumerate(levels)]
        while not partie.finished and partie.deal_index < 8:  # one dealer: every contract once
            seat = partie.seats_to_act()[0]
            deal = partie.deal
            partie.apply(seat, bots[seat].choose(partie.view(seat), partie.legal_actions(seat)))
            if deal.ended and not deal.void and deal.bets is not None:
                counts = deal.rule.counts(deal)
                for bet in deal.bets.bets:
                    said += 1
                    true += bet.points(counts[bet.seat], deal.n)[bet.seat] < 0
    assert said >= 6 and true > said / 2, (said, true)


# -- the kitty's card (three seats, the layout) -----------------------------------------------

KITTY_HANDS = ["TD JD QD KD AD 7S 8S 7H 8H TH", "9S TS JS QS KS AS 9H JH QH KH", "7D 8D TC JC QC KC AC 7C 8C AH"]


@pytest.mark.parametrize("level", ["pocetnik", "iskusan", "majstor"])
def test_the_dealer_plays_the_kitty_card_that_opens_his_run(level: str) -> None:
    """The first card 9S fixes the nines; seat 2 has none (dalje); the kitty's 9D and 9C are
    both playable, and the dealer (seat 0) holds the diamonds after the nine."""
    partie = libyan_at(LIBYAN[2], "lora", KITTY_HANDS, "9D 9C")
    say(partie, "9S", "dalje")
    view = partie.view(0)
    assert view["deal"]["kitty_turn"] and partie.legal_actions(0) == ["kitty 9D", "kitty 9C"]
    assert view["deal"]["kitty"] == ["9D", "9C"]
    assert word_of(level, partie) == "kitty 9D"
    say(partie, "kitty 9D")
    assert partie.seats_to_act() == [0] and "TD" in partie.legal_actions(0)


def test_the_empty_kitty_says_dalje_and_the_bots_know_it() -> None:
    """After its two cards the kitty keeps its place: ``kitty dalje`` is the dealer's only word there."""
    partie = libyan_at(LIBYAN[2], "lora", KITTY_HANDS, "9D 9C")
    say(partie, "9S", "dalje", "kitty 9D")
    bots = [make_bot("majstor", "lora", seed=s) for s in range(3)]
    kitty_words: list[list[str]] = []
    while not partie.deal.ended:
        seat = partie.seats_to_act()[0]
        legal = partie.legal_actions(seat)
        view = partie.view(seat)
        if legal[0].startswith("kitty"):
            kitty_words.append(legal)
            assert names_of(read_view(view).kitty) == view["deal"]["kitty"]
        word = bots[seat].choose(view, legal)
        assert word in legal
        partie.apply(seat, word)
    assert ["kitty dalje"] in kitty_words
