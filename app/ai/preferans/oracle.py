"""The benchmark's upper reference: a preferans player that sees every card.

Not a computer player for the tables: it reads the engine's hidden state, which no real
bot may do. It decides like ``majstor`` but on the true deal instead of samples.
"""

from __future__ import annotations

import random

from app.games.preferans import PreferansPartie

from app.ai.preferans.bots import PlayLevel, PreferansBot
from app.ai.preferans.knowledge import PreferansKnowledge

ORACLE = PlayLevel(search=True, samples=1, exact_cards=24, nodes=60_000, playouts=1, worlds=1)


class PreferansOracle(PreferansBot):
    def __init__(self, partie: PreferansPartie, seed: int | str | None = None):
        super().__init__(ORACLE, seed)
        self.partie = partie

    def deal_hands(self, know: PreferansKnowledge, rng: random.Random) -> list[int]:
        hand = self.partie.hand
        assert hand is not None
        if hand.skart:
            pile = hand.skart
        elif hand.talon_shown:
            pile = 0  # the talon is in the declarer's twelve cards
        else:
            pile = sum(1 << c for c in hand.talon)
        return [*hand.hands, pile]
