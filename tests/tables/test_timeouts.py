"""Timed-out decisions (issue 23, item 1): the game's safe word where it has one, else the
computer player's choice, and a note every viewer of the table reads (docs/rulings.md,
"Timed-out decisions").

The engine tests walk each game to the decisions that have a safe word; the server tests
let a member's timer run out (``deadline_at`` set into the past, the deadline watcher
hands the decision to the computer) and read the word, the event frame and the state.
"""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from app.db.models import Action, Partie
from app.games.lora import LoraPartie
from app.games.lorum.partie import LorumPartie
from app.games.preferans.partie import PreferansPartie
from app.tables.cache import Snapshot, standing_timeout
from tests.support.api import my_turn_state, register
from tests.support.lora import play, suit
from tests.support.web import wait_for

CARD_RANKS = set("789TJQKA")


def is_card(word: str) -> bool:
    return len(word) == 2 and word[0] in CARD_RANKS and word[1] in "SDHC"


# -- the engines: which word a timed-out seat says -------------------------------------


def walk(engine, rng: random.Random, steps: int):
    """Random legal play; yields (seat, legal words) before each word of the awaited seat."""
    for _ in range(steps):
        if engine.finished:
            return
        seats = engine.seats_to_act()
        if not seats:
            return
        seat = seats[0]
        legal = engine.legal_actions(seat)
        yield seat, legal
        # Words out of turn (offers, otpis) now and then, so their answers come up too.
        others = [s for s in range(engine.n_seats) if s != seat and engine.legal_actions(s)]
        if others and rng.random() < 0.2:
            other = rng.choice(others)
            engine.apply(other, rng.choice(engine.legal_actions(other)))
            continue
        words = [w for w in legal if w not in engine.optional_words] or legal
        if rng.random() < 0.2:
            words = legal
        engine.apply(seat, rng.choice(words))


def test_preferans_times_out_to_dalje_ne_pratim_moze_and_odbijam():
    seen: dict[str, int] = {}
    for seed in range(12):
        engine = PreferansPartie.new({"bule": 30, "refe": 1}, seed=seed)
        for seat, legal in walk(engine, random.Random(seed), 400):
            word = engine.timeout_word(seat)
            phase = engine.hand.phase if engine.hand is not None else None
            if engine.side_offer is not None or "prihvatam" in legal:  # an offer's answer: refuse
                kind, expected = "offer", "odbijam"
            elif phase == "licitacija" and "dalje" in legal:  # the auction: pass
                kind, expected = "auction", "dalje"
            elif phase == "pracenje" and "ne pratim" in legal:  # following: do not follow
                kind, expected = "follow", "ne pratim"
            elif phase == "pracenje" and "moze" in legal:  # the kontra round: no (re)kontra
                kind, expected = "kontra", "moze"
            else:  # the igra suit, škart, the contract, sam/zovem, a card: the computer's choice
                kind, expected = "other", None
            assert word == expected, (seed, legal, word)
            assert word is None or word in legal
            seen[kind] = seen.get(kind, 0) + 1
    assert set(seen) == {"auction", "follow", "kontra", "offer", "other"}, seen


def test_preferans_auction_timeout_is_dalje_even_before_any_bid():
    engine = PreferansPartie.new({"bule": 30, "refe": 1}, seed=3)
    (first,) = engine.seats_to_act()
    assert "2" in engine.legal_actions(first) and engine.timeout_word(first) == "dalje"
    assert engine.timeout_word((first + 1) % 3) is None  # not his turn: nothing to say


def test_libyan_bets_time_out_to_ne_kladim_and_their_answers_to_moze():
    from tests.support.libijska import BETS, at_slot

    partie = at_slot(BETS, 0, [suit("S"), suit("D"), suit("H"), suit("C")])
    assert partie.timeout_word(1) == "ne kladim"  # kladim 0..8 or ne kladim
    play(partie, "kladim 0", "ne kladim", "kladim 8", "ne kladim")
    assert partie.legal_actions(2) == ["kontra", "moze"] and partie.timeout_word(2) == "moze"
    play(partie, "moze", "kontra")
    assert partie.legal_actions(1) == ["rekontra", "moze"] and partie.timeout_word(1) == "moze"
    play(partie, "rekontra", "moze", "moze", "moze")
    assert "7D" in partie.legal_actions(1) and partie.timeout_word(1) is None  # a card: the computer's


def test_lora_timeout_is_the_computers_card_and_a_forced_dalje():
    engine = LoraPartie.new({}, seed=5)
    forced = cards = 0
    for seat, legal in walk(engine, random.Random(5), 3000):
        word = engine.timeout_word(seat)
        if legal == ["dalje"]:
            assert word == "dalje"
            forced += 1
        else:
            assert all(is_card(w) for w in legal) and word is None
            cards += 1
    assert forced and cards


def test_lora_house_rules_predictions_and_contract_choice_are_the_computers():
    engine = LoraPartie.new({"variant": "klub", "izbor": True}, seed=2)
    (seat,) = engine.seats_to_act()
    assert all(w.startswith("ugovor ") for w in engine.legal_actions(seat))
    assert engine.timeout_word(seat) is None


