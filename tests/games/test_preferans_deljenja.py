"""A tournament round of preferans (rulings P13): ``deljenja`` hands, then an otpis
without a question; the round's deadline word ``rok``, said by the server."""

from __future__ import annotations

import json
import random

import pytest

from app.games.base import IllegalAction, SettingsError
from app.games.preferans import PreferansPartie
from app.games.preferans.limit import ROK
from app.games.preferans.settings import record_settings
from app.games.records import replay
from app.games.registry import descriptors
from tests.support.preferans import DEAL_B, DEAL_C, all_pass, new, prolaz, say

ROUND = {"bule": 60, "refe": 0, "deljenja": 3}


def play_words(p: PreferansPartie, rng: random.Random, words: int | None = None) -> None:
    """Random legal words, no optional ones (offers, otpis) unless nothing else is legal."""
    n = 0
    while not p.finished and (words is None or n < words):
        seat = rng.choice(p.seats_to_act())
        legal = p.legal_actions(seat)
        p.apply(seat, rng.choice([w for w in legal if w not in p.optional_words] or legal))
        n += 1


def play_hand(p: PreferansPartie, rng: random.Random) -> None:
    """Random words until the hand in play has ended."""
    ended = p.hands_ended
    while not p.finished and p.hands_ended == ended:
        play_words(p, rng, 1)


def replayed(p: PreferansPartie) -> PreferansPartie:
    return replay(json.loads(json.dumps(p.to_record(["ana", "boki", "ceca"]))))


# -- the setting ---------------------------------------------------------------------------------
@pytest.mark.parametrize("hands", [0, -3, 4, 25, "24", 24.0, True])
def test_deljenja_must_be_a_positive_multiple_of_three(hands):
    with pytest.raises(SettingsError, match="deljenja"):
        PreferansPartie.new({"deljenja": hands})


def test_deljenja_absent_or_null_is_no_limit_and_a_record_carries_it():
    assert "deljenja" not in PreferansPartie.normalize_settings({})
    assert "deljenja" not in PreferansPartie.normalize_settings({"deljenja": None})
    settings = PreferansPartie.normalize_settings({"deljenja": 24, "timer": 30})
    assert settings["deljenja"] == 24
    assert record_settings(settings) == {"bule": 60, "refe": 2, "deljenja": 24}
    assert record_settings(PreferansPartie.normalize_settings({})) == {"bule": 60, "refe": 2}


# -- the hand limit ------------------------------------------------------------------------------
def test_after_the_last_hand_the_partie_ends_by_otpis_without_a_question():
    """Three hands: a prolaz of herc (v 8) by seat 1, then two all-pass hands; the sum
    60 + 52 + 60 = 172 is split 57 each and the one extra goes to the worst bule: seats
    0 and 2 are equal in bule and in result, so the one earlier from the next hand's
    first player (seat 1) takes it: seat 2."""
    p = new(ROUND)
    prolaz(p, 1, "herc")
    all_pass(p)
    assert not p.finished and "otpis" in p.legal_actions(0)
    all_pass(p)
    r = p.result()
    assert p.finished and r["ended_by"] == "deljenja" and r["finished"] is True
    assert r["bule"] == [3, -5, 2] and sum(r["bule"]) == 0
    assert all(p.legal_actions(s) == [] for s in range(3)) and p.seats_to_act() == []
    line = p.papir()["lines"][-1]
    assert line == {"kind": "otpis", "after_deal": 2, "shares": [57, 57, 58], "reason": "deljenja"}
    assert r["results"] == [30, -50, 20] and r["places"] == [3, 1, 2]
    assert not p.needs_deal
    view = p.view(None)
    assert view["round"] == {"deljenja": 3, "hands_played": 3, "deadline": False}


def test_a_sum_leaving_two_gives_the_two_worst_bule_one_more():
    """A pik prolaz (v 4) by seat 1: 176 = 3 x 58 + 2, seats 0 and 2 (60 each) take 59."""
    p = new(ROUND)
    prolaz(p, 1, "pik")
    all_pass(p)
    all_pass(p)
    assert p.papir()["lines"][-1]["shares"] == [59, 58, 59]
    assert p.result()["bule"] == [1, -2, 1]


def test_a_partie_already_ended_by_its_bule_takes_no_otpis():
    """Sans prolaz (v 14) by seat 1, hand after hand: 90 bule are gone in the 7th hand,
    before the limit of 9; the partie ends by its bule, with no otpis line."""
    p = new({"bule": 30, "refe": 0, "deljenja": 9})
    for _ in range(7):
        assert not p.finished
        prolaz(p, 1, "sans", DEAL_C)
    r = p.result()
    assert p.finished and r["ended_by"] == "bule" and r["bule"] == [30, -60, 30]
    assert p.hands_ended == 7 and p.papir()["lines"][-1]["kind"] == "prolaz"


