"""The open-cards trick search of Libyan Lora (rulings V10-V12): three or four seats, 8 or
10 tricks, the kitty of one world, and my cost by the contract's own points and bets.

It is :class:`~app.ai.tricks.trick_solver.TrickSolver`'s alpha-beta (me against the rest)
with the context a Libyan deal's points depend on: the tricks of the seats whose counts
matter (mine; every seat's in dvojica and where I said kontra to a bet on tricks), the
winner of the 6th (8th) trick in ``sesti``, and who took each scoring card still in play.
The deal ends where the engine's deal ends (the scoring cards taken, but the kitty's; the
stop trick; a pair in dvojica), and :class:`~app.ai.lora.libyan.LibyanScorer` gives the
value there. Hands are four masks; a three-seat table's fourth is empty.
"""

from __future__ import annotations

from app.games.cards import cards_of

from app.ai.common.tricks import winner_index
from app.ai.lora.knowledge import LoraKnowledge
from app.ai.lora.libyan import LibyanScorer, bet_targets, counts_tricks, early_end_mask, n_tricks, thumb_contract
from app.ai.tricks.trick_solver import TrickSolver

BOUND = 256  # a deal's points and every bet that may touch me lie well inside +-BOUND
NOBODY = 7
COUNT_BITS = 4
OWNER_BITS = 3


class LibyanSolver(TrickSolver):
    def __init__(self, know: LoraKnowledge, kitty: int, node_limit: int | None = None):
        rule = know.libyan
        assert rule is not None
        me = know.seat
        super().__init__(thumb_contract(rule, know.trick_counts[me], bet_targets(know)[me]), me, node_limit)
        self.know = know
        self.rule = rule
        self.n = know.n
        self.n_tricks = n_tricks(know.n)
        self.scorer = LibyanScorer(know, kitty)
        self.special = rule.penalty | rule.ends_when_taken
        self.end_mask = early_end_mask(rule, kitty)
        taken_before = 0
        for t in know.taken:
            taken_before |= t
        self.taken_before = taken_before & self.special
        self.open_cards = [c for c in cards_of(self.special & ~kitty) if not (taken_before >> c) & 1]
        # whose trick counts the context carries (mine first)
        others_count = rule.pair or (counts_tricks(rule) and any(b.seat != me for b in self.scorer.bets))
        self.count_seats = [me] + ([s for s in range(know.n) if s != me] if others_count else [])
        self.stop_shift = COUNT_BITS * len(self.count_seats)
        self.owner_shift = self.stop_shift + OWNER_BITS
        self.open_index = {c: i for i, c in enumerate(self.open_cards)}
        self.root_ctx = NOBODY << self.stop_shift | sum(
            NOBODY << (self.owner_shift + OWNER_BITS * i) for i in range(len(self.open_cards)))
        self.finals: dict[int, int] = {}

    def _pack_ctx(self, ctx: tuple[int, int]) -> int:
        return self.root_ctx

    def _trick_node(self, hands: list[int], leader: int, hctx: int, alpha: int, beta: int) -> int:
        key = hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96 | leader << 128 | hctx << 130
        return self._bounded(key, -BOUND, BOUND, alpha, beta, hands, leader, hctx)

    def _finish_trick(self, hands: list[int], leader: int, cards: list[int], hctx: int, alpha: int, beta: int) -> int:
        n = self.n
        winner = (leader + winner_index(cards)) % n
        if winner in self.count_seats:
            hctx += 1 << (COUNT_BITS * self.count_seats.index(winner))
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        done = self.n_tricks - remaining.bit_count() // n
        stop = self.rule.stop_after
        ended = not remaining
        if stop and done == stop:
            hctx = (hctx & ~(NOBODY << self.stop_shift)) | winner << self.stop_shift
            ended = True
        took_open = False
        for c in cards:
            i = self.open_index.get(c)
            if i is not None:
                shift = self.owner_shift + OWNER_BITS * i
                hctx = (hctx & ~(NOBODY << shift)) | winner << shift
                took_open = True
        if not ended and took_open and self.end_mask:
            ended = self._taken(hctx) & self.end_mask == self.end_mask
        if not ended and self.rule.pair:
            ended = self._pair_made(hctx)
        if ended:
            return self._final(hctx, winner, done)
        return self._trick_node(hands, winner, hctx, alpha, beta)

    def _taken(self, hctx: int) -> int:
        """The scoring cards taken by anyone so far."""
        taken = self.taken_before
        for i, c in enumerate(self.open_cards):
            if (hctx >> (self.owner_shift + OWNER_BITS * i)) & NOBODY != NOBODY:
                taken |= 1 << c
        return taken

    def _counts(self, hctx: int) -> list[int]:
        counts = list(self.know.trick_counts)
        for i, s in enumerate(self.count_seats):
            counts[s] += (hctx >> (COUNT_BITS * i)) & ((1 << COUNT_BITS) - 1)
        return counts

    def _pair_made(self, hctx: int) -> bool:
        pair = self.rule.pair
        return sum(1 for k in self._counts(hctx) if k >= pair) >= 2

    def _final(self, hctx: int, last_winner: int, done: int) -> int:
        """My cost when the deal ends here."""
        memo_key = hctx << 8 | last_winner << 4 | done
        hit = self.finals.get(memo_key)
        if hit is not None:
            return hit
        taken = list(self.know.taken)
        for i, c in enumerate(self.open_cards):
            owner = (hctx >> (self.owner_shift + OWNER_BITS * i)) & NOBODY
            if owner != NOBODY:
                taken[owner] |= 1 << c
        winners = [last_winner] * done
        stop = self.rule.stop_after
        if stop and done >= stop:
            winners[stop - 1] = (hctx >> self.stop_shift) & NOBODY
        value = self.scorer.cost(taken, self._counts(hctx), winners)
        self.finals[memo_key] = value
        return value
