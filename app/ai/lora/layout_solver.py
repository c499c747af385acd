"""Open-cards solver for contract 7 (the layout).

Every seat is assumed to play for its own points (max-n: the player to move picks the
card that is best for himself; among equally good cards he picks the one worst for me).
Turns are mostly forced in the layout, so an exact search with a memo over the four
hand masks and the turn is affordable from the middle of a deal on. The next playable
cards follow from the cards already played, so they need not be in the key.

A house rule's layout scores by its own line (``ContractRule.layout``): where a ``dalje``
costs (V6, V9) the key also carries the dalje each seat said since the root, because the
first out may be let off his own (Croatian Lora) and the points then depend on the path.

Libyan Lora (V10-V12) adds: three seats, with the kitty as a fourth place just before
the dealer, who picks its card (by his own points; the kitty's ``dalje`` costs nobody,
and the kitty never goes out); all points doubled when the card that ends the deal has
the first card's rank; and the bets on the ``dalje`` counts, settled in the points.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.lora.bets import Bet
from app.games.tricks.contracts import N_SEATS
from app.games.cards import cards_of as _bits

from app.ai.common.search import NodeBudget, maxn_prefers

Points = tuple[int, ...]  # every seat's cost
# The Club's layout: (first out, per card left, per dalje, whether the first out pays his dalje).
CLUB_SCORING = (-8, 1, 0, False)
PASS_BITS = 6  # a seat's dalje since the root (fewer than 32 in a deal)
PLACES = 4  # the memo key holds four places: the seats, and a three-seat table's kitty
SUITS = 4


class LayoutSolver(NodeBudget):
    """``scoring``: the contract's layout line; ``passes``: each seat's ``dalje`` so far;
    ``sign`` -1 where positive points are good (the search minimizes ``sign * points``);
    ``n``: the seats; ``dealer``: with a kitty, the seat who plays for it (its place comes
    just before his); ``doubles``: Libyan Lora's doubling; ``bets``: bets on the dalje counts."""

    def __init__(self, me: int, start_rank: int | None, node_limit: int | None = None,
                 scoring: tuple[int, int, int, bool] = CLUB_SCORING, passes: list[int] | None = None, sign: int = 1,
                 n: int = N_SEATS, dealer: int | None = None, doubles: bool = False, bets: Sequence[Bet] = ()):
        super().__init__(node_limit)
        self.me = me
        self.start = start_rank
        self.memo: dict[int, Points] = {}
        self.scoring = scoring
        self.n = n
        self.dealer = dealer
        self.doubles = doubles
        self.bets = list(bets)
        self.counts_passes = scoring[2] != 0 or bool(self.bets)
        self.passes = list(passes or [0] * n)
        self.sign = sign
        self.kitty_place = n if dealer is not None else -1
        # who plays after each place: the kitty's place sits between the dealer's left-hand
        # neighbour and the dealer
        self.after = [(s + 1) % n for s in range(n)] + [0] * (PLACES - n)
        if dealer is not None:
            self.after[(dealer - 1) % n] = self.kitty_place
            self.after[self.kitty_place] = dealer

    def _child(self, start_rank: int) -> LayoutSolver:
        """The same search once the first card has fixed the start rank."""
        child = LayoutSolver(self.me, start_rank, self.node_limit, self.scoring, self.passes, self.sign,
                             self.n, self.dealer, self.doubles, self.bets)
        child.nodes = self.nodes
        return child

    def places(self, hands: Sequence[int], kitty: int = 0) -> list[int]:
        """The four places of the key: the hands, the kitty (with one), empty ones after."""
        out = list(hands) + ([kitty] if self.dealer is not None else [])
        return out + [0] * (PLACES - len(out))

    def move_values(self, hands: list[int], next_cards: int, kitty: int = 0) -> dict[int, int]:
        """My final points after each card I may play now (I am to move and not blocked)."""
        me = self.me
        places = self.places(hands, kitty)
        hand = places[me]
        values: dict[int, int] = {}
        if self.start is None:
            for c in _bits(hand):
                solver = self._child(c & 7)
                start_next = sum(1 << (s * 8 + (c & 7)) for s in range(SUITS))
                values[c] = solver._after_play(list(places), start_next, me, c, 0)[me]
                self.nodes = solver.nodes
            return values
        for c in _bits(hand & next_cards):
            values[c] = self._after_play(list(places), next_cards, me, c, 0)[me]
        return values

    def kitty_values(self, hands: list[int], next_cards: int, kitty: int) -> dict[int, int]:
        """The dealer's (my) final points after each kitty card he may play for the kitty now."""
        assert self.dealer == self.me and self.start is not None
        places = self.places(hands, kitty)
        return {c: self._after_play(list(places), next_cards, self.kitty_place, c, 0)[self.me]
                for c in _bits(kitty & next_cards)}

    def _out(self, hands: list[int], out_seat: int, passed: int, last: int) -> Points:
        """Every seat's cost when ``out_seat`` plays his last card ``last`` (``passed``: the
        packed dalje since the root)."""
        out, per_card, per_dalje, out_pays = self.scoring
        n = self.n
        passes = [self.passes[s] + ((passed >> (PASS_BITS * s)) & ((1 << PASS_BITS) - 1)) for s in range(n)]
        points = []
        for s in range(n):
            dalje = per_dalje * passes[s]
            if s == out_seat:
                points.append(out + (dalje if out_pays else 0))
            else:
                points.append(per_card * hands[s].bit_count() + dalje)
        for bet in self.bets:
            for s, p in enumerate(bet.points(passes[bet.seat], n)):
                points[s] += p
        factor = 2 if self.doubles and (last & 7) == self.start else 1
        return tuple(self.sign * factor * p for p in points)

    def _after_play(self, hands: list[int], next_cards: int, seat: int, c: int, passed: int) -> Points:
        hand = hands[seat] & ~(1 << c)
        if not hand and seat != self.kitty_place:
            return self._out(hands, seat, passed, c)
        succ = (c & ~7) | (((c & 7) + 1) & 7)
        nxt = next_cards & ~(1 << c)
        if (succ & 7) != self.start:
            nxt |= 1 << succ
        hands[seat] = hand
        return self._node(hands, nxt, self.after[seat], passed)

    def _node(self, hands: list[int], next_cards: int, seat: int, passed: int) -> Points:
        # skip the places that must say dalje (the kitty's costs nobody)
        after = self.after
        while not hands[seat] & next_cards:
            if self.counts_passes and seat != self.kitty_place:
                passed += 1 << (PASS_BITS * seat)
            seat = after[seat]
        key = hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96 | seat << 128 | passed << 130
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.spend()
        playable = hands[seat] & next_cards
        me = self.me
        chooser = self.dealer if seat == self.kitty_place else seat  # the dealer plays for the kitty
        assert chooser is not None
        best: Points | None = None
        while playable:
            low = playable & -playable
            playable ^= low
            v = self._after_play(list(hands), next_cards, seat, low.bit_length() - 1, passed)
            if maxn_prefers(v, best, chooser, me):
                best = v
        assert best is not None
        self.memo[key] = best
        return best
