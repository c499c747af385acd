"""The benchmark's upper reference: a Lora player that sees every hand.

Not a computer player for the tables: it reads the engine's hidden state, which no
real bot may do. It decides like ``majstor`` but on the true deal instead of samples.
"""

from __future__ import annotations

import random

from app.games.lora import LoraPartie
from app.games.lora.libijska import LibyanLayoutDeal, LibyanTrickDeal

from app.ai.lora.bots import LoraLevel, LoraSearchBot
from app.ai.lora.knowledge import LoraKnowledge
from app.ai.tricks.sampler import World

ORACLE = LoraLevel(samples=1, min_samples=1, exact_cards=24, trick_nodes=40_000, playouts=1, layout_nodes=400_000,
                   bet_samples=1, bet_inner=12, bet_edge=0.2)


class LoraOracle(LoraSearchBot):
    def __init__(self, partie: LoraPartie, seed: int | str | None = None):
        super().__init__(ORACLE, seed)
        self.partie = partie

    def deal_world(self, know: LoraKnowledge, rng: random.Random) -> World:
        deal = self.partie.deal
        assert deal is not None
        kitty = 0
        if isinstance(deal, LibyanLayoutDeal):
            kitty = deal.kitty
        elif isinstance(deal, LibyanTrickDeal):
            kitty = deal.pile_mask
        return list(deal.hands), kitty