def test_without_a_limit_the_partie_goes_on_past_any_number_of_hands():
    p = PreferansPartie.new({"bule": 400, "refe": 0}, seed=9)
    rng = random.Random(9)
    for _ in range(30):
        play_hand(p, rng)
    assert p.hands_ended == 30 and not p.finished and p.view(None)["round"] is None
    assert p.result()["ended_by"] is None


def test_the_hand_limit_replays_from_its_record():
    p = PreferansPartie.new({"bule": 100, "refe": 2, "deljenja": 6}, seed=21)
    play_words(p, random.Random(21))
    assert p.finished and p.hands_ended <= 6
    record = p.to_record(["ana", "boki", "ceca"])
    assert record["settings"] == {"bule": 100, "refe": 2, "deljenja": 6}
    assert len(record["deals"]) == p.hands_ended  # the hand dealt ahead is not in the record
    again = replayed(p)
    assert again.result() == p.result() and again.papir() == p.papir()


# -- the deadline word ---------------------------------------------------------------------------
def test_the_deadline_word_is_never_legal_and_only_taken_with_deljenja():
    plain = PreferansPartie.new({}, seed=1)
    assert not plain.accepts_deadline()
    with pytest.raises(IllegalAction, match="deljenja"):
        plain.apply(0, ROK)
    assert plain.version == 0
    p = PreferansPartie.new({"deljenja": 24}, seed=1)
    assert p.accepts_deadline() and p.deadline_word == ROK
    rng = random.Random(1)
    for _ in range(200):
        assert all(ROK not in p.legal_actions(s) for s in range(3))
        play_words(p, rng, 1)


def test_the_deadline_mid_hand_lets_the_hand_end_then_ends_the_partie():
    p = PreferansPartie.new({"bule": 100, "refe": 2, "deljenja": 24}, seed=5)
    rng = random.Random(5)
    play_hand(p, rng)
    play_hand(p, rng)
    play_words(p, rng, 3)  # the third hand is in play
    assert p.hands_ended == 2 and not p.finished
    legal_before = [p.legal_actions(s) for s in range(3)]
    turn_before = p.seats_to_act()
    p.apply(2, ROK)
    assert not p.finished and not p.accepts_deadline()
    assert [p.legal_actions(s) for s in range(3)] == legal_before and p.seats_to_act() == turn_before
    assert p.view(0)["round"]["deadline"] is True
    with pytest.raises(IllegalAction, match="already"):
        p.apply(0, ROK)
    play_hand(p, rng)  # the computer players (here random) finish the hand in play
    r = p.result()
    assert p.finished and p.hands_ended == 3 and r["ended_by"] == "rok" and sum(r["bule"]) == 0
    assert p.papir()["lines"][-1]["reason"] == "rok"
    record = p.to_record(["ana", "boki", "ceca"])
    assert [2, ROK] in record["deals"][2]["actions"]
    assert len(record["deals"]) == 3
    again = replayed(p)
    assert again.result() == r and again.ended_by == "rok"


def test_the_deadline_between_hands_ends_the_partie_at_once():
    p = PreferansPartie.new({"bule": 100, "refe": 2, "deljenja": 24}, seed=8)
    rng = random.Random(8)
    play_hand(p, rng)
    play_hand(p, rng)
    assert not p.finished and p.hand.n_actions == 0  # the next hand is dealt, not yet begun
    bule = p.result()["bule"]
    p.apply(1, ROK)
    r = p.result()
    assert p.finished and r["ended_by"] == "rok" and sum(r["bule"]) == 0 and p.hands_ended == 2
    shares = p.papir()["lines"][-1]["shares"]
    assert [b - s for b, s in zip(bule, shares)] == r["bule"] and max(shares) - min(shares) <= 1
    record = p.to_record(["ana", "boki", "ceca"])
    assert len(record["deals"]) == 2 and record["deals"][1]["actions"][-1] == [1, ROK]
    assert replayed(p).result() == r


def test_the_deadline_before_the_first_hand_ends_it_at_once_and_replays():
    p = PreferansPartie.new({"bule": 60, "refe": 2, "deljenja": 24}, seed=2)
    p.apply(0, ROK)
    r = p.result()
    assert p.finished and r["bule"] == [0, 0, 0] and r["ended_by"] == "rok"
    record = p.to_record(["ana", "boki", "ceca"])
    assert len(record["deals"]) == 1 and record["deals"][0]["actions"] == [[0, ROK]]
    assert replayed(p).result() == r


