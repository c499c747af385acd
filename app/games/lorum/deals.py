"""The deals of Hungarian Lórum and what each pays (rules sections 03-07, rulings V13, V14).

Trick play and the layout are Lora's (``app.games.tricks.deal``); Lórum changes what ends
them and what they pay. Kvart, Fast train and the optional "101" are Lórum's own. Every
deal ends with ``transfers`` (chips won (+) or paid (-) by each seat) and ``bank_delta``
(chips put into (+) or taken from (-) the bank); they always sum to zero.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.base import IllegalAction
from app.games.cards import CARD_NAMES, CLUBS, HEARTS, JACK, KING, QUEEN, SUIT_MASKS, card, rank_of, suit_of
from app.games.tricks.deal import Deal, LayoutDeal, TrickDeal
from app.games.lorum.contracts import N_SEATS, LorumContract

KING_OF_HEARTS = card(KING, HEARTS)
JACK_OF_CLUBS = card(JACK, CLUBS)
# Obers: Q tref 1, Q pik 2, Q karo 3, Q herc 4 (section 04).
OBER_VALUES = {card(QUEEN, 3): 1, card(QUEEN, 0): 2, card(QUEEN, 1): 3, card(QUEEN, 2): 4}
OBERS_MASK = sum(1 << c for c in OBER_VALUES)
RANK_MASKS = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))
HAIRY_MONKEY_PAYMENT = 10
MAKK_PAYMENT = 10  # each of makk's three reasons (V14)
PENALTY_MASKS = {
    LorumContract.HEARTS: SUIT_MASKS[HEARTS],
    LorumContract.OBERS: OBERS_MASK,
    LorumContract.NO_TRICKS: 0,
    LorumContract.HAIRY_MONKEY: 1 << KING_OF_HEARTS,
    LorumContract.MAKK: (1 << KING_OF_HEARTS) | (1 << JACK_OF_CLUBS),
}
# 101 (V13): what each rank adds to the pile, 7 .. A; the card that reaches the target pays.
STO_JEDAN_VALUES = (0, 0, 0, 10, 2, 3, 4, 11)
STO_JEDAN_TARGET = 101
STO_JEDAN_PAYMENT = 10
STO_JEDAN_HAND = 4


def next_rank(rank: int) -> int:
    """Ranks climb 7 .. A and A is followed by 7."""
    return (rank + 1) % 8


def clean_player_payments(units: list[int], total: int) -> tuple[list[int], int]:
    """Hearts, Obers, No tricks (section 04): each taker pays his units; with one clean
    player he receives ``total``, with two they share it, with none it goes to the bank.
    A player who collected everything instead receives ``total`` from each opponent."""
    takers = [s for s in range(N_SEATS) if units[s]]
    if len(takers) == 1:
        (collector,) = takers
        return [total * (N_SEATS - 1) if s == collector else -total for s in range(N_SEATS)], 0
    transfers = [-u for u in units]
    clean = [s for s in range(N_SEATS) if not units[s]]
    if not clean:
        return transfers, total
    for s in clean:
        transfers[s] += total // len(clean)
    return transfers, 0


def emptied_hand_payments(winner: int, hands: list[int]) -> list[int]:
    """Kvart and Fast train: the first empty hand gets 1 per card left in each other hand."""
    left = [h.bit_count() for h in hands]
    return [sum(left) if s == winner else -left[s] for s in range(N_SEATS)]


# Hearts, Obers, No tricks: what the clean player(s) receive (section 04).
CLEAN_POTS = {LorumContract.HEARTS: 8, LorumContract.OBERS: 10, LorumContract.NO_TRICKS: 8}


def deal_units(deal: TrickDeal) -> list[int]:
    """Hearts, Obers, No tricks: each seat's units (hearts, ober values, tricks taken)."""
    if deal.contract is LorumContract.HEARTS:
        return [(t & SUIT_MASKS[HEARTS]).bit_count() for t in deal.taken]
    if deal.contract is LorumContract.OBERS:
        return [sum(v for c, v in OBER_VALUES.items() if (t >> c) & 1) for t in deal.taken]
    return list(deal.trick_counts)


