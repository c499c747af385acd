"""Worlds for the open-hand checks: deals of the unseen cards, and what a contract is worth
in them (the declarer's make probability with every card open)."""

from __future__ import annotations

import random
from collections.abc import Callable

from app.ai.preferans.solver import PlaySolver, SearchAborted

World = list[int]  # [hand0, hand1, hand2, pile]
ALL_SEATS = (0, 1, 2)
SHORT_BY_ONE = 0.5


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
    """1.0 if the declarer makes it with every card open (betl: takes no trick; else at least
    ``target`` tricks), 0.0 if not, ``fallback`` when the search budget runs out. One trick
    short counts half: defenders who do not see the cards often give that trick away."""
    limit = budget.take()
    if limit <= 0:
        return fallback
    solver = PlaySolver(ALL_SEATS, declarer, trump, betl, node_limit=limit)
    try:
        if betl:
            return 0.0 if solver.reaches(hands, leader, 1) else 1.0
        if solver.reaches(hands, leader, target):
            return 1.0
        return SHORT_BY_ONE if solver.reaches(hands, leader, target - 1) else 0.0
    except SearchAborted:
        return fallback
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
