"""Worlds for the open-hand checks: deals of the unseen cards, and what a contract is worth
in them (the declarer's make probability with every card open)."""

from __future__ import annotations

import random
from collections.abc import Callable

from app.ai.common.search import SearchAborted
from app.ai.preferans.solver import PlaySolver, RuleDefenceSolver

World = list[int]  # [hand0, hand1, hand2, pile]
ALL_SEATS = (0, 1, 2)
IMPERFECT = 0.85  # a make against rule defence only (not against perfect defence); 0.7 left majstor making 0.97 of 97 declared hands and the oracle never declaring such a hand
IMPERFECT_BETL = 0.5
RULE_NODES = 20_000


class NodeBudget:
    """Search nodes one decision may still spend; an exhausted budget falls back to estimates."""

    def __init__(self, total: int, per_solve: int):
        self.left = total
        self.per_solve = per_solve

    def take(self) -> int:
        return min(self.left, self.per_solve)

    def spend(self, nodes: int) -> None:
        self.left -= nodes


def makes(hands: list[int], declarer: int, trump: int | None, betl: bool, leader: int,
          budget: NodeBudget, fallback: float, target: int = 6) -> float:
    """How surely the declarer makes it in this world (betl: takes no trick; else at least
    ``target`` tricks), the defence judged twice: by the rules (``RuleDefenceSolver``, cheap)
    and perfectly with every card open (exact, within the budget). 0.0 if he fails even
    against the rule defence (perfect defence can do no worse for him), 1.0 if he makes it
    against perfect defence, ``IMPERFECT`` if only against the rules: real defenders do not
    see the cards, so an open-hand defence underrates a contract. ``fallback`` (the hand
    evaluation) weighs a rule-defence make when the exact search runs out of budget."""
    rule = RuleDefenceSolver(ALL_SEATS, declarer, trump, betl, node_limit=RULE_NODES)
    try:
        if betl:
            if rule.reaches(hands, leader, 1):
                return 0.0
        elif not rule.reaches(hands, leader, target):
            return 0.0
    except SearchAborted:
        pass
    limit = budget.take()
    if limit <= 0:
        return max(fallback, IMPERFECT)
    solver = PlaySolver(ALL_SEATS, declarer, trump, betl, node_limit=limit)
    try:
        if betl:
            return IMPERFECT_BETL if solver.reaches(hands, leader, 1) else 1.0
        return 1.0 if solver.reaches(hands, leader, target) else IMPERFECT
    except SearchAborted:
        return max(fallback, IMPERFECT)
    finally:
        budget.spend(solver.nodes)


def conditioned(draw: Callable[[random.Random], World], fits: Callable[[World], float], rng: random.Random,
                n: int, tries: int) -> list[World]:
    """``n`` worlds, preferring those whose ``fits`` score is positive (what the auction
    said about the hidden hands); the best-scoring rejects fill up when too few fit."""
    kept: list[World] = []
    rejected: list[tuple[float, int, World]] = []
    for i in range(tries):
        w = draw(rng)
        score = fits(w)
        if score > 0:
            kept.append(w)
            if len(kept) == n:
                return kept
        else:
            rejected.append((score, -i, w))
    rejected.sort(reverse=True)
    return kept + [w for _, _, w in rejected[: n - len(kept)]]
