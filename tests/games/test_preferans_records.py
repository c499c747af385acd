"""Records (klub-record/1): the Club's example records (tests/data/examples), refusals with their position, export."""

import copy
import json

import pytest

from app.games.base import RecordError
from app.games.cards import CARD_NAMES
from app.games.records import replay, replayed_record
from app.games.simulate import random_partie
from tests.support.paths import EXAMPLES
from tests.support.preferans import all_pass, new, prolaz, say

NAMES = ["preferans-11.json", "preferans-70043.json", "preferans-9001.json"]
KEYS = ("bule", "supe", "refe", "results", "places", "finished")


def load(name):
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", NAMES)
def test_example_replays_to_its_result(name):
    record = load(name)
    result = replayed_record(record)["result"]
    for key in KEYS:
        assert result[key] == record["result"][key], key


@pytest.mark.parametrize("name", NAMES)
def test_export_of_a_replayed_example_is_the_same_record(name):
    record = load(name)
    partie = replay(record)
    out = partie.to_record(record["players"])
    assert out["deals"] == record["deals"] and out["settings"] == record["settings"]


def test_illegal_word_is_refused_with_its_position():
    record = load("preferans-70043.json")
    bad = copy.deepcopy(record)
    bad["deals"][2]["actions"][2] = [2, "5"]  # a raise by two
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert (e.value.deal_index, e.value.action_index) == (2, 2)
    assert "deal 2, action 2" in str(e.value)


def test_card_not_in_hand_and_word_out_of_turn_are_refused():
    record = load("preferans-11.json")
    bad = copy.deepcopy(record)
    bad["deals"][8]["actions"][9] = [0, "7D"]  # seat 0 leads but does not hold 7D
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert (e.value.deal_index, e.value.action_index) == (8, 9)
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"][0] = [2, "dalje"]  # seat 1 bids first
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert (e.value.deal_index, e.value.action_index) == (0, 0)


def test_action_after_the_hand_ended_is_refused():
    record = load("preferans-9001.json")
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"].append([0, "dalje"])
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert e.value.deal_index == 0 and e.value.action_index == len(record["deals"][0]["actions"])


def test_deal_after_the_end_and_bad_hands_are_refused():
    record = load("preferans-11.json")  # finished by its last deal
    bad = copy.deepcopy(record)
    bad["deals"].append(copy.deepcopy(record["deals"][0]))
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert e.value.deal_index == len(record["deals"])
    bad = copy.deepcopy(record)
    bad["deals"][3]["hands"][0][0] = bad["deals"][3]["hands"][1][0]
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert e.value.deal_index == 3


def test_unfinished_hand_is_not_a_deal_start():
    record = load("preferans-9001.json")
    bad = copy.deepcopy(record)
    bad["deals"][1]["actions"] = bad["deals"][1]["actions"][:3]  # stops after the licitacija
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert e.value.deal_index == 1


def test_random_partie_record_replays():
    partie = random_partie("preferans", 5, {"bule": 30, "refe": 1})
    record = partie.to_record(["a", "b", "c"])
    assert record["game"] == "preferans" and record["settings"] == {"bule": 30, "refe": 1}
    assert replay(json.loads(json.dumps(record))).result() == partie.result()


# -- P12: a refused question asked again too soon --------------------------------------------------
OFFERS = ("nosim sve", "nemam pad", "nudim 2", "nudim 3", "nudim 4")


def refused_offers(record):
    """(deal, index of the odbijam, declarer, offer word) of every refused ponuda."""
    out = []
    for d, deal in enumerate(record["deals"]):
        acts = deal["actions"]
        for a, (seat, word) in enumerate(acts):
            if word in OFFERS:
                b = a + 1
                while b < len(acts) and acts[b][1] == "prihvatam":
                    b += 1
                if b < len(acts) and acts[b][1] == "odbijam":
                    out.append((d, b, seat, word))
    return out


def test_record_repeating_a_refused_offer_before_a_card_is_refused_with_its_position():
    record = random_partie("preferans", 0, {"bule": 30, "refe": 1}).to_record(["a", "b", "c"])
    found = refused_offers(record)
    assert found
    for d, b, declarer, word in found[:5]:
        bad = copy.deepcopy(record)
        bad["deals"][d]["actions"].insert(b + 1, [declarer, word])
        with pytest.raises(RecordError) as e:
            replay(bad)
        assert (e.value.deal_index, e.value.action_index) == (d, b + 1)
        assert f"deal {d}, action {b + 1}" in str(e.value)
        assert "P12" in str(e.value) and word in str(e.value)


def test_record_repeating_a_refused_claim_after_one_more_card_replays():
    record = random_partie("preferans", 0, {"bule": 30, "refe": 1}).to_record(["a", "b", "c"])
    card_names = set(CARD_NAMES)
    checked = 0
    for d, b, declarer, word in refused_offers(record):
        if word not in ("nosim sve", "nemam pad"):
            continue
        acts = record["deals"][d]["actions"]
        later_cards = [i for i in range(b + 1, len(acts)) if acts[i][1] in card_names]
        if len(later_cards) < 2:  # the hand must go on after the card
            continue
        refuser = acts[b][0]
        good = copy.deepcopy(record)
        good["deals"][d]["actions"][later_cards[0] + 1:later_cards[0] + 1] = [[declarer, word], [refuser, "odbijam"]]
        assert replay(good).result() == record["result"]  # a refused offer changes nothing
        checked += 1
    assert checked >= 3


def test_record_repeating_a_refused_otpis_before_the_next_hand_is_refused():
    p = new()
    prolaz(p, 1, "herc")
    say(p, "0:otpis 2:odbijam")
    all_pass(p)
    say(p, "2:otpis 0:odbijam")  # after the next hand: legal again
    record = json.loads(json.dumps(p.to_record(["a", "b", "c"])))
    assert replay(record).result() == p.result()
    assert record["deals"][0]["actions"][-2:] == [[0, "otpis"], [2, "odbijam"]]
    bad = copy.deepcopy(record)
    n = len(bad["deals"][0]["actions"])
    bad["deals"][0]["actions"] += [[1, "otpis"], [0, "prihvatam"], [2, "prihvatam"]]
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert (e.value.deal_index, e.value.action_index) == (0, n)
    assert "P12" in str(e.value)
