"""The replay's analysis of a deal as its tests check it: the example records, every decision of
a deal, and the rows an analysis must give for them."""

from __future__ import annotations

import json

from app.analysis.deal import MISTAKES
from app.games.cards import CARD_BY_NAME
from app.games.records import deal_pile
from app.games.registry import engine_class
from tests.support.paths import EXAMPLES


def load(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())


def decisions(record: dict, k: int) -> list[tuple[int, int, str, list[str]]]:
    """(step, seat, word, legal) of every decision with a choice in deal ``k``, by replay."""
    partie = engine_class(record["game"]).new(record["settings"])
    for d in record["deals"][:k]:
        partie.start_deal(d["hands"], deal_pile(partie, d))
        for seat, word in d["actions"]:
            partie.apply(seat, word)
    d = record["deals"][k]
    partie.start_deal(d["hands"], deal_pile(partie, d))
    out = []
    for step, (seat, word) in enumerate(d["actions"], 1):
        legal = partie.legal_actions(seat)
        if len(legal) > 1 and not (partie.needs_deal or partie.finished):  # words after the deal's end: none
            out.append((step, seat, word, legal))
        partie.apply(seat, word)
    return out


def check_rows(record: dict, k: int, analysis: dict) -> None:
    rows = analysis["rows"]
    expected = decisions(record, k)
    assert [(r["step"], r["seat"], r["word"], r["choices"]) for r in rows] == \
        [(step, seat, word, len(legal)) for step, seat, word, legal in expected]
    for row, (_, _, word, legal) in zip(rows, expected):
        if row["values"] is None:
            assert row["best"] is None and row["saved"] is None and not row["mistake"]
            continue
        values = row["values"]
        if "unit" in row:  # another unit than the cards' (preferans' bids...): the word said and some others
            assert row["unit"] == "points" and word in values and set(values) - {word} <= set(legal), (row, legal)
        else:  # every card (Libyan kitty: every card word) is valued, never another word (a claim)
            assert sorted(values) == sorted(w for w in legal if w in CARD_BY_NAME or w.startswith("kitty "))
        assert row["best"] in legal or row["best"] == word
        low = min(values.values())
        assert values[row["best"]] == low
        assert row["saved"] == values[word] - low >= 0
        # 0 exactly when the word said was a best one (the oracle's or one tied with it)
        assert (row["saved"] == 0) == (word == row["best"] or values[word] == values[row["best"]])
        assert (row["best"] == word) == (values[word] == low)
    for unit in {r.get("unit") for r in rows}:  # the biggest mistakes of each unit
        in_unit = [r for r in rows if r.get("unit") == unit]
        marked = [r for r in in_unit if r["mistake"]]
        losing = sorted((r for r in in_unit if r["saved"]), key=lambda r: -r["saved"])
        assert len(marked) == min(MISTAKES, len(losing))
        assert all(r["saved"] > 0 for r in marked)
        if marked and len(losing) > len(marked):
            assert min(r["saved"] for r in marked) >= losing[len(marked)]["saved"]
    lost = [0.0] * len(analysis["lost"])
    other: dict[str, list[float]] = {}
    for r in rows:
        sums = lost if "unit" not in r else other.setdefault(r["unit"], [0.0] * len(lost))
        sums[r["seat"]] += r["saved"] or 0
    assert analysis.get("lost_other", {}) == {u: x for u, x in other.items() if any(r["saved"] for r in rows if r.get("unit") == u)}
    assert analysis["lost"] == lost and analysis["players"] == record["players"]
