"""Trick play without trumps: follow suit if you can, the highest card of the led suit wins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .actions import ActionStream
from .cards import is_card, strength, suit_of


@dataclass
class TrickState:
    """Where a trick contract stands: hands left, cards taken, and who won each trick."""

    hands: list[list[str]]
    n_tricks: int
    taken: list[list[str]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)

    @property
    def n_seats(self) -> int:
        """Number of players at the table."""
        return len(self.hands)

    @property
    def all_played(self) -> bool:
        """True once every trick of the deal has been played."""
        return len(self.winners) == self.n_tricks

    def tricks_of(self, seat: int) -> int:
        """How many tricks the seat has won so far."""
        return self.winners.count(seat)

    def taker_of(self, card: str) -> int | None:
        """The seat that took the card in a trick, None if nobody has taken it (yet)."""
        for seat, cards in enumerate(self.taken):
            if card in cards:
                return seat
        return None


EndTest = Callable[[TrickState], bool]


def play_tricks(stream: ActionStream, hands: list[list[str]], first: int, is_over: EndTest,
                blind: bool = False) -> TrickState:
    """Replay trick play from ``first`` until ``is_over`` says the deal has ended (checked
    after every trick) or all tricks are played. ``blind`` is hrvatska's slepi: each seat
    must play the top card of its hand as the record lists it, with no duty to follow."""
    state = TrickState(hands=[list(hand) for hand in hands], n_tricks=len(hands[0]),
                       taken=[[] for _ in hands])
    leader = first
    while not state.all_played and not is_over(state):
        leader = _play_one_trick(stream, state, leader, blind)
    return state


def _play_one_trick(stream: ActionStream, state: TrickState, leader: int, blind: bool) -> int:
    """Play one trick led by ``leader``; record it in ``state`` and return its winner."""
    played: list[tuple[int, str]] = []
    for offset in range(state.n_seats):
        seat = (leader + offset) % state.n_seats
        card = stream.take(seat)
        led_suit = suit_of(played[0][1]) if played else None
        _check_card(stream, state.hands[seat], seat, card, led_suit, blind)
        state.hands[seat].remove(card)
        played.append((seat, card))
    led = suit_of(played[0][1])
    winner = max((p for p in played if suit_of(p[1]) == led), key=lambda p: strength(p[1]))[0]
    state.winners.append(winner)
    state.taken[winner].extend(card for _, card in played)
    return winner


def _check_card(stream: ActionStream, hand: list[str], seat: int, card: str,
                led_suit: str | None, blind: bool) -> None:
    """Raise unless ``card`` is a legal play from ``hand`` in the current trick."""
    if not is_card(card):
        raise stream.error(f"{card!r} is not a card (a card is due from seat {seat})")
    if card not in hand:
        raise stream.error(f"{card} is not in seat {seat}'s hand")
    if blind:
        if card != hand[0]:
            raise stream.error(f"slepi: seat {seat} must turn its top card {hand[0]}, not {card}")
        return
    if led_suit is not None and suit_of(card) != led_suit and any(suit_of(c) == led_suit for c in hand):
        raise stream.error(f"seat {seat} must follow suit {led_suit} but plays {card}")
