"""Libyan Lora (rulings V10-V12, V15, V17) as its tests set it: the settings, a deal at a chosen
slot with crafted hands and kitty, tricks led in turn."""

from __future__ import annotations

import random

from app.games.cards import CARD_NAMES
from app.games.lora import LoraPartie
from tests.support.lora import suit

LIB3 = {"variant": "libijska", "igraca": 3}
BETS = {"variant": "libijska", "opklade": True}
# Each seat holds one suit: the first player (seat 1, diamonds) leads and wins every trick.
SUIT_HANDS = [suit("S"), suit("D"), suit("H"), suit("C")]


def random_deal(rng: random.Random, n: int) -> tuple[list[list[str]], list[str] | None]:
    deck = list(CARD_NAMES)
    rng.shuffle(deck)
    per = 32 // n
    hands = [sorted(deck[i * per:(i + 1) * per]) for i in range(n)]
    return hands, (deck[n * per:] if n == 3 else None)


def at_slot(settings: dict, slot: int, hands: list[list[str]], kitty: list[str] | None = None,
            seed: int = 0) -> LoraPartie:
    """A partie whose slots before ``slot`` were played randomly and whose next deal (in
    ``slot``) has just been dealt with ``hands`` (and ``kitty``)."""
    partie = LoraPartie.new(settings)
    rng = random.Random(seed)
    while partie.next_slot < slot:
        partie.start_deal(*random_deal(rng, partie.n_seats))
        while partie.seats_to_act():
            s = partie.seats_to_act()[0]
            partie.apply(s, rng.choice(partie.legal_actions(s)))
    partie.start_deal(hands, kitty)
    return partie


def lead_all(partie: LoraPartie, tricks: int, order=(1, 2, 3, 0)) -> None:
    """With SUIT_HANDS: ``tricks`` tricks, every seat playing its lowest card in turn."""
    for _ in range(tricks):
        for s in order:
            partie.apply(s, partie.legal_actions(s)[0])


def split(kitty: list[str]) -> list[list[str]]:
    """The deck without ``kitty``, ten cards a seat in order."""
    rest = [c for c in CARD_NAMES if c not in kitty]
    return [rest[i * 10:(i + 1) * 10] for i in range(3)]
