"""Mining: the problems of one ended deal, from its analysis (pure, run in a worker).

A decision the replay's analysis valued (:func:`app.analysis.deal.analyse_deal`) is a
problem when, by its game's rules (``descriptor.problems``, app/games/problems.py), the
word said lost at least the threshold against the best and the best beats every other
valued word by the margin: a best that is not unique within the margin is no problem.
The problem keeps the position before the word as the replay shows it (every hand face
up, the table, the words said so far in the deal, the score), the question, each
choice's value, and the line's next step (the best word, and the answer it meets: the
next seat's best word by the same values).

Where the analysis values only some of the legal words (preferans' škart: the one said
and the hand evaluation's candidates), the problem's choices are the valued words
(docs/rulings.md, "Problems").
"""

from __future__ import annotations

import copy
import time
from typing import Any

from app.ai.registry import open_values_of
from app.analysis.deal import analyse_deal
from app.games.records import deal_pile
from app.games.registry import descriptor

MINING_VERSION = 1


def clear_lead(values: dict[str, float]) -> tuple[str, float] | None:
    """The best word (lowest value) and its lead over the second best; None with fewer
    than two values."""
    if len(values) < 2:
        return None
    ranked = sorted(values.items(), key=lambda kv: kv[1])
    return ranked[0][0], ranked[1][1] - ranked[0][1]


def is_problem(row: dict[str, Any], game: Any) -> tuple[float, float] | None:
    """(lost, lead) when the analysis row is a clear problem by the game's margins."""
    rules = game.problems
    values = row.get("values")
    if rules is None or not values or row.get("saved") is None:
        return None
    margin = rules.margin_of(row.get("unit"))
    lead = clear_lead(values)
    if margin is None or lead is None:
        return None
    best, gap = lead
    lost = values[row["word"]] - values[best] if row["word"] in values else None
    if lost is None or lost < margin.threshold or gap < margin.margin:
        return None
    return lost, gap


def engine_at_deal(record: dict[str, Any], k: int) -> Any:
    """The record's engine at the start of deal ``k`` (the deals before it replayed)."""
    game = descriptor(record["game"])
    engine = game.engine.new(record.get("settings") or {})
    for d in record["deals"][:k]:
        engine.start_deal(d["hands"], deal_pile(engine, d))
        for seat, word in d["actions"]:
            engine.apply(seat, word)
    d = record["deals"][k]
    engine.start_deal(d["hands"], deal_pile(engine, d))
    return engine


def problems_of(record: dict[str, Any], k: int, analysis: dict[str, Any]) -> list[dict[str, Any]]:
    """The problems of deal ``k`` of a record, by its analysis' rows."""
    game = descriptor(record["game"])
    if game.problems is None:
        return []
    found = {row["step"]: (row, clear) for row in analysis.get("rows") or [] if (clear := is_problem(row, game))}
    if not found:
        return []
    settings = record.get("settings") or {}
    engine = engine_at_deal(record, k)
    actions = record["deals"][k]["actions"]
    out: list[dict[str, Any]] = []
    for step, (seat, word) in enumerate(actions, 1):
        if step in found:
            row, (lost, gap) = found[step]
            out.append(_problem(game, engine, settings, record, k, step, row, lost, gap, actions[: step - 1]))
        engine.apply(seat, word)
    return out


def _problem(game: Any, engine: Any, settings: dict[str, Any], record: dict[str, Any], k: int, step: int,
             row: dict[str, Any], lost: float, gap: float, before: list[Any]) -> dict[str, Any]:
    seat = row["seat"]
    legal = list(engine.legal_actions(seat))
    values = {w: row["values"][w] for w in legal if w in row["values"]}
    best = min(values, key=lambda w: values[w])
    decision = game.problems.describe(engine, seat, legal, settings)
    result = engine.result() or {}
    return {
        "deal": k, "step": step, "seat": seat, "played": row["word"], "best": best,
        "unit": row.get("unit") or game.analysis_unit, "lost": lost, "margin": gap,
        "theme": decision.theme,
        "data": {
            "question": {"sr": decision.question.sr, "en": decision.question.en},
            "theme_name": {"sr": decision.theme_name.sr, "en": decision.theme_name.en},
            "values": values, "legal": legal, "partial": len(values) < len(legal),
            "players": list(record.get("players") or []), "settings": settings,
            "position": {"hands": game.replay_hands(engine), "table": game.replay_table(engine),
                         "said": [list(a) for a in before], "score": result.get("totals")},
            "line": line_after(engine, seat, best),
        },
    }


def line_after(engine: Any, seat: int, best: str) -> list[list[Any]]:
    """The line's next step: the best word, and the next seat's best answer to it (by the
    same open-cards values); just the best word when the answer is none or not valued."""
    line: list[list[Any]] = [[seat, best]]
    try:
        after = copy.deepcopy(engine)
        after.apply(seat, best)
        if after.finished or after.needs_deal or not after.seats_to_act():
            return line
        nxt = after.seats_to_act()[0]
        legal = list(after.legal_actions(nxt))
        if len(legal) == 1:
            return [*line, [nxt, legal[0]]]
        values_of = open_values_of(engine.view(None).get("game") or "")
        values = values_of(after, nxt, legal, legal[0]) if values_of else None
        if values:
            line.append([nxt, min(values, key=lambda w: values[w])])
    except Exception:  # the line is a help, never a reason to lose the problem
        return line
    return line


def mine_deal(record: dict[str, Any], k: int, analysis: dict[str, Any] | None = None) -> dict[str, Any]:
    """The worker's job: deal ``k``'s analysis (computed unless given: then ``analysis`` in
    the answer is None) and its problems, with the seconds each took."""
    t0 = time.perf_counter()
    computed = None
    if analysis is None:
        analysis = computed = analyse_deal(record, k)
    t1 = time.perf_counter()
    problems = problems_of(record, k, analysis)
    return {"deal": k, "analysis": computed, "problems": problems,
            "seconds": {"analysis": t1 - t0, "mining": time.perf_counter() - t1}}
