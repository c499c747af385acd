"""Open-cards solver for the trick contracts (1-6): me against the rest.

All four hands are known (one sample of the hidden cards). The value is my own penalty
from here on: I minimize it, the three others are assumed to maximize it (the
"paranoid" reduction of a four-player game to two sides), which makes plain
alpha-beta sound. A transposition table keyed on the four hand masks and the leader
stores bounds at trick boundaries; cards that are equivalent (adjacent among the cards
still in play, same holder, same scoring class) are searched once.

Values: contracts 1, 2, 3, 5, 6 return the points still to come; Herc (4) returns the
final points of the deal, because "all eight hearts give -8" depends on who took the
hearts so far (the ``HercContext``).
"""

from __future__ import annotations

from app.games.cards import SUIT_MASKS, cards_of as _bits
from app.games.tricks.contracts import N_SEATS, Contract
from app.games.tricks.deal import HEARTS_MASK, JACK_OF_CLUBS, KING_OF_HEARTS, PENALTY_MASKS, QUEENS_MASK

from app.ai.common.search import INF, BoundedSearch, representatives
from app.ai.common.tricks import legal_cards, winner_index

HERC_NOBODY = 4  # no heart taken yet
HERC_MIXED = 5  # hearts taken by two or more seats: nobody can take all eight

_SPECIAL = PENALTY_MASKS


def herc_context(me: int, taken: list[int]) -> tuple[int, int]:
    """(hearts I took, who took every heart taken so far: a seat, HERC_NOBODY or HERC_MIXED)."""
    holders = [s for s in range(len(taken)) if taken[s] & HEARTS_MASK]
    shooter = HERC_NOBODY if not holders else holders[0] if len(holders) == 1 else HERC_MIXED
    return (taken[me] & HEARTS_MASK).bit_count(), shooter


