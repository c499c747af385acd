"""Lórum's contracts without tricks on open cards: Kvart, Fast train, Domino and 101.

Each :class:`TurnGame` plays one of them on masks from a known world (every hand, and
101's stock in order): ``options`` gives the seat to choose and its cards, ``after``
plays a card and every forced turn after it (a chain's next card, the only card of the
rank due, ``dalje``) up to the next real choice or the end. The payments are the
engine's (``app.games.lorum.deals``), as each seat's *cost* (chips paid, minus chips won).

:class:`MaxnSearch` values a position exactly: every seat plays for its own chips (max-n;
among equally good cards the one worst for me, as Lora's layout search assumes), with
a memo over the positions and a node budget. :func:`playout` plays on by the rules of
thumb of ``pocetnik`` (``app.ai.lorum.rules``), for positions too big to search.
"""

from __future__ import annotations

from app.games.cards import cards_of
from app.games.tricks.contracts import N_SEATS
from app.games.lorum.deals import (
    RANK_MASKS,
    STO_JEDAN_PAYMENT,
    STO_JEDAN_TARGET,
    STO_JEDAN_VALUES,
    DominoDeal,
    emptied_hand_payments,
    next_rank,
)

from app.ai.common.search import NodeBudget, maxn_prefers
from app.ai.tricks.rules import layout_card
from app.ai.lorum.rules import following, kvart_start, pile_card, train_start

Points = tuple[int, ...]  # every seat's cost
Hands = tuple[int, ...]
State = tuple  # a position at a real choice: the hands first, then the game's own parts


def costs(transfers: list[int]) -> Points:
    return tuple(-t for t in transfers)


def hands_key(hands: Hands) -> int:
    return hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96


def single(mask: int) -> bool:
    return not mask & (mask - 1)


class TurnGame:
    def options(self, state: State) -> tuple[int, int]:
        """(the seat to choose, the cards it may play: two or more, except at the root)."""
        raise NotImplementedError

    def after(self, state: State, c: int) -> tuple[Points | None, State | None]:
        """(every seat's cost, None) if the deal ends before the next choice, else (None, it)."""
        raise NotImplementedError

    def key(self, state: State) -> int:
        raise NotImplementedError

    def rule_card(self, state: State) -> int:
        """The card ``pocetnik`` plays at this choice."""
        raise NotImplementedError


class KvartGame(TurnGame):
    """State: (hands, seat, the open chain's length, the card it needs): choices come at
    the start of a chain (0, None); the root may be within one, with one legal card."""

    def options(self, state: State) -> tuple[int, int]:
        hands, seat, _, needs = state
        return seat, hands[seat] if needs is None else 1 << needs

    def after(self, state: State, c: int) -> tuple[Points | None, State | None]:
        hands = list(state[0])
        seat = state[1]
        length = state[2] + 1
        while True:
            hands[seat] &= ~(1 << c)
            if not hands[seat]:
                return costs(emptied_hand_payments(seat, hands)), None
            nxt = following(c)
            holder = None if length == 4 else next((s for s in range(N_SEATS) if (hands[s] >> nxt) & 1), None)
            if holder is not None:  # (None: the chain is closed; all 32 cards are dealt, so nobody
                seat, c = holder, nxt  # holding the next card means it was played)
                length += 1
            elif single(hands[seat]):  # the chain's last player starts the next with his last card
                c, length = hands[seat].bit_length() - 1, 1
            else:
                return None, (tuple(hands), seat, 0, None)

    def key(self, state: State) -> int:
        return hands_key(state[0]) | state[1] << 128

    def rule_card(self, state: State) -> int:
        hands, seat = state[0], state[1]
        return kvart_start(hands[seat])


class FastTrainGame(TurnGame):
    """State: (hands, seat, rank due or None before the first card)."""

    def options(self, state: State) -> tuple[int, int]:
        hands, seat, rank = state
        return seat, hands[seat] if rank is None else hands[seat] & RANK_MASKS[rank]

    def after(self, state: State, c: int) -> tuple[Points | None, State | None]:
        hands = list(state[0])
        seat = state[1]
        while True:
            hands[seat] &= ~(1 << c)
            if not hands[seat]:
                return costs(emptied_hand_payments(seat, hands)), None
            rank = next_rank(c & 7)
            due = RANK_MASKS[rank]
            seat = (seat + 1) % N_SEATS
            while not hands[seat] & due:  # dalje (someone holds the rank due: see FastTrainDeal)
                seat = (seat + 1) % N_SEATS
            playable = hands[seat] & due
            if not single(playable):
                return None, (tuple(hands), seat, rank)
            c = playable.bit_length() - 1

    def key(self, state: State) -> int:
        hands, seat, rank = state
        return hands_key(hands) | seat << 128 | (8 if rank is None else rank) << 130

    def rule_card(self, state: State) -> int:
        return train_start(self.options(state)[1])


