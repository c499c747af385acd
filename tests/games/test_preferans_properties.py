"""Random legal play of whole parties: invariants, hidden cards, replay (hypothesis)."""

import json
import random

import pytest

from hypothesis import given, settings, strategies as st

from app.games.base import IllegalAction
from app.games.cards import CARD_NAMES, FULL_MASK, mask_of
from app.games.preferans import PreferansPartie
from app.games.records import replay

SETTINGS = st.fixed_dictionaries({
    "bule": st.sampled_from([30, 40, 60]),
    "refe": st.integers(min_value=0, max_value=3),
})
_NAMES = set(CARD_NAMES)


def _cards_in(obj, out):
    if isinstance(obj, str):
        if obj in _NAMES:
            out.add(obj)
        elif obj.startswith("skart "):
            out.update(obj.split()[1:])
    elif isinstance(obj, dict):
        for v in obj.values():
            _cards_in(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _cards_in(v, out)
    return out


def check_conservation(p):
    h = p.hand
    played = 0
    if h.play is not None:
        for cards, _ in h.play.history:
            played |= mask_of(c for _, c in cards)
        played |= mask_of(c for _, c in h.play.trick)
    parts = [h.hands[0], h.hands[1], h.hands[2], played, h.skart]
    if not h.talon_shown:
        parts.append(mask_of(h.talon))
    total = 0
    for m in parts:
        assert total & m == 0, "a card is in two places"
        total |= m
    if h.over and h.play is not None and h.play.over and h.play.remaining == 0:
        assert sum(h.play.tricks) == 10
    assert total == FULL_MASK


def visible(p, seat):
    """The cards ``seat`` (None: spectator) may see in the view of the hand in play."""
    h = p.hand
    allowed = 0
    if h.play is not None:
        for cards, _ in h.play.history:
            allowed |= mask_of(c for _, c in cards)
        allowed |= mask_of(c for _, c in h.play.trick)
    if h.talon_shown:
        allowed |= mask_of(h.talon)
    if seat is not None:
        allowed |= h.hands[seat]
        if seat == h.declarer:
            allowed |= h.skart  # he discarded them himself
        po = h.ponuda
        if po is not None and po.shows_cards and seat != h.declarer:
            allowed |= h.hands[h.declarer]
    return {CARD_NAMES[c] for c in range(32) if allowed >> c & 1}


def check_views(p):
    h = p.hand
    for seat in (None, 0, 1, 2):
        view = json.loads(json.dumps(p.view(seat)))
        assert view["version"] == p.version
        hv = view["hand"]
        if h.over:
            assert hv["deal"]["skart"] == [CARD_NAMES[c] for c in range(32) if h.skart >> c & 1]
            continue
        hv.pop("deal", None)
        seen = _cards_in(hv, set()) | _cards_in(view["legal_actions"], set())
        assert seen <= visible(p, seat), (seat, seen - visible(p, seat))


def play(seed, settings_, check_every_step):
    p = PreferansPartie.new(settings_, seed=seed)
    rng = random.Random(seed)
    for _ in range(20_000):
        if p.finished:
            break
        seats = p.seats_to_act()
        seat = rng.choice(seats) if seats else None
        if seat is None or rng.random() < 0.1:  # now and then an optional word out of turn
            seat = rng.choice([s for s in range(3) if p.legal_actions(s)])
        words = p.legal_actions(seat)
        assert words, (seat, p.view(seat))
        # bad words leave the state unchanged
        version = p.version
        try:
            p.apply(seat, "7X")
        except IllegalAction:
            pass
        assert p.version == version
        p.apply(seat, rng.choice(words))
        assert sum(p.result()["bule"]) >= 0
        if check_every_step:
            check_conservation(p)
            check_views(p)
    return p


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9), settings_=SETTINGS)
def test_random_parties_keep_every_invariant(seed, settings_):
    p = play(seed, settings_, check_every_step=True)
    r = p.result()
    assert sorted(r["places"]) == [1, 2, 3]
    assert all(len(row) == 3 and row[i] == 0 for i, row in enumerate(r["supe"]))
    for s in range(3):
        assert r["refe"]["open"][s] + r["refe"]["played"][s] <= settings_["refe"]
        sup_to = sum(r["supe"][j][s] for j in range(3))
        assert r["results"][s] == sup_to - sum(r["supe"][s]) + 10 * r["bule"][s]
    if p.finished and not p.otpis_accepted:
        assert sum(r["bule"]) == 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9), settings_=SETTINGS)
