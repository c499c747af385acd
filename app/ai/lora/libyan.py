"""What the computer players need of Libyan Lora's trick contracts (rulings V10-V12, V15,
V17): a finished deal's cost for one seat by the contract's own points and the bets that
touch him, the rules of thumb for each contract (and for a seat with a bet), and the
playouts of the search levels with those rules in every seat.

All of it works on masks in one *world* (every hand and the kitty's cards, one sample of
what the seat has not seen), so it runs inside the searches and the playouts.
"""

from __future__ import annotations

from types import SimpleNamespace

from app.games.lora.bets import Bet
from app.games.tricks.contracts import Contract
from app.games.lora.libijska import LibyanRule, tricks as trick_counts_of

from app.ai.common.tricks import winner_index
from app.ai.lora.knowledge import LoraKnowledge
from app.ai.tricks.rules import trick_card

DECK = 32
DVOJICA_BONUS = 8  # what the seats outside the pair share: +4 each of two, or +8 to the third


def n_tricks(n: int) -> int:
    """Tricks in a deal: 8 with four seats, 10 with three (the kitty holds the other two)."""
    return DECK // n


def early_end_mask(rule: LibyanRule, kitty: int) -> int:
    """The cards whose taking ends the deal, as the engine's deal has them with this kitty:
    the kitty's hearts go to the last trick in herc (so all tricks are played), its queens
    count for nobody (the deal ends once the others are taken)."""
    mask = rule.ends_when_taken
    if kitty & mask:
        return 0 if rule.kitty_to_last else mask & ~kitty
    return mask


def void_cost(know: LoraKnowledge) -> int:
    """My cost of a void dvojica deal: it is dealt again, worth about the contract's mean
    per seat; the third void in a row costs the dealer +8 (V10)."""
    if know.voids_before == 2:
        return 8 if know.seat == know.dealer else 0
    return round(DVOJICA_BONUS / know.n)


def counts_tricks(rule: LibyanRule) -> bool:
    """Do this contract's bets count tricks (stihovi, dvojica)?"""
    return rule.counts is trick_counts_of


class LibyanScorer:
    """My cost when a Libyan trick deal ends in one world: the contract's own points and
    the bets that touch me (mine, and the ones I said kontra to)."""

    def __init__(self, know: LoraKnowledge, kitty: int):
        rule = know.libyan
        assert rule is not None and rule.score is not None
        self.rule = rule
        self.n = know.n
        self.n_tricks = n_tricks(know.n)
        self.me = know.seat
        self.kitty = kitty
        self.bets: list[Bet] = [b for b in know.bets if know.seat in (b.seat, b.kontra_by)]
        self.void = void_cost(know)

    def cost(self, taken: list[int], counts: list[int], winners: list[int]) -> int:
        """``taken``: every seat's cards taken, ``counts``: their tricks, ``winners``: the
        winner of each trick played (only the stop trick's and the last one are read)."""
        deal = SimpleNamespace(n=self.n, n_tricks=self.n_tricks, taken=taken, trick_counts=counts,
                               tricks=[(0, (), w) for w in winners], pile_mask=self.kitty, rule=self.rule)
        assert self.rule.score is not None
        points = self.rule.score(deal)
        if points is None:  # dvojica without a pair: dealt again, its bets void
            return self.void
        cost = points[self.me]
        if self.bets:
            assert self.rule.counts is not None
            bet_counts = self.rule.counts(deal)
            for bet in self.bets:
                cost += bet.points(bet_counts[bet.seat], self.n)[self.me]
        return cost


def thumb_contract(rule: LibyanRule, tricks_taken: int, target: int | bool | None) -> Contract:
    """The Club contract whose rules of thumb a seat follows in this Libyan contract, with
    ``tricks_taken`` so far and the target of his bet (None: he has none).

    dvojica is won by taking tricks (the pair scores 0); a bet on tricks is played like a
    prediction (take tricks until there are enough, then duck); a bet on all the hearts or
    all the queens, or on winning the 6th (8th) trick, takes tricks."""
    if counts_tricks(rule) and isinstance(target, int) and not isinstance(target, bool):
        return Contract.STO_VISE if tricks_taken < target else Contract.STO_MANJE
    if rule.pair:
        return Contract.STO_VISE if tricks_taken < rule.pair else Contract.STO_MANJE
    if target is True or (rule.max_bet is not None and target == rule.max_bet and rule.penalty):
        return Contract.STO_VISE
    return rule.plays_like


def bet_targets(know: LoraKnowledge) -> list[int | bool | None]:
    """Each seat's bet target (None: no bet)."""
    targets: list[int | bool | None] = [None] * know.n
    for bet in know.bets:
        targets[bet.seat] = bet.target
    return targets


class LibyanPlayout:
    """Playouts of a Libyan trick deal in one world with the rules of thumb in every seat
    (each seat playing for his own bet), valued by :class:`LibyanScorer`."""

    def __init__(self, know: LoraKnowledge, kitty: int):
        rule = know.libyan
        assert rule is not None
        self.know = know
        self.rule = rule
        self.n = know.n
        self.scorer = LibyanScorer(know, kitty)
        self.end_mask = early_end_mask(rule, kitty)
        self.targets = bet_targets(know)

    def card_for(self, seat: int, hand: int, cards: list[int], counts: list[int]) -> int:
        """The rule-based card of ``seat`` on the trick ``cards``."""
        contract = thumb_contract(self.rule, counts[seat], self.targets[seat])
        return trick_card(contract, hand, cards, self.n)

    def value(self, hands: list[int], trick: list[tuple[int, int]], card: int) -> int:
        """My cost at the end of the deal when I play ``card`` now and all follow the rules."""
        know = self.know
        n = self.n
        me = know.seat
        hands = list(hands)
        taken = list(know.taken)
        counts = list(know.trick_counts)
        winners = [-1] * know.tricks_done
        taken_all = 0
        for t in taken:
            taken_all |= t
        leader = trick[0][0] if trick else me
        cards = [c for _, c in trick]
        seat, c = me, card
        while True:
            hands[seat] &= ~(1 << c)
            cards.append(c)
            if len(cards) < n:
                seat = (seat + 1) % n
                c = self.card_for(seat, hands[seat], cards, counts)
                continue
            winner = (leader + winner_index(cards)) % n
            mask = 0
            for x in cards:
                mask |= 1 << x
            taken[winner] |= mask
            taken_all |= mask
            counts[winner] += 1
            winners.append(winner)
            if self.ended(taken_all, counts, len(winners)):
                break
            leader = seat = winner
            cards = []
            c = self.card_for(seat, hands[seat], cards, counts)
        return self.scorer.cost(taken, counts, winners)

    def ended(self, taken_all: int, counts: list[int], done: int) -> bool:
        """Does the deal end after ``done`` tricks (V8, V11)?"""
        rule = self.rule
        end_mask = self.end_mask
        return (
            done == self.scorer.n_tricks
            or bool(end_mask and taken_all & end_mask == end_mask)
            or bool(rule.stop_after and done == rule.stop_after)
            or bool(rule.pair and sum(1 for k in counts if k >= rule.pair) >= 2)
        )

