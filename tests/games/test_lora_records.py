"""Lora records: the Club's example records (tests/data/examples), refusals naming their position, the CLI."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.games.base import RecordError
from app.games.records import replay, replayed_record
from tests.support.paths import EXAMPLES, ROOT

LORA_EXAMPLES = [EXAMPLES / "lora-7.json", EXAMPLES / "lora-8.json"]


def load(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def test_the_examples_are_there():
    assert all(path.is_file() for path in LORA_EXAMPLES)


@pytest.mark.parametrize("path", LORA_EXAMPLES, ids=lambda p: p.name)
def test_examples_replay_to_their_result(path):
    record = load(path)
    assert replayed_record(record)["result"] == record["result"]


@pytest.fixture
def example():
    return load(LORA_EXAMPLES[0])


def test_an_illegal_card_is_refused_with_deal_and_action(example):
    bad = copy.deepcopy(example)
    # deal 0: seat 1 leads 7C; seat 2 holds clubs, so a heart is a revoke
    assert bad["deals"][0]["actions"][1] == [2, "8C"]
    bad["deals"][0]["actions"][1] = [2, "7H"]
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert (e.value.deal_index, e.value.action_index) == (0, 1)
    assert "does not follow" in str(e.value)


def test_a_card_from_another_hand_is_refused(example):
    bad = copy.deepcopy(example)
    bad["deals"][3]["actions"][0][1] = bad["deals"][3]["hands"][2][0]
    with pytest.raises(RecordError, match="deal 3, action 0: .*not in seat"):
        replay(bad)


def test_a_word_out_of_turn_is_refused(example):
    bad = copy.deepcopy(example)
    seat, word = bad["deals"][0]["actions"][0]
    bad["deals"][0]["actions"][0] = [(seat + 1) % 4, word]
    with pytest.raises(RecordError, match="deal 0, action 0: .*turn"):
        replay(bad)


def test_an_action_after_the_deal_ended_is_refused(example):
    bad = copy.deepcopy(example)
    deal = bad["deals"][2]  # Dame ends early in this example
    assert len(deal["actions"]) < 32
    held = set(deal["hands"][0]) - {w for s, w in deal["actions"]}
    deal["actions"].append([0, sorted(held)[0]])
    with pytest.raises(RecordError, match=f"deal 2, action {len(deal['actions']) - 1}: .*deal has ended"):
        replay(bad)


def test_an_unfinished_deal_followed_by_another_is_refused(example):
    bad = copy.deepcopy(example)
    bad["deals"][4]["actions"] = bad["deals"][4]["actions"][:3]
    with pytest.raises(RecordError, match="deal 4, action 3: .*before the previous one ended"):
        replay(bad)


def test_a_deal_that_is_not_the_deck_is_refused(example):
    bad = copy.deepcopy(example)
    bad["deals"][1]["hands"][0][0] = bad["deals"][1]["hands"][1][0]
    with pytest.raises(RecordError, match="deal 1: hands: .*dealt twice"):
        replay(bad)


def test_unfinished_partie_replays_with_the_deals_so_far(example):
    partial = copy.deepcopy(example)
    partial["deals"] = partial["deals"][:3]
    partial["deals"][2]["actions"] = partial["deals"][2]["actions"][:5]
    result = replayed_record(partial)["result"]
    assert result["deals"] == example["result"]["deals"][:2]
    assert result["totals"] == [sum(d["points"][s] for d in result["deals"]) for s in range(4)]


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda r: r.update(format="pgn"), "format"),
        (lambda r: r.update(game="tablic"), "unknown game"),
        (lambda r: r.update(players=["a", "b", "c"]), "4 players"),
        (lambda r: r["deals"][0]["actions"].__setitem__(0, [1]), "action is"),
        (lambda r: r["deals"][0]["actions"].__setitem__(0, [7, "7C"]), "no seat 7"),
    ],
)
def test_malformed_records_are_refused(example, mutate, message):
    bad = copy.deepcopy(example)
    mutate(bad)
    with pytest.raises(RecordError, match=message):
        replay(bad)


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_cli_replay_prints_the_record_with_its_result(tmp_path):
    record = load(LORA_EXAMPLES[1])
    stripped = dict(record, result={})
    path = tmp_path / "r.json"
    path.write_text(json.dumps(stripped))
    out = run_cli("replay", str(path))
    assert out.returncode == 0, out.stderr
    printed = json.loads(out.stdout)
    assert printed["result"] == record["result"]
    assert printed["deals"] == record["deals"]


def test_cli_replay_of_an_impossible_record_exits_nonzero_without_result(tmp_path, example):
    bad = copy.deepcopy(example)
    bad["deals"][5]["actions"][6][1] = "XX"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    out = run_cli("replay", str(path))
    assert out.returncode != 0
    assert out.stdout == ""
    assert "deal 5, action 6" in out.stderr and "XX" in out.stderr


def test_cli_replay_of_a_missing_file_names_it(tmp_path):
    out = run_cli("replay", str(tmp_path / "none.json"))
    assert out.returncode != 0 and "none.json" in out.stderr


def test_cli_random_partie_prints_a_replayable_record():
    out = run_cli("random-partie", "lora", "--seed", "42")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert len(record["deals"]) == 28
    assert replayed_record(record)["result"] == record["result"]
    again = run_cli("random-partie", "lora", "--seed", "42")
    assert json.loads(again.stdout) == record