class TrickSolver(BoundedSearch):
    def __init__(self, contract: Contract, me: int, node_limit: int | None = None):
        if contract is Contract.LORA:
            raise ValueError("the layout has its own solver")
        super().__init__(node_limit)
        self.contract = contract
        self.code = int(contract)
        self.me = me
        self.special = _SPECIAL[contract]
        self.n = N_SEATS  # seats at the table; hands are always four masks (a three-seat table's fourth is empty)

    # -- public ---------------------------------------------------------------

    def move_values(
        self, hands: list[int], trick: list[tuple[int, int]], ctx: tuple[int, int] = (0, HERC_NOBODY)
    ) -> dict[int, int]:
        """The exact value of each legal card of mine (it must be my turn in ``trick``)."""
        me = self.me
        leader = trick[0][0] if trick else me
        cards = [c for _, c in trick]
        n = self.n
        assert (leader + len(cards)) % n == me, "it is not my turn"
        hands = list(hands)
        hand = hands[me]
        legal = legal_cards(hand, cards)
        trick_mask = 0
        for c in cards:
            trick_mask |= 1 << c
        reps = representatives(legal, hands[0] | hands[1] | hands[2] | hands[3] | trick_mask, self.special)
        values: dict[int, int] = {}
        hctx = self._pack_ctx(ctx)
        for c in reps:
            hands[me] = hand & ~(1 << c)
            cards.append(c)
            if len(cards) == n:
                v = self._finish_trick(hands, leader, cards, hctx, -INF, INF)
            else:
                v = self._card_node(hands, leader, (me + 1) % n, cards, hctx, -INF, INF)
            cards.pop()
            hands[me] = hand
            values[c] = v
        # equivalent cards take their representative's value
        for c in _bits(legal):
            if c not in values:
                values[c] = values[self._representative_of(c, legal, hands, trick_mask)]
        return values

    def value(self, hands: list[int], leader: int, ctx: tuple[int, int] = (0, HERC_NOBODY)) -> int:
        """The value of a position at a trick boundary, ``leader`` to lead."""
        return self._trick_node(list(hands), leader, self._pack_ctx(ctx), -INF, INF)

    # -- search ---------------------------------------------------------------

    def _pack_ctx(self, ctx: tuple[int, int]) -> int:
        return ctx[0] * 8 + ctx[1] if self.code == 4 else 0

    def _trick_node(self, hands: list[int], leader: int, hctx: int, alpha: int, beta: int) -> int:
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        code = self.code
        me = self.me
        if code == 1:
            if not remaining:
                return 0
            lo, hi = -hands[me].bit_count(), 0
        elif code == 2:
            if not remaining:
                return 0
            lo, hi = 0, hands[me].bit_count()
        elif code == 3:
            q = remaining & QUEENS_MASK
            if not q:
                return 0
            lo, hi = 0, 2 * q.bit_count()
        elif code == 4:
            mine, shooter = divmod(hctx, 8)
            h = remaining & HEARTS_MASK
            if not h:
                if mine == 8:
                    return -8
                return 0 if shooter < 4 and shooter != me else mine
            hi = mine + h.bit_count()
            lo = -8 if (shooter == me or shooter == HERC_NOBODY) else mine
            if shooter < 4 and shooter != me:
                lo = 0  # they may take all eight: then I score 0
        elif code == 5:
            if not (remaining >> JACK_OF_CLUBS) & 1:
                return 0
            lo, hi = 0, 8
        else:
            if not remaining:
                return 0
            lo, hi = 0, (4 if (remaining >> KING_OF_HEARTS) & 1 else 0) + 4
        key = hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96 | leader << 128 | hctx << 130
        return self._bounded(key, lo, hi, alpha, beta, hands, leader, hctx)

    def _lead(self, hands: list[int], leader: int, hctx: int, alpha: int, beta: int) -> int:
        return self._card_node(hands, leader, leader, [], hctx, alpha, beta)

    def _card_node(self, hands: list[int], leader: int, seat: int, cards: list[int], hctx: int, alpha: int, beta: int) -> int:
        hand = hands[seat]
        n = len(cards)
        legal = legal_cards(hand, cards)
        trick_mask = 0
        for c in cards:
            trick_mask |= 1 << c
        present = hands[0] | hands[1] | hands[2] | hands[3] | trick_mask
        moves = self._ordered(representatives(legal, present, self.special), seat, cards)  # same scoring class
        minimizing = seat == self.me
        best = INF if minimizing else -INF
        seats = self.n
        last = n == seats - 1
        nxt = (seat + 1) % seats
        for c in moves:
            hands[seat] = hand & ~(1 << c)
            cards.append(c)
            if last:
                v = self._finish_trick(hands, leader, cards, hctx, alpha, beta)
            else:
                v = self._card_node(hands, leader, nxt, cards, hctx, alpha, beta)
            cards.pop()
            hands[seat] = hand
            if minimizing:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                    if v <= alpha:
                        break
            else:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                    if v >= beta:
                        break
        return best

    def _finish_trick(self, hands: list[int], leader: int, cards: list[int], hctx: int, alpha: int, beta: int) -> int:
        winner = (leader + winner_index(cards)) % N_SEATS
        code = self.code
        mine = winner == self.me
        pts = 0
        if code == 4:
            trick_mask = (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]) | (1 << cards[3])
            h = (trick_mask & HEARTS_MASK).bit_count()
            if h:
                m, shooter = divmod(hctx, 8)
                if mine:
                    m += h
                if shooter == HERC_NOBODY:
                    shooter = winner
                elif shooter != winner:
                    shooter = HERC_MIXED
                hctx = m * 8 + shooter
        elif mine:
            if code == 1:
                pts = -1
            elif code == 2:
                pts = 1
            else:
                trick_mask = (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]) | (1 << cards[3])
                if code == 3:
                    pts = 2 * (trick_mask & QUEENS_MASK).bit_count()
                elif code == 5:
                    pts = 8 if (trick_mask >> JACK_OF_CLUBS) & 1 else 0
                else:
                    pts = 4 if (trick_mask >> KING_OF_HEARTS) & 1 else 0
                    if not (hands[0] | hands[1] | hands[2] | hands[3]):
                        pts += 4
        return pts + self._trick_node(hands, winner, hctx, alpha - pts, beta - pts)

    # -- moves ----------------------------------------------------------------

    def _representative_of(self, c: int, legal: int, hands: list[int], trick_mask: int) -> int:
        present = hands[0] | hands[1] | hands[2] | hands[3] | trick_mask
        special = self.special
        while True:
            below = present & SUIT_MASKS[c >> 3] & ((1 << c) - 1)
            if not below:
                return c
            p = below.bit_length() - 1
            if not ((legal >> p) & 1 and ((special >> p) & 1) == ((special >> c) & 1)):
                return c
            c = p

    def _ordered(self, moves: list[int], seat: int, cards: list[int]) -> list[int]:
        """Likely-best first: the side that wants the trick tries high cards first."""
        if len(moves) < 2:
            return moves
        wants_tricks = (seat == self.me) == (self.code == 1)
        if cards:
            led = cards[0] >> 3
            top = max(c for c in cards if c >> 3 == led)
            if wants_tricks:
                return sorted(moves, key=lambda c: -c if c >> 3 == led else 64 + (c & 7))
            # duck: the highest card under the winner first, then discards of high cards
            return sorted(moves, key=lambda c: (0, -c) if (c >> 3 == led and c < top) else (1, -(c & 7) - 8 * ((self.special >> c) & 1)))
        if wants_tricks:
            return sorted(moves, key=lambda c: -(c & 7))
        return sorted(moves, key=lambda c: c & 7)
