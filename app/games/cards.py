"""The Club's 32-card deck, shared by every game.

A card is an ``int`` 0..31: ``suit * 8 + rank``. Suits are in the order of the record
notation and of preferans strength (pik < karo < herc < tref); ranks run 7 (0) to A (7).
A set of cards is a bit mask (``1 << card``), which keeps the engines fast.
The two-character notation of ``klub-record/1`` is rank then suit: ``TH`` = 10 herc.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

Card = int

SUIT_LETTERS = "SDHC"
RANK_LETTERS = "789TJQKA"
SUIT_NAMES = ("pik", "karo", "herc", "tref")
SUIT_SYMBOLS = ("\u2660", "\u2666", "\u2665", "\u2663")
RANK_LABELS = ("7", "8", "9", "10", "J", "Q", "K", "A")

SPADES, DIAMONDS, HEARTS, CLUBS = range(4)
PIK, KARO, HERC, TREF = SPADES, DIAMONDS, HEARTS, CLUBS
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

DECK_SIZE = 32
DECK: tuple[Card, ...] = tuple(range(DECK_SIZE))
FULL_MASK = (1 << DECK_SIZE) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))

CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUIT_LETTERS for r in RANK_LETTERS)
CARD_BY_NAME: dict[str, Card] = {name: i for i, name in enumerate(CARD_NAMES)}


class CardError(ValueError):
    """A card, hand or deal that cannot exist in the Club's deck."""


def card(rank: int, suit: int) -> Card:
    return suit * 8 + rank


def suit_of(c: Card) -> int:
    return c >> 3


def rank_of(c: Card) -> int:
    return c & 7


def card_name(c: Card) -> str:
    return CARD_NAMES[c]


def is_card_name(text: object) -> bool:
    return isinstance(text, str) and text in CARD_BY_NAME


def parse_card(text: object) -> Card:
    """``"QS"`` -> the queen of pik. Raises :class:`CardError` naming the bad text."""
    if not isinstance(text, str):
        raise CardError(f"a card must be a two-character string, got {text!r}")
    try:
        return CARD_BY_NAME[text]
    except KeyError:
        raise CardError(
            f"{text!r} is not a card: write rank ({RANK_LETTERS}) then suit ({SUIT_LETTERS}), e.g. 'TH'"
        ) from None


def parse_cards(texts: object, *, count: int | None = None) -> list[Card]:
    """Parse a hand; every card at most once, and exactly ``count`` cards when given."""
    if not isinstance(texts, (list, tuple)):
        raise CardError(f"a hand must be a list of cards, got {texts!r}")
    cards = [parse_card(t) for t in texts]
    if len(set(cards)) != len(cards):
        dup = next(card_name(c) for c in cards if cards.count(c) > 1)
        raise CardError(f"card {dup} appears twice")
    if count is not None and len(cards) != count:
        raise CardError(f"expected {count} cards, got {len(cards)}")
    return cards


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, lowest first (which is also suit-then-rank order)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_NAMES_BY_SUIT_BYTE = tuple(
    tuple(tuple(CARD_NAMES[s * 8 + r] for r in range(8) if (b >> r) & 1) for b in range(256)) for s in range(4)
)


def names_of(mask: int) -> list[str]:
    """The record names of a mask's cards, lowest first."""
    out: list[str] = []
    for s in range(4):
        b = (mask >> (8 * s)) & 0xFF
        if b:
            out.extend(_NAMES_BY_SUIT_BYTE[s][b])
    return out


def count_of(mask: int) -> int:
    return mask.bit_count()


def highest(mask: int) -> Card:
    return mask.bit_length() - 1


def legal_mask(hand: int, lead: Card | None, trump: int | None = None) -> int:
    """The cards of ``hand`` that may go on a trick led with ``lead`` (None: leading):
    follow suit, else trump (when there is one), else anything."""
    if lead is None:
        return hand
    follow = hand & SUIT_MASKS[lead >> 3]
    if follow:
        return follow
    if trump is not None:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps
    return hand


def check_partition(hands: Sequence[Sequence[Card]], extra: Sequence[Card] = ()) -> None:
    """Raise unless the hands (plus e.g. a talon) hold each of the 32 cards exactly once."""
    seen: dict[Card, int] = {}
    for seat, hand in enumerate(hands):
        for c in hand:
            if c in seen:
                raise CardError(f"card {card_name(c)} is dealt twice")
            seen[c] = seat
    for c in extra:
        if c in seen:
            raise CardError(f"card {card_name(c)} is dealt twice")
        seen[c] = -1
    missing = [card_name(c) for c in DECK if c not in seen]
    if missing:
        raise CardError(f"the deal is not the whole deck: missing {', '.join(missing)}")


def shuffled_deck(seed: int | str, deal_index: int) -> list[Card]:
    """The shuffled deck of one deal of a partie: a function of the partie seed and index."""
    uniform = random.Random(f"klub:{seed}:{deal_index}").random
    deck = list(DECK)
    for i in range(DECK_SIZE - 1, 0, -1):  # Fisher-Yates on random(): cheaper than shuffle()
        j = int(uniform() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_one_by_one(
    deck: Sequence[Card], n_seats: int, per_seat: int, first_seat: int
) -> list[list[Card]]:
    """Deal "jedna po jedna": one card at a time, starting with ``first_seat``.

    Returns the hands in seat order; cards beyond ``n_seats * per_seat`` are not dealt
    (the caller takes them, e.g. the preferans talon).
    """
    return deal_in_packets(deck, n_seats, per_seat, first_seat, 1)


def deal_in_packets(
    deck: Sequence[Card], n_seats: int, per_seat: int, first_seat: int, packet: int, sort: bool = True
) -> list[list[Card]]:
    """Deal ``packet`` cards at a time to each seat in turn, starting with ``first_seat``;
    each hand sorted, or (``sort=False``) in the order its cards were dealt."""
    hands: list[list[Card]] = [[] for _ in range(n_seats)]
    round_size = n_seats * packet
    for k in range(n_seats):
        seat = (first_seat + k) % n_seats
        for start in range(k * packet, n_seats * per_seat, round_size):
            hands[seat].extend(deck[start : start + packet])
        if sort:
            hands[seat].sort()
    return hands