def test_lorum_timeout_is_the_computers_card_and_a_forced_dalje():
    engine = LorumPartie.new({}, seed=7)
    forced = cards = 0
    for seat, legal in walk(engine, random.Random(7), 3000):
        word = engine.timeout_word(seat)
        if "dalje" in legal:
            assert word == "dalje"
            forced += 1
        else:
            assert all(is_card(w) for w in legal) and word is None
            cards += 1
    assert forced and cards


# -- the note that stays on the table -------------------------------------------------------


def snap(version: int, action, source, deal: int, before: Snapshot | None) -> Snapshot:
    return Snapshot(version, action, (), [], [], [], deal, False, None, source,
                    standing_timeout(before, action, source, version, deal))


def test_the_note_stays_until_the_seat_speaks_again_or_the_deal_changes():
    s1 = snap(1, (0, "dalje"), "timer", 0, None)
    assert s1.timeout == (0, "dalje", 1)
    s2 = snap(2, (1, "2"), "bot", 0, s1)
    assert s2.timeout == (0, "dalje", 1)  # another seat's word: the note stays
    s3 = snap(3, (0, "ne pratim"), "member", 0, s2)
    assert s3.timeout is None  # he spoke himself
    s4 = snap(4, (2, "7S"), "timer", 0, s3)
    s5 = snap(5, (1, "8S"), "bot", 1, s4)
    assert s4.timeout == (2, "7S", 4) and s5.timeout is None  # the next deal began


# -- the server: the computer says the word in the player's name, and everyone is told ------


def time_out(app, pid: int) -> Action:
    """The member's time runs out: the Club's clock passes the deadline, and the deadline
    watcher hands his decision to the computer."""
    db = app.state.club.db
    with db.read() as s:
        deadline = s.get(Partie, pid).deadline_at
    assert deadline is not None, "no decision timer is running"
    clock = app.state.club.clock
    clock.advance((deadline - clock.now()).total_seconds() + 1)

    def timer_word():
        with db.read() as s:
            return s.scalar(select(Action).where(Action.partie_id == pid, Action.source == "timer"))

    return wait_for(timer_word, timeout=15)


def assert_told(ana, pid: int, action: Action, word: str) -> None:
    """The event of the timed-out word says so, and the state (a reload) keeps the note."""
    events = ana.get(f"/api/parties/{pid}/events", params={"since": action.seq - 1}).json()["events"]
    assert events[0]["action"] == {"seat": action.seat, "word": word, "timer": True}
    note = wait_for(lambda: ana.get(f"/api/parties/{pid}/view").json()["timeout"], timeout=5)
    assert note == {"seat": action.seat, "word": word, "version": action.seq}


def propose_against_bots(ana, game: str, settings: dict, bots: int) -> int:
    r = ana.post("/api/parties", json={"game": game, "settings": settings, "timer": 300,
                                       "seats": [{"kind": "bot"}] * bots})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_a_preferans_auction_timeout_says_dalje_and_the_table_is_told(client, app, clock):
    ana = register(app, "ana")
    pid = propose_against_bots(ana, "preferans", {"bule": 30, "refe": 1}, 2)
    state = my_turn_state(ana, pid)
    assert "dalje" in state["legal"] and state["timeout"] is None
    action = time_out(app, pid)
    assert (action.seat, action.word, action.seq) == (0, "dalje", state["version"] + 1)
    assert_told(ana, pid, action, "dalje")
    # A spectator's view carries the same note.
    boki = register(app, "boki")
    assert boki.get(f"/api/parties/{pid}/view").json()["timeout"]["word"] == "dalje"
    # Once she says a word of her own the note is gone.
    state = my_turn_state(ana, pid)
    r = ana.post(f"/api/parties/{pid}/actions", json={"word": state["legal"][0], "version": state["version"]})
    assert r.status_code == 200 and r.json()["state"]["timeout"] is None


@pytest.mark.parametrize("game", ["lora", "lorum"])
def test_a_timed_out_card_is_the_computers_and_the_table_is_told(client, app, clock, game):
    ana = register(app, "ana")
    pid = propose_against_bots(ana, game, {}, 3)
    state = my_turn_state(ana, pid)
    action = time_out(app, pid)
    assert action.seat == 0 and action.word in state["legal"] and is_card(action.word)
    assert_told(ana, pid, action, action.word)


def test_a_libyan_bet_timeout_says_ne_kladim(client, app, clock):
    ana = register(app, "ana")
    pid = propose_against_bots(ana, "lora", {"variant": "libijska", "opklade": True}, 3)
    state = my_turn_state(ana, pid)
    assert "ne kladim" in state["legal"]  # the first deal (herc) opens with the bets
    action = time_out(app, pid)
    assert (action.seat, action.word) == (0, "ne kladim")
    assert_told(ana, pid, action, "ne kladim")


@pytest.mark.parametrize("game", ["preferans", "lora"])
def test_no_timer_word_while_time_is_left(client, app, clock, game):
    """The deadline watcher leaves a member's decision alone while his time lasts."""
    ana = register(app, "ana")
    pid = propose_against_bots(ana, game, {"bule": 30, "refe": 1} if game == "preferans" else {}, 2 if game == "preferans" else 3)
    state = my_turn_state(ana, pid)
    with app.state.club.db.read() as s:
        deadline = s.get(Partie, pid).deadline_at
    clock.advance((deadline - clock.now()).total_seconds() - 1)  # one second left
    assert app.state.club.bots.play_one(pid) is False
    assert ana.get(f"/api/parties/{pid}/view").json()["version"] == state["version"]
