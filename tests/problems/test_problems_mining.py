"""Mining (app/problems/mining.py): every problem mined from real deals of the three games
is a decision where the word stated best is the analysis' best and leads every other
choice by the game's margin, checked by asking the cards-open values again at the
rebuilt position; a best not unique within the margin is no problem."""

from __future__ import annotations

import random

import pytest

from app.ai.registry import open_values_of
from app.analysis.deal import analyse_deal, decision_row
from app.games.cards import CARD_BY_NAME
from app.games.registry import descriptor
from app.problems.mining import engine_at_deal, is_problem, mine_deal
from tests.support.club import play_out

# (game, settings, seed, the deals mined): random parties whose first deals hold problems.
# Preferans' words (bids, škart, contract, following) are valued over sampled worlds, a
# minute a deal of random bidding on a busy machine: its case mines the cards only (the
# analysis' own rows of its card decisions), valued in tricks by the exact search.
CASES = {
    "lora": ("lora", {}, "zadaci-lora", (0, 1, 2)),
    "lorum": ("lorum", {}, "zadaci-lorum", (0, 1, 2)),
    "preferans": ("preferans", {"bule": 30, "refe": 1}, "zadaci-preferans", (0, 1, 2, 3)),
}
CARDS_ONLY = {"preferans"}


def card_analysis(record: dict, k: int) -> dict:
    """The analysis' rows of deal ``k``'s card decisions (app.analysis.deal.decision_row on
    the game's open-cards values), as analyse_deal makes them for every decision."""
    values_of = open_values_of(record["game"])
    engine = engine_at_deal(record, k)
    rows = []
    for step, (seat, word) in enumerate(record["deals"][k]["actions"], 1):
        legal = list(engine.legal_actions(seat))
        if len(legal) > 1 and word in legal and all(w in CARD_BY_NAME for w in legal):
            rows.append(decision_row(step, seat, word, legal, values_of(engine, seat, legal, word)))
        engine.apply(seat, word)
    return {"rows": rows}


def record_of(game: str, settings: dict, seed: str) -> dict:
    settings = descriptor(game).normalize_settings(settings)
    engine, _ = play_out(game, settings, seed, random.Random(seed))
    return engine.to_record([f"p{s}" for s in range(engine.n_seats)])


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_mined_problem_is_the_analysis_best_by_the_margin(case):
    game, settings, seed, deals = CASES[case]
    record = record_of(game, settings, seed)
    rules = descriptor(game).problems
    values_of = open_values_of(game)
    mined = 0
    for k in deals:
        given = card_analysis(record, k) if case in CARDS_ONLY else None
        out = mine_deal(record, k, given)
        rows = {row["step"]: row for row in (given or out["analysis"])["rows"]}
        for p in out["problems"]:
            mined += 1
            row = rows[p["step"]]
            assert p["best"] == row["best"] and p["played"] == row["word"] != p["best"]
            margin = rules.margin_of(row.get("unit"))
            # the cards-open values asked again, at the position rebuilt from the record
            engine = engine_at_deal(record, k)
            for seat, word in record["deals"][k]["actions"][: p["step"] - 1]:
                engine.apply(seat, word)
            legal = list(engine.legal_actions(p["seat"]))
            assert legal == p["data"]["legal"]
            again = values_of(engine, p["seat"], legal, p["played"])
            choices = p["data"]["values"]
            assert {w: again[w] for w in choices} == pytest.approx(choices)
            assert set(choices) == set(again) & set(legal)
            best = choices[p["best"]]
            for word, value in choices.items():
                if word != p["best"]:
                    assert value - best >= margin.margin, (word, value, best)
            assert choices[p["played"]] - best >= margin.threshold
            assert p["margin"] >= margin.margin and p["lost"] >= margin.threshold
            # the problem's position is the replay's at that step, with the question in words
            assert p["data"]["position"]["hands"] == descriptor(game).replay_hands(engine)
            assert p["data"]["question"]["sr"] and p["data"]["question"]["en"]
            assert p["data"]["line"][0] == [p["seat"], p["best"]]
    assert mined, f"{case}: the case's deals were chosen for their problems"


def test_a_best_not_unique_within_the_margin_is_no_problem():
    game = descriptor("lora")  # Lora's margin: 2 points
    clear = {"step": 1, "seat": 0, "word": "AS", "best": "7S", "saved": 5.0,
             "values": {"7S": 0.0, "8S": 2.0, "AS": 5.0}}
    assert is_problem(clear, game) == (5.0, 2.0)
    close = {**clear, "values": {"7S": 0.0, "8S": 1.0, "AS": 5.0}}
    assert is_problem(close, game) is None
    tie = {**clear, "values": {"7S": 0.0, "8S": 0.0, "AS": 5.0}}
    assert is_problem(tie, game) is None
    small_loss = {**clear, "word": "8S", "saved": 1.0, "values": {"7S": 0.0, "8S": 3.0, "AS": 5.0}}
    assert is_problem({**small_loss, "word": "8S", "saved": 3.0}, game) == (3.0, 3.0)
    assert is_problem({**small_loss, "values": {"7S": 0.0, "8S": 1.5, "AS": 5.0}, "saved": 1.5}, game) is None
    unvalued = {**clear, "values": None, "saved": None}
    assert is_problem(unvalued, game) is None


def test_an_analysis_row_the_mining_trusts_is_the_analysis_own():
    """The mining reads the analysis' rows as they are (the same function the replay uses)."""
    game, settings, seed, _ = CASES["lorum"]
    record = record_of(game, settings, seed)
    assert mine_deal(record, 0)["analysis"] == analyse_deal(record, 0)
