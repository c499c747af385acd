"""Records (klub-record/1): the Club's example records (tests/data/examples), refusals with their position, export."""

import copy
import json
from pathlib import Path

import pytest

from app.games.base import RecordError
from app.games.records import replay, replayed_record
from app.games.simulate import random_partie

EXAMPLES = Path(__file__).resolve().parent / "data" / "examples"  # the Club's examples, copied with the project
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