class DominoGame(TurnGame):
    """State: (hands, seat, start rank or None, the cards that fit, each seat's dalje)."""

    def __init__(self, bank_before: int):
        self.bank_before = bank_before

    def options(self, state: State) -> tuple[int, int]:
        hands, seat, start, fits, _ = state
        return seat, hands[seat] if start is None else hands[seat] & fits

    def after(self, state: State, c: int) -> tuple[Points | None, State | None]:
        hands = list(state[0])
        seat, start, fits, passes = state[1], state[2], state[3], list(state[4])
        while True:
            if start is None:
                start = c & 7
                fits = RANK_MASKS[start]
            hands[seat] &= ~(1 << c)
            if not hands[seat]:
                return self._out(hands, passes, seat), None
            fits &= ~(1 << c)
            if next_rank(c & 7) != start:
                fits |= 1 << following(c)
            seat = (seat + 1) % N_SEATS
            while not hands[seat] & fits:  # dalje: 1 into the bank
                passes[seat] += 1
                seat = (seat + 1) % N_SEATS
            playable = hands[seat] & fits
            if not single(playable):
                return None, (tuple(hands), seat, start, fits, tuple(passes))
            c = playable.bit_length() - 1

    def _out(self, hands: list[int], passes: list[int], out_seat: int) -> Points:
        deal = DominoDeal.__new__(DominoDeal)  # the engine's payments on this position
        deal.hands, deal.passes, deal.bank_before = hands, passes, self.bank_before
        deal._finish(out_seat)
        return costs(deal.transfers)

    def key(self, state: State) -> int:
        hands, seat, start, _, passes = state
        key = hands_key(hands) | seat << 128 | (8 if start is None else start) << 130
        for s, p in enumerate(passes):  # the dalje since the root are in the chips
            key |= p << (134 + 6 * s)
        return key

    def rule_card(self, state: State) -> int:
        hands, seat, start, _, _ = state
        return layout_card(hands[seat], self.options(state)[1], start)


class StoJedanGame(TurnGame):
    """State: (hands, seat, the pile's total, cards drawn from ``stock`` so far)."""

    def __init__(self, stock: tuple[int, ...]):
        self.stock = stock

    def options(self, state: State) -> tuple[int, int]:
        hands, seat = state[0], state[1]
        return seat, hands[seat]

    def after(self, state: State, c: int) -> tuple[Points | None, State | None]:
        hands = list(state[0])
        seat, total, drawn = state[1], state[2], state[3]
        stock = self.stock
        while True:
            hands[seat] &= ~(1 << c)
            total += STO_JEDAN_VALUES[c & 7]
            if total >= STO_JEDAN_TARGET:
                return tuple(STO_JEDAN_PAYMENT if s == seat else 0 for s in range(N_SEATS)), None
            if drawn < len(stock):
                hands[seat] |= 1 << stock[drawn]
                drawn += 1
            seat = (seat + 1) % N_SEATS
            while not hands[seat]:
                seat = (seat + 1) % N_SEATS
            if not single(hands[seat]):
                return None, (tuple(hands), seat, total, drawn)
            c = hands[seat].bit_length() - 1

    def key(self, state: State) -> int:
        hands, seat, total, drawn = state
        return hands_key(hands) | seat << 128 | drawn << 130 | total << 135

    def rule_card(self, state: State) -> int:
        hands, seat, total = state[0], state[1], state[2]
        return pile_card(hands[seat], total)


class MaxnSearch(NodeBudget):
    """The exact value of each card of mine at the root; ``nodes``: positions searched."""

    def __init__(self, game: TurnGame, me: int, node_limit: int | None = None):
        super().__init__(node_limit)
        self.game = game
        self.me = me
        self.memo: dict[int, Points] = {}

    def move_values(self, state: State) -> dict[int, int]:
        seat, cards = self.game.options(state)
        assert seat == self.me, "it is not my turn"
        return {c: self._result(state, c)[self.me] for c in cards_of(cards)}

    def _result(self, state: State, c: int) -> Points:
        points, nxt = self.game.after(state, c)
        return points if nxt is None else self._node(nxt)  # type: ignore[return-value]

    def _node(self, state: State) -> Points:
        game = self.game
        key = game.key(state)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.spend()
        seat, cards = game.options(state)
        best: Points | None = None
        for c in cards_of(cards):
            v = self._result(state, c)
            if maxn_prefers(v, best, seat, self.me):
                best = v
        assert best is not None
        self.memo[key] = best
        return best


def playout(game: TurnGame, state: State, c: int) -> Points:
    """Every seat's cost when ``c`` is played now and everybody goes on by the rules."""
    points, nxt = game.after(state, c)
    while nxt is not None:
        points, nxt = game.after(nxt, game.rule_card(nxt))
    assert points is not None
    return points
