"""Open-cards solver for contract 7 (the layout).

Every seat is assumed to play for its own points (max-n: the player to move picks the
card that is best for himself; among equally good cards he picks the one worst for me).
Turns are mostly forced in the layout, so an exact search with a memo over the four
hand masks and the turn is affordable from the middle of a deal on. The next playable
cards follow from the cards already played, so they need not be in the key.

A house rule's layout scores by its own line (``ContractRule.layout``): where a ``dalje``
costs (V6, V9) the key also carries the dalje each seat said since the root, because the
first out may be let off his own (Croatian Lora) and the points then depend on the path.
"""

from __future__ import annotations

from app.games.lora.contracts import N_SEATS
from app.games.cards import cards_of as _bits

from app.ai.common.search import SearchAborted

Points = tuple[int, int, int, int]
# The Club's layout: (first out, per card left, per dalje, whether the first out pays his dalje).
CLUB_SCORING = (-8, 1, 0, False)
PASS_BITS = 6  # a seat's dalje since the root (fewer than 32 in a deal)


class LayoutSolver:
    """``scoring``: the contract's layout line; ``passes``: each seat's ``dalje`` so far;
    ``sign`` -1 where positive points are good (the search minimizes ``sign * points``)."""

    def __init__(self, me: int, start_rank: int | None, node_limit: int | None = None,
                 scoring: tuple[int, int, int, bool] = CLUB_SCORING, passes: list[int] | None = None, sign: int = 1):
        self.me = me
        self.start = start_rank
        self.memo: dict[int, Points] = {}
        self.nodes = 0
        self.node_limit = node_limit
        self.scoring = scoring
        self.counts_passes = scoring[2] != 0
        self.passes = list(passes or [0] * N_SEATS)
        self.sign = sign

    def move_values(self, hands: list[int], next_cards: int) -> dict[int, int]:
        """My final points after each card I may play now (I am to move and not blocked)."""
        me = self.me
        hand = hands[me]
        values: dict[int, int] = {}
        if self.start is None:
            for c in _bits(hand):
                solver = LayoutSolver(me, c & 7, self.node_limit, self.scoring, self.passes, self.sign)
                solver.nodes = self.nodes
                start_next = sum(1 << (s * 8 + (c & 7)) for s in range(N_SEATS))
                values[c] = solver._after_play(list(hands), start_next, me, c, 0)[me]
                self.nodes = solver.nodes
            return values
        for c in _bits(hand & next_cards):
            values[c] = self._after_play(list(hands), next_cards, me, c, 0)[me]
        return values

    def _out(self, hands: list[int], out_seat: int, passed: int) -> Points:
        """Every seat's cost when ``out_seat`` plays his last card (``passed``: the packed
        dalje since the root)."""
        out, per_card, per_dalje, out_pays = self.scoring
        points = []
        for s in range(N_SEATS):
            dalje = per_dalje * (self.passes[s] + ((passed >> (PASS_BITS * s)) & ((1 << PASS_BITS) - 1)))
            if s == out_seat:
                points.append(self.sign * (out + (dalje if out_pays else 0)))
            else:
                points.append(self.sign * (per_card * hands[s].bit_count() + dalje))
        return tuple(points)  # type: ignore[return-value]

    def _after_play(self, hands: list[int], next_cards: int, seat: int, c: int, passed: int) -> Points:
        hand = hands[seat] & ~(1 << c)
        if not hand:
            return self._out(hands, seat, passed)
        succ = (c & ~7) | (((c & 7) + 1) & 7)
        nxt = next_cards & ~(1 << c)
        if (succ & 7) != self.start:
            nxt |= 1 << succ
        hands[seat] = hand
        return self._node(hands, nxt, (seat + 1) % N_SEATS, passed)

    def _node(self, hands: list[int], next_cards: int, seat: int, passed: int) -> Points:
        # skip the seats that must say dalje
        while not hands[seat] & next_cards:
            if self.counts_passes:
                passed += 1 << (PASS_BITS * seat)
            seat = (seat + 1) % N_SEATS
        key = hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96 | seat << 128 | passed << 130
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
            v = self._after_play(list(hands), next_cards, seat, low.bit_length() - 1, passed)
            if best is None or v[seat] < best[seat] or (v[seat] == best[seat] and seat != me and v[me] > best[me]):
                best = v
        assert best is not None
        self.memo[key] = best
        return best
