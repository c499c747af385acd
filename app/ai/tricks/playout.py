"""Playouts of a trick contract with the rule-based player in every seat.

Used early in a deal, where the open-cards search is too slow: the value of a card is
my average result when everybody continues by the rules. Values are on the same scale
as :class:`~app.ai.tricks.trick_solver.TrickSolver` (points still to come; Herc: final).
"""

from __future__ import annotations

from collections.abc import Iterator

from app.games.tricks.contracts import N_SEATS, Contract
from app.games.tricks.deal import HEARTS_MASK, JACK_OF_CLUBS, KING_OF_HEARTS, QUEENS_MASK

from app.ai.common.tricks import winner_index
from app.ai.tricks.rules import trick_card


def playout_value(
    contract: Contract, me: int, hands: list[int], trick: list[tuple[int, int]], card: int, taken: list[int]
) -> int:
    """My points from here on (Herc: final) when I play ``card`` now and all follow the rules."""
    taken = list(taken)
    future = 0
    for winner, trick_mask, remaining in rule_tricks(contract, me, hands, trick, card):
        taken[winner] |= trick_mask
        if winner == me:
            future += _trick_points(contract, trick_mask, not remaining)
        if _fixed(contract, remaining):
            break
    if contract is Contract.HERC:
        hearts = [(t & HEARTS_MASK).bit_count() for t in taken]
        if 8 in hearts:
            return -8 if hearts[me] == 8 else 0
        return hearts[me]
    return future


def rule_tricks(
    contract: Contract, me: int, hands: list[int], trick: list[tuple[int, int]], card: int
) -> Iterator[tuple[int, int, int]]:
    """Play on from my ``card`` (it is my turn in ``trick``) with everybody following the
    rules of ``contract``: after each trick (winner, its cards, the cards still in hands),
    to the last trick or until the caller stops asking."""
    hands = list(hands)
    leader = trick[0][0] if trick else me
    cards = [c for _, c in trick]
    seat = me
    c = card
    while True:
        hands[seat] &= ~(1 << c)
        cards.append(c)
        if len(cards) < N_SEATS:
            seat = (seat + 1) % N_SEATS
            c = trick_card(contract, hands[seat], cards)
            continue
        winner = (leader + winner_index(cards)) % N_SEATS
        trick_mask = sum(1 << x for x in cards)
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        yield winner, trick_mask, remaining
        if not remaining:
            return
        leader = seat = winner
        cards = []
        c = trick_card(contract, hands[seat], cards)


def _trick_points(contract: Contract, trick_mask: int, last: bool) -> int:
    if contract is Contract.STO_VISE:
        return -1
    if contract is Contract.STO_MANJE:
        return 1
    if contract is Contract.DAME:
        return 2 * (trick_mask & QUEENS_MASK).bit_count()
    if contract is Contract.ZANDAR_TREF:
        return 8 if (trick_mask >> JACK_OF_CLUBS) & 1 else 0
    if contract is Contract.KING_AND_LAST:
        return (4 if (trick_mask >> KING_OF_HEARTS) & 1 else 0) + (4 if last else 0)
    return 0


def _fixed(contract: Contract, remaining: int) -> bool:
    if contract is Contract.DAME:
        return not remaining & QUEENS_MASK
    if contract is Contract.HERC:
        return not remaining & HEARTS_MASK
    if contract is Contract.ZANDAR_TREF:
        return not (remaining >> JACK_OF_CLUBS) & 1
    return False
