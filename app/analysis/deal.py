"""The analysis of one deal of a partie record: a pure function, run in a worker process.

Each decision with a choice (more than one legal word) becomes a row: the seat, the word
it said, the best word by the game's open-cards values and the points that word would
have saved (the said word's value minus the best one's, in the seat's points: 0 when
the word said was a best one). The three rows that lost most are the deal's mistakes;
``lost`` is each seat's sum.

A game may value some decisions in another unit than its cards (preferans: its bids,
škart, contract and follow words in points of the result, its cards in tricks): such a
row says its ``unit``, its losses are summed apart (``lost_other[unit]``) and the three
biggest mistakes are marked in each unit. Words said after the deal's end (an otpis and
its answers, logged with the ended deal) and words that are no seat's choice (a
tournament round's deadline, ``descriptor.deadline_word``) are no decisions: no rows.
"""

from __future__ import annotations

from typing import Any

from app.ai.registry import open_values_of
from app.games.records import deal_pile
from app.games.registry import descriptor

MISTAKES = 3  # the rows marked as the deal's biggest mistakes (those that lost points)
# Stamped on every analysis: raise it when the computer players value decisions anew, and
# the analyses kept from before are computed again when next asked for (app.analysis.service).
# 1: Lora (no stamp); 2: Lórum's search players and its analysis; 3: preferans' bids, škart,
# contract and follow words valued, ended deals of running parties.
ANALYSIS_VERSION = 3


def analyse_deal(record: dict[str, Any], k: int) -> dict[str, Any]:
    """The rows of deal ``k`` of a record whose deals up to ``k`` have ended (the later
    ones are not read); ``step`` is the replay's step of the word (1: the deal's first action)."""
    game = descriptor(record["game"])
    values_of = open_values_of(game.code)
    if values_of is None:
        raise ValueError(f"{game.code} has no analysis")
    engine = game.engine.new(record.get("settings") or {})
    deals = record["deals"]
    for d in deals[:k]:
        engine.start_deal(d["hands"], deal_pile(engine, d))
        for seat, word in d["actions"]:
            engine.apply(seat, word)
    d = deals[k]
    engine.start_deal(d["hands"], deal_pile(engine, d))
    rows: list[dict[str, Any]] = []
    for step, (seat, word) in enumerate(d["actions"], 1):
        legal = list(engine.legal_actions(seat))
        # a word no seat chooses (a round's deadline, said by the server) is no decision
        if len(legal) > 1 and word in legal and not (engine.needs_deal or engine.finished):
            rows.append(decision_row(step, seat, word, legal, values_of(engine, seat, legal, word)))
        engine.apply(seat, word)
    lost = [0.0] * engine.n_seats
    lost_other: dict[str, list[float]] = {}
    for row in rows:
        if row["saved"]:
            unit = row.get("unit")
            sums = lost if unit is None else lost_other.setdefault(unit, [0.0] * engine.n_seats)
            sums[row["seat"]] += row["saved"]
    for unit in (None, *lost_other):
        in_unit = (r for r in rows if r["saved"] and r.get("unit") == unit)
        for row in sorted(in_unit, key=lambda r: (-r["saved"], r["step"]))[:MISTAKES]:
            row["mistake"] = True
    out = {"game": game.code, "deal": k, "players": list(record.get("players") or []), "rows": rows, "lost": lost,
           "version": ANALYSIS_VERSION}
    if lost_other:
        out["lost_other"] = lost_other
    return out


def decision_row(step: int, seat: int, word: str, legal: list[str], values: dict[str, float] | None) -> dict[str, Any]:
    """One decision: without values (not analysed) ``best`` and ``saved`` are None; with
    ties the word said is the best when it is one of them, else the first in legal order."""
    row: dict[str, Any] = {"step": step, "seat": seat, "word": word, "choices": len(legal), "best": None,
                           "saved": None, "values": None, "mistake": False}
    if values is None or word not in values:
        return row
    low = min(values.values())
    best = word if values[word] == low else next(w for w in legal if values.get(w) == low)
    row.update(best=best, saved=values[word] - low, values=dict(values))
    unit = getattr(values, "unit", None)
    if unit is not None:
        row["unit"] = unit
    return row
