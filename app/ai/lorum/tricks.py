"""Lórum's trick contracts on open cards: the exact search and the rule-based playouts.

The search is the trick games' search of a contract's own points (:class:`~app.ai.tricks.rule_solver.RuleSolver`:
me against the rest, alpha-beta, the owner of every scoring card in the context, the
contract's own payments at the end) with :data:`~app.ai.lorum.knowledge.TRICK_CONTRACT_RULES`.
No tricks pays by who stayed clean, so its context also holds the seats that took a
trick in the search. Values are my cost for the whole deal (chips paid, minus won).
"""

from __future__ import annotations

from types import SimpleNamespace

from app.games.tricks.contracts import N_SEATS
from app.games.lorum.contracts import LorumContract

from app.ai.common.tricks import winner_index
from app.ai.tricks.rule_solver import RuleSolver
from app.ai.tricks.playout import rule_tricks
from app.ai.lorum.knowledge import LorumKnowledge


class LorumTrickSolver(RuleSolver):
    def __init__(self, know: LorumKnowledge, node_limit: int | None = None):
        super().__init__(know, node_limit)
        # No tricks: bit ``takers + s`` of the context is set once seat s takes a trick
        self.takers = 7 + 3 * len(self.open_cards) if know.lorum is LorumContract.NO_TRICKS else None

    def _finish_trick(self, hands: list[int], leader: int, cards: list[int], hctx: int, alpha: int, beta: int) -> int:
        if self.takers is not None:
            hctx |= 1 << (self.takers + (leader + winner_index(cards)) % N_SEATS)
        return super()._finish_trick(hands, leader, cards, hctx, alpha, beta)

    def _final(self, hctx: int, last_winner: int, done: int) -> int:
        if self.takers is None:
            return super()._final(hctx, last_winner, done)
        # My payment depends on my tricks and on who else took any, not on how many.
        know = self.know
        counts = [int(bool(know.trick_counts[s] or (hctx >> (self.takers + s)) & 1)) for s in range(N_SEATS)]
        counts[self.me] = know.trick_counts[self.me] + (hctx & 15)
        assert know.rule is not None and know.rule.score is not None
        return know.rule.score(SimpleNamespace(taken=know.taken, trick_counts=counts, tricks=()))[self.me]


def trick_playout_cost(know: LorumKnowledge, hands: list[int], card: int) -> int:
    """My cost for the deal when I play ``card`` now and everybody goes on by the rules of
    ``pocetnik`` (until the payments can no longer change)."""
    rule = know.rule
    assert rule is not None and rule.score is not None
    ends = rule.ends_when_taken
    taken = list(know.taken)
    counts = list(know.trick_counts)
    gone = taken[0] | taken[1] | taken[2] | taken[3]
    last = -1
    for last, trick, _ in rule_tricks(rule.plays_like, know.seat, hands, know.trick, card):
        taken[last] |= trick
        counts[last] += 1
        gone |= trick
        if ends and gone & ends == ends:
            break
    return rule.score(SimpleNamespace(taken=taken, trick_counts=counts, tricks=((0, (), last),)))[know.seat]