class LorumTrickDeal(TrickDeal):
    """Hearts, Obers, No tricks and the Hairy monkey."""

    transfers: list[int]
    bank_delta: int

    @property
    def penalty_mask(self) -> int:
        return PENALTY_MASKS[self.contract]

    def early_end_mask(self) -> int:
        # Like the Club's Lora: a deal stops once its payments can no longer change.
        return self.penalty_mask

    def _finish(self) -> None:
        self.ended = True
        self.turn = -1
        contract = self.contract
        if contract in CLEAN_POTS:
            self.transfers, self.bank_delta = clean_player_payments(deal_units(self), CLEAN_POTS[contract])
        else:
            self.transfers = [
                -HAIRY_MONKEY_PAYMENT if (t >> KING_OF_HEARTS) & 1 else 0 for t in self.taken
            ]
            self.bank_delta = HAIRY_MONKEY_PAYMENT
        self.points = self.transfers


class MakkDeal(LorumTrickDeal):
    """Makk (V14): all eight tricks; the taker of K herc, the winner of the last trick and
    the player opposite the taker of J tref each pay 10 into the bank, 10 per reason."""

    def __init__(self, hands: list[int], first: int):
        super().__init__(LorumContract.MAKK, hands, first)  # type: ignore[arg-type]

    def early_end_mask(self) -> int:
        return 0  # V16: makk plays all 8 tricks

    def payers(self) -> list[int]:
        """The seat paying for each reason: K herc, the last trick, opposite J tref."""
        king = next(s for s in range(N_SEATS) if (self.taken[s] >> KING_OF_HEARTS) & 1)
        jack = next(s for s in range(N_SEATS) if (self.taken[s] >> JACK_OF_CLUBS) & 1)
        return [king, self.tricks[-1][2], (jack + 2) % N_SEATS]

    def _finish(self) -> None:
        self.ended = True
        self.turn = -1
        payers = self.payers()
        self.transfers = [-MAKK_PAYMENT * payers.count(s) for s in range(N_SEATS)]
        self.bank_delta = MAKK_PAYMENT * len(payers)
        self.points = self.transfers


class StoJedanDeal(Deal):
    """101 (V13): four cards each and the stock; in turn each plays any card onto the pile
    and draws the stock's top card (none once it is empty). The card that brings the
    pile's total to 101 or more pays 10 into the bank and ends the deal, without a draw."""

    def __init__(self, hands: list[int], stock: Sequence[int], first: int):
        super().__init__(LorumContract.STO_JEDAN, hands, first)  # type: ignore[arg-type]
        self.stock = tuple(stock)  # as dealt, top first
        self.drawn = 0  # cards drawn from the stock so far
        self.discards: list[tuple[int, int]] = []  # (seat, card) of the pile, in order
        self.total = 0

    @property
    def stock_size(self) -> int:
        return len(self.stock) - self.drawn

    def legal_mask(self, seat: int) -> int:
        return self.hands[seat] if seat == self.turn else 0

    def play(self, seat: int, c: int) -> None:
        self.check_turn(seat)
        if not (self.hands[seat] >> c) & 1:
            raise IllegalAction(f"{CARD_NAMES[c]} is not in seat {seat}'s hand")
        self.hands[seat] &= ~(1 << c)
        self.discards.append((seat, c))
        self.total += STO_JEDAN_VALUES[rank_of(c)]
        if self.total >= STO_JEDAN_TARGET:
            self.ended = True
            self.turn = -1
            self.transfers = [-STO_JEDAN_PAYMENT if s == seat else 0 for s in range(N_SEATS)]
            self.bank_delta = STO_JEDAN_PAYMENT
            self.points = self.transfers
            return
        if self.drawn < len(self.stock):
            self.hands[seat] |= 1 << self.stock[self.drawn]
            self.drawn += 1
        # The whole deck counts 120, so someone with cards reaches 101 before all are out.
        self.turn = next(t for t in ((seat + i) % N_SEATS for i in range(1, N_SEATS + 1)) if self.hands[t])


