"""The layout ("slaganje"): Lora's contract 7 and Lórum's Domino.

The first card sets the starting rank of all four suits; then each in turn must play the
starting rank of a suit not yet begun or the next higher card of a begun suit (the 7
follows the ace), and says ``dalje`` only when he has no such card. The deal ends the
moment a player plays his last card. In 3-player libijska the kitty is one more place,
just before the dealer, whose turns the dealer takes (``kitty XX`` / ``kitty dalje``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .actions import ActionStream
from .cards import RANKS, SUITS, is_card, rank_of, suit_of

KITTY = -1  # the kitty's place in the turn order


@dataclass
class Layout:
    """The cards on the table: the starting rank and how many cards of each suit lie out."""

    start: str | None = None
    laid: dict[str, int] = field(default_factory=lambda: {suit: 0 for suit in SUITS})

    def playable(self, card: str) -> bool:
        """True when the card may be laid now (the first card: any)."""
        if self.start is None:
            return True
        count = self.laid[suit_of(card)]
        if count >= len(RANKS):
            return False
        due = RANKS[(RANKS.index(self.start) + count) % len(RANKS)]
        return rank_of(card) == due

    def lay(self, card: str) -> None:
        """Put the card on the table."""
        if self.start is None:
            self.start = rank_of(card)
        self.laid[suit_of(card)] += 1


@dataclass
class LayoutOutcome:
    """How a layout deal ended."""

    first_out: int
    cards_left: list[int]
    daljes: list[int]
    first_card: str
    last_card: str


def play_layout(stream: ActionStream, hands: list[list[str]], first: int,
                kitty: list[str] | None = None, dealer: int | None = None) -> LayoutOutcome:
    """Replay a layout deal from ``first``; with ``kitty`` its place comes before ``dealer``."""
    n = len(hands)
    held = [list(hand) for hand in hands]
    kitty_cards = list(kitty) if kitty is not None else []
    order = _turn_order(n, first, kitty is not None, dealer)
    layout = Layout()
    daljes = [0] * n
    played: list[str] = []
    turn = 0
    while True:
        place = order[turn % len(order)]
        turn += 1
        if place == KITTY:
            assert dealer is not None
            card = _kitty_turn(stream, dealer, kitty_cards, layout)
            if card is not None:
                played.append(card)
            continue
        card = _seat_turn(stream, place, held[place], layout, first_card=not played)
        if card is None:
            daljes[place] += 1
            continue
        played.append(card)
        if not held[place]:
            return LayoutOutcome(first_out=place, cards_left=[len(h) for h in held],
                                 daljes=daljes, first_card=played[0], last_card=card)


def _turn_order(n: int, first: int, with_kitty: bool, dealer: int | None) -> list[int]:
    """The places in playing order from ``first``, the kitty just before the dealer."""
    order = [(first + k) % n for k in range(n)]
    if with_kitty:
        assert dealer is not None
        order.insert(order.index(dealer), KITTY)
    return order


def _seat_turn(stream: ActionStream, seat: int, hand: list[str], layout: Layout,
               first_card: bool) -> str | None:
    """One player's turn: the card he lays, or None for ``dalje``."""
    word = stream.take(seat)
    can_play = any(layout.playable(card) for card in hand)
    if word == "dalje":
        if first_card:
            raise stream.error(f"seat {seat} must open the layout with a card, not dalje")
        if can_play:
            raise stream.error(f"seat {seat} says dalje but has a playable card")
        return None
    if not is_card(word):
        raise stream.error(f"{word!r} is neither a card nor dalje")
    if word not in hand:
        raise stream.error(f"{word} is not in seat {seat}'s hand")
    if not layout.playable(word):
        raise stream.error(f"{word} cannot be laid now")
    hand.remove(word)
    layout.lay(word)
    return word


def _kitty_turn(stream: ActionStream, dealer: int, kitty: list[str], layout: Layout) -> str | None:
    """The kitty's turn, taken by the dealer: the card laid for it, or None."""
    word = stream.take(dealer)
    if not word.startswith("kitty "):
        raise stream.error(f"the kitty's turn: the dealer says 'kitty <card>' or 'kitty dalje', not {word!r}")
    what = word[len("kitty "):]
    can_play = any(layout.playable(card) for card in kitty)
    if what == "dalje":
        if can_play:
            raise stream.error("kitty dalje, but the kitty has a playable card")
        return None
    if what not in kitty:
        raise stream.error(f"{what!r} is not in the kitty")
    if not layout.playable(what):
        raise stream.error(f"{what} cannot be laid now")
    kitty.remove(what)
    layout.lay(what)
    return what
