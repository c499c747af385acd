"""Playouts of a trick contract with the rule-based player in every seat.

Used early in a deal, where the open-cards search is too slow: the value of a card is
my average result when everybody continues by the rules. Values are on the same scale
as :class:`~app.ai.lora.trick_solver.TrickSolver` (points still to come; Herc: final).
"""

from __future__ import annotations

from app.games.lora.contracts import N_SEATS, Contract
from app.games.lora.deal import HEARTS_MASK, JACK_OF_CLUBS, KING_OF_HEARTS, QUEENS_MASK

from app.ai.common.tricks import winner_index
from app.ai.lora.rules import trick_card


def playout_value(
    contract: Contract, me: int, hands: list[int], trick: list[tuple[int, int]], card: int, taken: list[int]
) -> int:
    """My points from here on (Herc: final) when I play ``card`` now and all follow the rules."""
    hands = list(hands)
    taken = list(taken)
    leader = trick[0][0] if trick else me
    cards = [c for _, c in trick]
    seat = me
    c = card
    future = 0
    while True:
        hands[seat] &= ~(1 << c)
        cards.append(c)
        if len(cards) < N_SEATS:
            seat = (seat + 1) % N_SEATS
            c = trick_card(contract, hands[seat], cards)
            continue
        winner = (leader + winner_index(cards)) % N_SEATS
        trick_mask = sum(1 << x for x in cards)
        taken[winner] |= trick_mask
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        if winner == me:
            future += _trick_points(contract, trick_mask, not remaining)
        if not remaining or _fixed(contract, remaining):
            break
        leader = seat = winner
        cards = []
        c = trick_card(contract, hands[seat], cards)
    if contract is Contract.HERC:
        hearts = [(t & HEARTS_MASK).bit_count() for t in taken]
        if 8 in hearts:
            return -8 if hearts[me] == 8 else 0
        return hearts[me]
    return future


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
