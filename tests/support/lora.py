"""Building Lora (and Lórum) parties at a chosen deal with crafted hands, for the scenario tests."""

from __future__ import annotations

import random

from app.games.cards import CARD_NAMES
from app.games.lora import LoraPartie

SUITS = "SDHC"


def suit(letter: str) -> list[str]:
    return [r + letter for r in "789TJQKA"]


def cards(text: str) -> list[str]:
    return text.split()


def play_randomly(partie: LoraPartie, rng: random.Random) -> None:
    """Finish the current deal with random legal words."""
    deal_index = partie.deal_index
    while partie.deal_index == deal_index and partie.seats_to_act():
        seat = partie.seats_to_act()[0]
        partie.apply(seat, rng.choice(partie.legal_actions(seat)))


def partie_at(deal_index: int, hands: list[list[str]], seed: int = 0, cls: type = LoraPartie,
              settings: dict | None = None) -> LoraPartie:
    """A partie (Lora, or ``cls``: Lórum) whose deals before ``deal_index`` were played
    randomly and whose deal ``deal_index`` has just been dealt with ``hands``."""
    partie = cls.new(settings)
    rng = random.Random(seed)
    deck = list(CARD_NAMES)
    while len(partie.deals) < deal_index:
        rng.shuffle(deck)
        partie.start_deal([sorted(deck[i * 8 : i * 8 + 8]) for i in range(4)])
        play_randomly(partie, rng)
    partie.start_deal(hands)
    return partie


def play(partie: LoraPartie, *words: str) -> None:
    """Play words in turn order, each by the seat whose turn it is."""
    for word in words:
        seats = partie.seats_to_act()
        assert seats, f"nobody is to act before {word}"
        partie.apply(seats[0], word)


