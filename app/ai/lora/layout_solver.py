"""Open-cards solver for contract 7 (the layout).

Every seat is assumed to play for its own points (max-n: the player to move picks the
card that is best for himself; among equally good cards he picks the one worst for me).
Turns are mostly forced in the layout, so an exact search with a memo over the four
hand masks and the turn is affordable from the middle of a deal on. The next playable
cards follow from the cards already played, so they need not be in the key.
"""

from __future__ import annotations

from app.games.lora.contracts import N_SEATS
from app.games.cards import cards_of as _bits

from app.ai.common.search import SearchAborted

Points = tuple[int, int, int, int]


class LayoutSolver:
    def __init__(self, me: int, start_rank: int | None, node_limit: int | None = None):
        self.me = me
        self.start = start_rank
        self.memo: dict[int, Points] = {}
        self.nodes = 0
        self.node_limit = node_limit

    def move_values(self, hands: list[int], next_cards: int) -> dict[int, int]:
        """My final points after each card I may play now (I am to move and not blocked)."""
        me = self.me
        hand = hands[me]
        values: dict[int, int] = {}
        if self.start is None:
            for c in _bits(hand):
                solver = LayoutSolver(me, c & 7, self.node_limit)
                solver.nodes = self.nodes
                start_next = sum(1 << (s * 8 + (c & 7)) for s in range(N_SEATS))
                values[c] = solver._after_play(list(hands), start_next, me, c)[me]
                self.nodes = solver.nodes
            return values
        for c in _bits(hand & next_cards):
            values[c] = self._after_play(list(hands), next_cards, me, c)[me]
        return values

    def _after_play(self, hands: list[int], next_cards: int, seat: int, c: int) -> Points:
        hand = hands[seat] & ~(1 << c)
        if not hand:
            return tuple(-8 if s == seat else hands[s].bit_count() for s in range(N_SEATS))  # type: ignore[return-value]
        succ = (c & ~7) | (((c & 7) + 1) & 7)
        nxt = next_cards & ~(1 << c)
        if (succ & 7) != self.start:
            nxt |= 1 << succ
        hands[seat] = hand
        return self._node(hands, nxt, (seat + 1) % N_SEATS)

    def _node(self, hands: list[int], next_cards: int, seat: int) -> Points:
        # skip the seats that must say dalje
        while not hands[seat] & next_cards:
            seat = (seat + 1) % N_SEATS
        key = hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96 | seat << 128
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchAborted
        playable = hands[seat] & next_cards
        me = self.me
        best: Points | None = None
        while playable:
            low = playable & -playable
            playable ^= low
            v = self._after_play(list(hands), next_cards, seat, low.bit_length() - 1)
            if best is None or v[seat] < best[seat] or (v[seat] == best[seat] and seat != me and v[me] > best[me]):
                best = v
        assert best is not None
        self.memo[key] = best
        return best
