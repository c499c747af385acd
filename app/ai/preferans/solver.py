"""Open-cards solver for preferans play: the declarer against the defenders.

Two or three seats are in play; the value is the number of tricks the declarer takes
from here on. The declarer maximizes it (in betl he minimizes it), the defenders do the
opposite: a two-sided game, so alpha-beta with a transposition table on the hand masks
and the leader at trick boundaries is exact.
"""

from __future__ import annotations

from app.games.cards import cards_of as _bits, legal_mask

from app.ai.common.search import INF, BoundedSearch, representatives
from app.ai.common.tricks import legal_cards, winner_index
from app.ai.preferans.play_rules import rule_card


class PlaySolver(BoundedSearch):
    def __init__(self, seats: tuple[int, ...], declarer: int, trump: int | None, betl: bool, node_limit: int | None = None):
        super().__init__(node_limit)
        self.seats = seats
        self.n = len(seats)
        self.declarer = declarer
        self.trump = trump
        self.betl = betl
        self.index = {s: i for i, s in enumerate(seats)}
        self.next_seat = {s: seats[(i + 1) % self.n] for i, s in enumerate(seats)}

    def move_values(self, hands: list[int], trick: list[tuple[int, int]], seat: int) -> dict[int, int]:
        """Declarer tricks still to come after each legal card of ``seat`` (whose turn it is)."""
        hands = list(hands)
        leader = trick[0][0] if trick else seat
        cards = [c for _, c in trick]
        hand = hands[seat]
        legal = legal_cards(hand, cards, self.trump)
        values = {}
        for c in _bits(legal):
            hands[seat] = hand & ~(1 << c)
            cards.append(c)
            values[c] = self._after(hands, leader, seat, cards, -INF, INF)
            cards.pop()
            hands[seat] = hand
        return values

    def reaches(self, hands: list[int], leader: int, target: int) -> bool:
        """Does the declarer take at least ``target`` tricks from a trick boundary (null window)?"""
        return self._trick(list(hands[:3]), leader, target - 1, target) >= target

    def _after(self, hands: list[int], leader: int, seat: int, cards: list[int], alpha: int, beta: int) -> int:
        if len(cards) == self.n:
            return self._finish(hands, leader, cards, alpha, beta)
        return self._card(hands, leader, self.next_seat[seat], cards, alpha, beta)

    def _finish(self, hands: list[int], leader: int, cards: list[int], alpha: int, beta: int) -> int:
        winner = self.seats[(self.index[leader] + winner_index(cards, self.trump)) % self.n]
        if winner == self.declarer:
            return 1 + self._trick(hands, winner, alpha - 1, beta - 1)
        return self._trick(hands, winner, alpha, beta)

    def _trick(self, hands: list[int], leader: int, alpha: int, beta: int) -> int:
        left = hands[self.declarer].bit_count()
        if not left:
            return 0
        key = hands[0] | hands[1] << 32 | hands[2] << 64 | leader << 96
        return self._bounded(key, 0, left, alpha, beta, hands, leader, 0)  # no context

    def _lead(self, hands: list[int], leader: int, ctx: int, alpha: int, beta: int) -> int:
        return self._card(hands, leader, leader, [], alpha, beta)

    def _card(self, hands: list[int], leader: int, seat: int, cards: list[int], alpha: int, beta: int) -> int:
        hand = hands[seat]
        legal = legal_mask(hand, cards[0] if cards else None, self.trump)
        present = hands[0] | hands[1] | hands[2]
        for c in cards:
            present |= 1 << c
        maximizing = (seat == self.declarer) != self.betl
        best = -INF if maximizing else INF
        last = len(cards) == self.n - 1
        nxt = self.next_seat[seat]
        # The alpha-beta update is written out as in TrickSolver._card_node: a call per node
        # would cost more than it saves here.
        for c in reversed(representatives(legal, present)):  # one card per run of adjacent cards, highest first
            hands[seat] = hand & ~(1 << c)
            cards.append(c)
            v = self._finish(hands, leader, cards, alpha, beta) if last else self._card(hands, leader, nxt, cards, alpha, beta)
            cards.pop()
            hands[seat] = hand
            if maximizing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                    if v >= beta:
                        break
            elif v < best:
                best = v
                if v < beta:
                    beta = v
                if v <= alpha:
                    break
        return best


class RuleDefenceSolver(PlaySolver):
    """The declarer searches, the defenders play by the rules (``play_rules.rule_card``):
    what the declarer can make against defenders who do not see the cards and defend by
    habit. Only the declarer's nodes branch, so it is far cheaper than the exact search;
    the defenders' card is a function of the position, so the same transposition table
    holds."""

    def _card(self, hands: list[int], leader: int, seat: int, cards: list[int], alpha: int, beta: int) -> int:
        if seat == self.declarer:
            return super()._card(hands, leader, seat, cards, alpha, beta)
        li = self.index[leader]
        trick_seats = [self.seats[(li + i) % self.n] for i in range(len(cards))]
        hand = hands[seat]
        c = rule_card(hand, cards, trick_seats, seat, self.declarer, self.trump, self.betl, self.n)
        hands[seat] = hand & ~(1 << c)
        cards.append(c)
        try:
            return self._after(hands, leader, seat, cards, alpha, beta)
        finally:
            cards.pop()
            hands[seat] = hand