def test_the_deadline_lets_an_open_otpis_proposal_lapse():
    p = new({"bule": 60, "refe": 0, "deljenja": 24})
    prolaz(p, 1, "herc")
    say(p, "0:otpis 1:prihvatam")
    assert p.side_offer is not None
    p.apply(2, ROK)
    assert p.finished and p.side_offer is None and p.result()["ended_by"] == "rok"
    assert p.to_record(["a", "b", "c"])["deals"][0]["actions"][-3:] == [[0, "otpis"], [1, "prihvatam"], [2, ROK]]


def test_an_accepted_otpis_is_told_apart_from_the_rounds():
    p = new({"bule": 60, "refe": 0, "deljenja": 24})
    prolaz(p, 1, "herc")
    say(p, "0:otpis 1:prihvatam 2:prihvatam")
    assert p.result()["ended_by"] == "otpis" and "reason" not in p.papir()["lines"][-1]
    q = new({"bule": 60, "refe": 0, "deljenja": 24})
    prolaz(q, 1, "herc")
    assert q.result()["bule"] == [60, 52, 60]
    q.apply(0, ROK)  # an unseeded partie between hands: no hand is in play
    assert q.papir()["lines"][-1]["shares"] == p.papir()["lines"][-1]["shares"]


def test_no_fall_is_taken_over_after_the_last_hand():
    """P10's window closes with the partie (as when the bule reach 0)."""
    from tests.support.preferans import B_END_9_0_1, HEARTS8, cards, deal, ordinary

    p = new({"bule": 60, "refe": 0, "deljenja": 3})
    all_pass(p)
    all_pass(p)
    # the hand of test_preferans_between.both_fell, one seat round: hand 2's first player is seat 0
    deal(p, (DEAL_B[1], DEAL_B[2], DEAL_B[0], DEAL_B[3]))
    ordinary(p, 0, "herc")
    say(p, "1:pratim 2:pratim 1:moze 2:moze")
    cards(p, HEARTS8 + " " + B_END_9_0_1)
    assert p.papir()["lines"][-2]["falls"] == [1, 2]  # both followers fell
    assert p.finished and p.result()["ended_by"] == "deljenja"
    assert all(p.legal_actions(s) == [] for s in range(3))
    assert p.view(None)["fall_window"] is None


def test_only_preferans_has_a_deadline_word():
    for game in descriptors():
        engine = game.engine.new(game.default_settings(), seed="d")
        assert game.deadline_word == engine.deadline_word
        if game.deadline_word is None:
            assert not engine.accepts_deadline()


def test_the_deadline_word_is_no_decision_in_the_analysis():
    """The analysis of a hand (app/analysis) values the seats' choices; ``rok`` is none."""
    from app.analysis.deal import analyse_deal

    p = PreferansPartie.new({"bule": 60, "refe": 2, "deljenja": 24}, seed=12)
    rng = random.Random(12)
    play_words(p, rng, 1)
    seat = p.seats_to_act()[0]
    assert len(p.legal_actions(seat)) > 1
    p.apply(seat, ROK)
    play_hand(p, rng)
    record = p.to_record(["ana", "boki", "ceca"])
    step = record["deals"][0]["actions"].index([seat, ROK]) + 1
    rows = analyse_deal(record, 0)["rows"]
    assert rows and all(row["step"] != step and row["word"] != ROK for row in rows)


def test_a_record_past_its_hands_or_with_a_deadline_it_cannot_take_is_refused():
    from app.games.base import RecordError

    p = new(ROUND)
    prolaz(p, 1, "herc")
    all_pass(p)
    all_pass(p)
    record = json.loads(json.dumps(p.to_record(["ana", "boki", "ceca"])))
    assert replay(record).result() == p.result()
    longer = {**record, "deals": record["deals"] + [record["deals"][1]]}
    with pytest.raises(RecordError, match="deal 3: the partie had already ended"):
        replay(longer)
    unlimited = {**record, "settings": {"bule": 60, "refe": 0}}
    unlimited["deals"] = [dict(d) for d in record["deals"]]
    unlimited["deals"][0]["actions"] = record["deals"][0]["actions"] + [[0, ROK]]
    with pytest.raises(RecordError, match="deal 0, action 7: seat 0 'rok'.*deljenja"):
        replay(unlimited)