def test_replay_of_the_record_reproduces_the_partie(seed, settings_):
    p = play(seed, settings_, check_every_step=False)
    record = json.loads(json.dumps(p.to_record(["a", "b", "c"])))
    q = replay(record)
    assert q.result() == p.result()
    assert q.papir() == p.papir()
    assert q.to_record(["a", "b", "c"])["deals"] == record["deals"]


OFFERS = ("nosim sve", "nemam pad", "nudim 2", "nudim 3", "nudim 4")


def repeated_questions(record):
    """Every place in a record where a refused question is asked again too soon (P12): a
    ponuda before one more card, an otpis before the next hand has ended. Worked out from
    the record alone: (deal, action, word)."""
    found = []
    for d, deal in enumerate(record["deals"]):
        cards = 0
        open_word = None
        refused_at = {}  # ponuda word -> cards played at its refusal
        otpis_refused = False  # an otpis refused among this deal's words (after this hand)
        for a, (seat, word) in enumerate(deal["actions"]):
            if word in _NAMES:
                cards += 1
            elif word in OFFERS:
                if refused_at.get(word) == cards:
                    found.append((d, a, word))
                open_word = word
            elif word == "otpis":
                if otpis_refused:
                    found.append((d, a, word))
                open_word = word
            elif word in ("preuzimam pad", "vracam pad"):
                open_word = word
            elif word == "odbijam" and open_word is not None:
                if open_word == "otpis":
                    otpis_refused = True
                elif open_word in OFFERS:
                    refused_at[open_word] = cards
                open_word = None
            elif word == "prihvatam":
                pass
            else:
                open_word = None
    return found


def play_asking_often(seed, settings_):
    """Random play in which the declarer makes an offer whenever he may, and answers are
    as often refusals as not: many refused questions, each checked as it is asked."""
    p = PreferansPartie.new(settings_, seed=seed)
    rng = random.Random(seed)
    refused = 0
    for _ in range(20_000):
        if p.finished:
            break
        seats = p.seats_to_act() or [s for s in range(3) if p.legal_actions(s)]
        seat = rng.choice(seats)
        words = p.legal_actions(seat)
        hand = p.hand
        if hand.play is not None and not hand.over:
            for w, at in hand.refused_at.items():
                if at == hand.play.cards_played:  # refused, and no card since
                    assert w not in p.legal_actions(hand.declarer)
                    version = p.version
                    with pytest.raises(IllegalAction):
                        p.apply(hand.declarer, w)
                    assert p.version == version
        asks = [w for w in words if w in OFFERS or w == "otpis"]
        if asks and rng.random() < 0.6:
            word = rng.choice(asks)
        elif "odbijam" in words and rng.random() < 0.7:
            word = "odbijam"
            refused += 1
        else:
            word = rng.choice([w for w in words if w not in OFFERS and w != "otpis"] or words)
        p.apply(seat, word)
    return p, refused


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9), settings_=SETTINGS)
def test_no_refused_question_is_asked_again_too_soon(seed, settings_):
    p, refused = play_asking_often(seed, settings_)
    record = json.loads(json.dumps(p.to_record(["a", "b", "c"])))
    assert repeated_questions(record) == []
    assert replay(record).result() == p.result()


def test_random_play_refuses_and_asks_again_after_a_card():
    """The property above is not empty: such play refuses offers and repeats them later."""
    p, refused = play_asking_often(11, {"bule": 30, "refe": 1})
    record = p.to_record(["a", "b", "c"])
    assert refused > 20
    again = 0
    for deal in record["deals"]:
        said = [w for _, w in deal["actions"] if w in OFFERS]
        again += len(said) - len(set(said))
    assert again > 0
