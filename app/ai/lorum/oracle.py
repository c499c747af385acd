"""The benchmark's upper reference: a Lórum player that sees every hand (and 101's stock).

Not a computer player for the tables: it reads the engine's hidden state, which no
real bot may do. It decides like ``majstor`` but on the true deal instead of samples.
"""

from __future__ import annotations

import random

from app.games.lorum import LorumPartie
from app.games.lorum.deals import StoJedanDeal

from app.ai.tricks.pimc import SearchLevel
from app.ai.lorum.bots import LorumSearchBot
from app.ai.lorum.knowledge import LorumKnowledge
from app.ai.lorum.sampler import World

# majstor's model on the one true world: the rule playouts are then exact, one suffices.
ORACLE = SearchLevel(samples=1, min_samples=1, exact_cards=8, trick_nodes=40_000, playouts=1, layout_nodes=400_000)


class LorumOracle(LorumSearchBot):
    def __init__(self, partie: LorumPartie, seed: int | str | None = None):
        super().__init__(ORACLE, seed)
        self.partie = partie

    def deal_world(self, know: LorumKnowledge, rng: random.Random) -> World:  # type: ignore[override]
        deal = self.partie.deal
        assert deal is not None
        stock = deal.stock[deal.drawn:] if isinstance(deal, StoJedanDeal) else ()
        return list(deal.hands), tuple(stock)
