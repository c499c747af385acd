"""Cards as the record writes them: two characters, rank then suit (``"TH"`` = 10 of hearts)."""

from __future__ import annotations

RANKS = "789TJQKA"
SUITS = "SDHC"
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

KING_OF_HEARTS = "KH"
JACK_OF_CLUBS = "JC"


def rank_of(card: str) -> str:
    """The rank character of a card."""
    return card[0]


def suit_of(card: str) -> str:
    """The suit character of a card."""
    return card[1]


def strength(card: str) -> int:
    """The card's strength in trick play: 7 lowest (0) .. A highest (7)."""
    return RANKS.index(card[0])


def next_rank(rank: str) -> str:
    """The next higher rank in a layout or chain, where the 7 follows the ace."""
    return RANKS[(RANKS.index(rank) + 1) % len(RANKS)]


def is_card(word: str) -> bool:
    """True when the word is one of the 32 cards."""
    return word in DECK


def is_heart(card: str) -> bool:
    """True for a heart."""
    return card[1] == "H"


def is_queen(card: str) -> bool:
    """True for a queen (dama / ober)."""
    return card[0] == "Q"
