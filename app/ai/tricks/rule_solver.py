"""The open-cards trick search with a contract's own points (Lora's house rules, V4, V7,
V9; Lórum's payments).

:class:`~app.ai.tricks.trick_solver.TrickSolver` scores the Club's contracts trick by
trick. A house contract's points may depend on the whole deal (all four queens, the
king and the last trick by one player, an exact prediction), so this search carries
what the points depend on in its context (my tricks, the winner of the 6th trick, who
took each scoring card still in play) and, at the end of the deal, asks the contract's
own point function. The value is my cost: my points, or minus them where the highest
total wins.
"""

from __future__ import annotations

from types import SimpleNamespace

from app.games.cards import cards_of
from app.games.tricks.contracts import N_SEATS

from app.ai.common.tricks import winner_index
from app.ai.tricks.knowledge import TrickKnowledge
from app.ai.tricks.trick_solver import TrickSolver

BOUND = 64  # every house contract's points lie well inside +-BOUND
NOBODY = 7
SIXTH = 6


class RuleSolver(TrickSolver):
    def __init__(self, know: TrickKnowledge, node_limit: int | None = None):
        super().__init__(know.contract, know.seat, node_limit)
        rule = know.rule
        assert rule is not None and rule.score is not None
        self.know = know
        self.score = rule.score
        self.sign = know.sign
        self.ends_when_taken = rule.ends_when_taken
        self.min_tricks = rule.min_tricks
        self.special = rule.penalty | rule.ends_when_taken
        taken_before = know.taken[0] | know.taken[1] | know.taken[2] | know.taken[3]
        self.open_cards = [c for c in cards_of(self.special) if not (taken_before >> c) & 1]
        self.taken_before = taken_before & self.special
        self.sixth_before = NOBODY  # filled in by the caller's history when known
        self.root_ctx = NOBODY << 4 | sum(NOBODY << (7 + 3 * i) for i in range(len(self.open_cards)))

    def _pack_ctx(self, ctx: tuple[int, int]) -> int:
        return self.root_ctx

    def _trick_node(self, hands: list[int], leader: int, hctx: int, alpha: int, beta: int) -> int:
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        done = 8 - remaining.bit_count() // N_SEATS
        if not remaining or (
            self.ends_when_taken and done >= self.min_tricks and self._taken(hctx) & self.ends_when_taken == self.ends_when_taken
        ):
            return self._final(hctx, leader, done)
        key = hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96 | leader << 128 | hctx << 130
        return self._bounded(key, -BOUND, BOUND, alpha, beta, hands, leader, hctx)

    def _finish_trick(self, hands: list[int], leader: int, cards: list[int], hctx: int, alpha: int, beta: int) -> int:
        winner = (leader + winner_index(cards)) % N_SEATS
        if winner == self.me:
            hctx += 1
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        if 8 - remaining.bit_count() // N_SEATS == SIXTH:
            hctx = (hctx & ~(7 << 4)) | winner << 4
        for i, c in enumerate(self.open_cards):
            if c in cards:
                hctx = (hctx & ~(7 << (7 + 3 * i))) | winner << (7 + 3 * i)
        return self._trick_node(hands, winner, hctx, alpha, beta)

    def _taken(self, hctx: int) -> int:
        taken = self.taken_before
        for i, c in enumerate(self.open_cards):
            if (hctx >> (7 + 3 * i)) & 7 != NOBODY:
                taken |= 1 << c
        return taken

    def _final(self, hctx: int, last_winner: int, done: int) -> int:
        """My cost when the deal ends here, by the contract's own point function."""
        know = self.know
        taken = list(know.taken)
        for i, c in enumerate(self.open_cards):
            owner = (hctx >> (7 + 3 * i)) & 7
            if owner != NOBODY:
                taken[owner] |= 1 << c
        counts = list(know.trick_counts)
        counts[self.me] += hctx & 15
        sixth = (hctx >> 4) & 7
        if sixth == NOBODY:
            sixth = self.sixth_before
        tricks = [(0, (), sixth if i == SIXTH - 1 else last_winner) for i in range(done)]
        deal = SimpleNamespace(contract=know.rule.plays_like if know.rule else None, taken=taken, trick_counts=counts, tricks=tricks, predictions=know.predictions)
        return self.sign * self.score(deal)[self.me]
