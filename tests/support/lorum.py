"""Lórum's extras ("101", makk) as their tests set them: the settings, crafted hands and stock,
and a partie at a given deal."""

from __future__ import annotations

import random

from app.games.cards import CARD_NAMES
from app.games.lorum import LorumPartie
from tests.support.lora import cards, play_randomly, suit

BOTH = {"sto_jedan": True, "makk": True}
STO_JEDAN = {"sto_jedan": True}
MAKK = {"makk": True}


def at(slot, hands, stock=None, settings=BOTH, seed=0):
    """A partie whose deals before ``slot`` were dealt and played randomly and whose deal
    ``slot`` has just been dealt with ``hands`` (and 101's ``stock``)."""
    partie = LorumPartie.new(settings)
    rng = random.Random(seed)
    deck = list(CARD_NAMES)
    while len(partie.deals) < slot:
        rng.shuffle(deck)
        if partie.pile_key == "stock":
            partie.start_deal([sorted(deck[i * 4 : i * 4 + 4]) for i in range(4)], deck[16:])
        else:
            partie.start_deal([sorted(deck[i * 8 : i * 8 + 8]) for i in range(4)])
        play_randomly(partie, rng)
    partie.start_deal(hands, stock)
    return partie


# Each seat holds an A and a 10: eight cards make 84, and the 101st point comes with stock left.
FAST_HANDS = [cards("AC TC 7C 8C"), cards("AS TS 7S 8S"), cards("AD TD 7D 8D"), cards("AH TH 7H 8H")]
FAST_STOCK = cards("9S 9D 9H 9C JS JD JH JC QS QD QH QC KS KD KH KC")
SUITS = [suit("S"), suit("D"), suit("H"), suit("C")]
THREE_PAYERS = [suit("S"), cards("7H 8D 9D TD JD QD KD AD"), cards("7D 8H 9H TH JH QH KH AH"), suit("C")]