class KvartDeal(Deal):
    """Kvart (section 05): chains of up to four cards of one suit, each played by whoever
    holds the next card; the one who played a chain's last card starts the next."""

    def __init__(self, hands: list[int], first: int):
        super().__init__(LorumContract.KVART, hands, first)  # type: ignore[arg-type]
        self.played = 0
        self.chain: list[tuple[int, int]] = []  # (seat, card) of the open chain
        self.chains: list[list[tuple[int, int]]] = []  # closed chains
        self.next_card: int | None = None  # the card the open chain needs; None: a new chain

    def legal_mask(self, seat: int) -> int:
        if seat != self.turn:
            return 0
        if self.next_card is None:
            return self.hands[seat]
        return 1 << self.next_card

    def play(self, seat: int, c: int) -> None:
        self.check_turn(seat)
        if not (self.hands[seat] >> c) & 1:
            raise IllegalAction(f"{CARD_NAMES[c]} is not in seat {seat}'s hand")
        if not (self.legal_mask(seat) >> c) & 1:
            raise IllegalAction(f"the chain needs {CARD_NAMES[self.next_card]}, not {CARD_NAMES[c]}")
        self.hands[seat] &= ~(1 << c)
        self.played |= 1 << c
        self.chain.append((seat, c))
        if not self.hands[seat]:
            self.chains.append(self.chain)
            self._finish(seat)
            return
        following = suit_of(c) * 8 + next_rank(rank_of(c))
        if len(self.chain) == 4 or (self.played >> following) & 1:
            self.chains.append(self.chain)
            self.chain = []
            self.next_card = None
            self.turn = seat
        else:
            self.next_card = following
            self.turn = next(s for s in range(N_SEATS) if (self.hands[s] >> following) & 1)

    def _finish(self, winner: int) -> None:
        self.ended = True
        self.turn = -1
        self.next_card = None
        self.transfers = emptied_hand_payments(winner, self.hands)
        self.bank_delta = 0
        self.points = self.transfers


class FastTrainDeal(Deal):
    """Fast train (section 05): after a free first card, each in turn plays the next rank
    in any suit (A is followed by 7) or says dalje without one."""

    allows_dalje = True

    def __init__(self, hands: list[int], first: int):
        super().__init__(LorumContract.FAST_TRAIN, hands, first)  # type: ignore[arg-type]
        self.next_rank: int | None = None
        self.train: list[tuple[int, int]] = []

    def legal_mask(self, seat: int) -> int:
        if seat != self.turn:
            return 0
        if self.next_rank is None:
            return self.hands[seat]
        return self.hands[seat] & RANK_MASKS[self.next_rank]

    def play(self, seat: int, c: int) -> None:
        self.check_turn(seat)
        if not (self.hands[seat] >> c) & 1:
            raise IllegalAction(f"{CARD_NAMES[c]} is not in seat {seat}'s hand")
        if not (self.legal_mask(seat) >> c) & 1:
            raise IllegalAction(f"the train needs a {'789TJQKA'[self.next_rank]} of any suit")  # type: ignore[index]
        self.hands[seat] &= ~(1 << c)
        self.train.append((seat, c))
        self.next_rank = next_rank(rank_of(c))
        if not self.hands[seat]:
            self.ended = True
            self.turn = -1
            self.transfers = emptied_hand_payments(seat, self.hands)
            self.bank_delta = 0
            self.points = self.transfers
        else:
            self.turn = (seat + 1) % N_SEATS


class DominoDeal(LayoutDeal):
    """Lórum / Domino (section 06): Lora's layout, but a pass puts 1 into the bank, the
    others pay 1 per card left into the bank, and the first empty hand takes the bank."""

    def __init__(self, hands: list[int], first: int, bank: int):
        super().__init__(hands, first)
        self.contract = LorumContract.DOMINO  # type: ignore[assignment]
        self.bank_before = bank

    def _finish(self, out_seat: int) -> None:
        self.ended = True
        self.turn = -1
        paid = [self.passes[s] + (0 if s == out_seat else self.hands[s].bit_count()) for s in range(N_SEATS)]
        pot = self.bank_before + sum(paid)
        self.transfers = [pot - paid[s] if s == out_seat else -paid[s] for s in range(N_SEATS)]
        self.bank_delta = -self.bank_before
        self.points = self.transfers


def new_lorum_deal(
    contract: LorumContract, hands: list[int], first: int, bank: int, stock: Sequence[int] = ()
) -> Deal:
    """Deal ``contract`` with these hands (masks); ``stock``: 101's stock, top first."""
    if contract is LorumContract.STO_JEDAN:
        return StoJedanDeal(hands, stock, first)
    if contract is LorumContract.MAKK:
        return MakkDeal(hands, first)
    if contract is LorumContract.KVART:
        return KvartDeal(hands, first)
    if contract is LorumContract.FAST_TRAIN:
        return FastTrainDeal(hands, first)
    if contract is LorumContract.DOMINO:
        return DominoDeal(hands, first, bank)
    return LorumTrickDeal(contract, hands, first)  # type: ignore[arg-type]
