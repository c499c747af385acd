"""Replay of a Hungarian Lórum partie (game "lorum"), with the extras 101 and makk.

Chips move between players and the bank: ``transfers`` are what each player gains (or
pays, negative) in a deal and ``bank`` the bank's change; together they sum to 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import ActionStream
from .cards import JACK_OF_CLUBS, KING_OF_HEARTS, is_card, is_heart, is_queen, next_rank, rank_of, suit_of
from .errors import DealUnfinished, RefereeError
from .layout import play_layout
from .places import lorum_places
from .record import check_header, deal_cards
from .settings import LORUM_BASE, lorum_rules
from .tricks import EndTest, TrickState, play_tricks

N_SEATS = 4
OBER_VALUES = {"QC": 1, "QS": 2, "QD": 3, "QH": 4}  # acorns, leaves, bells, hearts
HUNDRED_ONE_VALUES = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
MONKEY_FEE = 10
MAKK_FEE = 10
HUNDRED_ONE_FEE = 10


@dataclass
class Chips:
    """One deal's movement of chips."""

    transfers: list[int]
    bank: int = 0


def lorum_result(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a Lórum record and return its ``result``."""
    rules = lorum_rules(record.get("settings"))
    deals = check_header(record, N_SEATS)
    per_dealer = len(rules.contracts)
    bank = 0
    entries: list[dict[str, Any]] = []
    totals = [0] * N_SEATS
    for index, deal in enumerate(deals):
        if index >= N_SEATS * per_dealer:
            raise RefereeError("more deals than the partie has", index)
        contract = rules.contracts[index % per_dealer]
        dealer = index // per_dealer
        if contract == "sto_jedan":
            hands, stock = deal_cards(index, deal, N_SEATS, 4, "stock", 16)
        else:
            hands, stock = deal_cards(index, deal, N_SEATS, 8)
        stream = ActionStream(index, deal["actions"], N_SEATS)
        try:
            chips = replay_deal(stream, contract, hands, stock, (dealer + 1) % N_SEATS, bank)
        except DealUnfinished:
            if index != len(deals) - 1:
                raise RefereeError("the deal's actions stop before it ended, yet a deal follows",
                                   index, len(deal["actions"])) from None
            break
        stream.finish()
        bank += chips.bank
        totals = [t + c for t, c in zip(totals, chips.transfers)]
        name: str | int = LORUM_BASE.index(contract) + 1 if rules.numbered else contract
        entries.append({"contract": name, "transfers": chips.transfers, "bank": chips.bank})
    return {"deals": entries, "bank": bank, "totals": totals, "places": lorum_places(totals)}


def replay_deal(stream: ActionStream, contract: str, hands: list[list[str]], stock: list[str],
                first: int, bank: int) -> Chips:
    """Replay one deal of ``contract`` and return its chips; ``bank`` is the bank before it."""
    if contract in ("hearts", "obers", "no_tricks"):
        return _clean_player_contract(stream, contract, hands, first)
    if contract == "hairy_monkey":
        state = play_tricks(stream, hands, first, lambda s: s.taker_of(KING_OF_HEARTS) is not None)
        return _fees([state.taker_of(KING_OF_HEARTS)], MONKEY_FEE)
    if contract == "makk":
        state = play_tricks(stream, hands, first, lambda s: False)
        jack_taker = state.taker_of(JACK_OF_CLUBS)
        assert jack_taker is not None
        payers = [state.taker_of(KING_OF_HEARTS), state.winners[-1], (jack_taker + 2) % N_SEATS]
        return _fees(payers, MAKK_FEE)
    if contract == "kvart":
        return _winner_collects(play_kvart(stream, hands, first))
    if contract == "fast_train":
        return _winner_collects(play_fast_train(stream, hands, first))
    if contract == "sto_jedan":
        return _fees([play_hundred_one(stream, hands, stock, first)], HUNDRED_ONE_FEE)
    if contract == "domino":
        return _domino(stream, hands, first, bank)
    raise AssertionError(contract)


def _fees(payers: list[int | None], fee: int) -> Chips:
    """Each payer (once per reason) pays ``fee`` into the bank."""
    transfers = [0] * N_SEATS
    for seat in payers:
        assert seat is not None
        transfers[seat] -= fee
    return Chips(transfers, bank=-sum(transfers))


# ---- hearts, obers, no tricks: the clean players collect -------------------------

def _clean_player_contract(stream: ActionStream, contract: str, hands: list[list[str]],
                           first: int) -> Chips:
    """Hearts (1 a heart, 8 in all), obers (Q♣ 1, Q♠ 2, Q♦ 3, Q♥ 4, 10 in all), no tricks
    (1 a trick, 8 in all); the deal ends when the last heart / ober is taken (V16)."""
    ends: dict[str, EndTest] = {
        "hearts": lambda s: sum(1 for cards in s.taken for c in cards if is_heart(c)) == 8,
        "obers": lambda s: sum(1 for cards in s.taken for c in cards if is_queen(c)) == 4,
        "no_tricks": lambda s: False,
    }
    state = play_tricks(stream, hands, first, ends[contract])
    return distribute(penalty_values(contract, state))


def penalty_values(contract: str, state: TrickState) -> list[int]:
    """What each player took, in chips."""
    if contract == "hearts":
        return [sum(1 for c in cards if is_heart(c)) for cards in state.taken]
    if contract == "obers":
        return [sum(OBER_VALUES.get(c, 0) for c in cards) for cards in state.taken]
    return [state.tricks_of(seat) for seat in range(N_SEATS)]


def distribute(values: list[int]) -> Chips:
    """Each taker pays what he took: with four takers into the bank, with three to the
    clean player, with two half each to the two clean players; one taker of everything
    instead collects the whole amount from each opponent."""
    total = sum(values)
    takers = [seat for seat, value in enumerate(values) if value > 0]
    if len(takers) == 1:
        return Chips([3 * total if seat in takers else -total for seat in range(N_SEATS)])
    transfers = [-value for value in values]
    clean = [seat for seat in range(N_SEATS) if seat not in takers]
    if not clean:
        return Chips(transfers, bank=total)
    for seat in clean:
        transfers[seat] = total // len(clean)
    return Chips(transfers)


# ---- kvart and fast train: the first empty hand collects a chip a card -----------

@dataclass
class EmptyHand:
    """The first player out of cards, and the cards still held by each player."""

    winner: int
    cards_left: list[int]


def _winner_collects(end: EmptyHand) -> Chips:
    """The winner gets one chip for each card in each opponent's hand."""
    transfers = [-left for left in end.cards_left]
    transfers[end.winner] = sum(end.cards_left)
    return Chips(transfers)


def _play_card(stream: ActionStream, seat: int, hand: list[str], word: str) -> str:
    """Check that ``word`` is a card in the seat's hand, and take it out of the hand."""
    if not is_card(word):
        raise stream.error(f"{word!r} is not a card")
    if word not in hand:
        raise stream.error(f"{word} is not in seat {seat}'s hand")
    hand.remove(word)
    return word


def play_kvart(stream: ActionStream, hands: list[list[str]], first: int) -> EmptyHand:
    """Kvart: a chain starts with any card; the holder of the next higher card of its suit
    (7 after the ace) must lay it, up to 4 cards or until that card has already been
    played; whoever laid the chain's last card starts the next chain."""
    held = [list(hand) for hand in hands]
    played: set[str] = set()
    starter = first
    while True:
        card = _play_card(stream, starter, held[starter], stream.take(starter))
        played.add(card)
        last, length = starter, 1
        while held[last] and length < 4:
            due = next_rank(rank_of(card)) + suit_of(card)
            if due in played:
                break
            holder = next(seat for seat, hand in enumerate(held) if due in hand)
            word = stream.take(holder)
            if word != due:
                raise stream.error(f"kvart: seat {holder} must lay {due}, not {word!r}")
            card = _play_card(stream, holder, held[holder], word)
            played.add(card)
            last, length = holder, length + 1
        if not held[last]:
            return EmptyHand(last, [len(hand) for hand in held])
        starter = last


def play_fast_train(stream: ActionStream, hands: list[list[str]], first: int) -> EmptyHand:
    """Fast train: any first card, then in turn a card one rank higher in any suit (7
    after the ace), or ``dalje`` without one; after a dalje the same rank is due."""
    held = [list(hand) for hand in hands]
    seat = first
    due: str | None = None
    while True:
        word = stream.take(seat)
        if word == "dalje":
            if due is None:
                raise stream.error(f"seat {seat} must open the fast train with a card")
            if any(rank_of(c) == due for c in held[seat]):
                raise stream.error(f"seat {seat} says dalje but holds a card of rank {due}")
        else:
            if due is not None and is_card(word) and rank_of(word) != due:
                raise stream.error(f"fast train: a card of rank {due} is due, not {word}")
            card = _play_card(stream, seat, held[seat], word)
            if not held[seat]:
                return EmptyHand(seat, [len(hand) for hand in held])
            due = next_rank(rank_of(card))
        seat = (seat + 1) % N_SEATS


def play_hundred_one(stream: ActionStream, hands: list[list[str]], stock: list[str],
                     first: int) -> int:
    """101: in turn, each lays any card on the pile and draws from the stock (while it
    lasts); returns the player whose card brings the total to 101 or more."""
    held = [list(hand) for hand in hands]
    stock = list(stock)
    total = 0
    seat = first
    while True:
        card = _play_card(stream, seat, held[seat], stream.take(seat))
        total += HUNDRED_ONE_VALUES[rank_of(card)]
        if total >= 101:
            return seat
        if stock:
            held[seat].append(stock.pop(0))
        seat = (seat + 1) % N_SEATS


def _domino(stream: ActionStream, hands: list[list[str]], first: int, bank: int) -> Chips:
    """Domino: the layout; each dalje pays 1 into the bank, at the end every other player
    pays 1 a card left, and the winner takes the whole bank (his own daljes included)."""
    end = play_layout(stream, hands, first)
    paid = [end.daljes[seat] + (0 if seat == end.first_out else end.cards_left[seat])
            for seat in range(N_SEATS)]
    transfers = [-p for p in paid]
    transfers[end.first_out] = bank + sum(paid) - paid[end.first_out]
    return Chips(transfers, bank=-bank)
