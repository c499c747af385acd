"""The Lórum computer player: legal words from the seat's view only, whole parties."""

import random

from app.ai import make_bot
from app.ai.lorum.rules import kvart_start, run_length, train_start
from app.games.cards import mask_of, parse_cards
from app.games.lorum import LorumPartie


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
