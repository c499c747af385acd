"""The Lórum search levels ``iskusan`` and ``majstor``: PIMC (``app.ai.tricks.pimc``), as Lora's.

Deal the unseen cards many times consistently with the seat's view, value each legal
card on each deal with all cards open by the chips that seat pays or gets in this
contract, and play the card with the best average.

- Trick contracts (Hearts, Obers, No tricks, Hairy monkey, makk): exactly by alpha-beta
  once few cards are left (``exact_cards``) and the node budget lets enough deals be
  solved, else by rule-based playouts (:mod:`app.ai.lorum.tricks`).
- Kvart, Fast train, Domino and 101: exactly by max-n search over the remaining turns
  when each deal fits its share of the node budget, else by rule-based playouts
  (:mod:`app.ai.lorum.turns`); iskusan by playouts only. 101 while its stock is not
  empty: by the rule of ``pocetnik``.

The seat's view is all it reads (:func:`~app.ai.lorum.knowledge.read_lorum`); the
generator of each decision depends on the seed and the decision only.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.cards import CARD_BY_NAME, CARD_NAMES, mask_of
from app.games.lorum.contracts import LorumContract

from app.ai.common.search import SearchAborted
from app.ai.tricks.pimc import PimcBot, SearchLevel, decision_rng
from app.ai.lorum.knowledge import LorumKnowledge, read_lorum
from app.ai.lorum.rules import pile_card
from app.ai.lorum.sampler import World, sample_lorum_world
from app.ai.lorum.tricks import LorumTrickSolver, trick_playout_cost
from app.ai.lorum.turns import DominoGame, FastTrainGame, KvartGame, MaxnSearch, State, StoJedanGame, TurnGame, playout

# ``layout_nodes``: the node budget of the turn contracts' search per decision (0: they
# are played by playouts only). The exact search of a trick contract assumes the three
# others play against me; against players who play for themselves it paid off only in
# the last two tricks (8 cards in hands): from 12 or 20 cards on, rule playouts decided
# better (about 0.5 chips a trick deal, duplicate deals against pocetnik). iskusan, the
# simpler model: fewer deals and playouts, the trick search from the last three tricks
# with a smaller budget, and no search of the turn contracts.
ISKUSAN = SearchLevel(samples=10, min_samples=4, exact_cards=12, trick_nodes=1_500, playouts=8, layout_nodes=0)
MAJSTOR = SearchLevel(samples=40, min_samples=8, exact_cards=8, trick_nodes=4_000, playouts=36, layout_nodes=100_000)


def turn_game(know: LorumKnowledge, world: World) -> tuple[TurnGame, State]:
    """The game of a contract without tricks on this world, and the position at my choice."""
    hands, stock = world
    seat = know.seat
    at = tuple(hands)
    if know.lorum is LorumContract.KVART:
        return KvartGame(), (at, seat, know.chain, know.chain_needs)
    if know.lorum is LorumContract.FAST_TRAIN:
        return FastTrainGame(), (at, seat, know.train_rank)
    if know.lorum is LorumContract.DOMINO:
        return DominoGame(know.bank_before), (at, seat, know.start_rank, know.next_cards, tuple(know.passes))
    assert know.lorum is LorumContract.STO_JEDAN
    return StoJedanGame(stock), (at, seat, know.total, 0)


class LorumSearchBot(PimcBot):
    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if len(legal) == 1:  # dalje is only ever said alone
            return legal[0]
        rng = decision_rng(self.seed, view)
        know = read_lorum(view)
        cards = [CARD_BY_NAME[w] for w in legal]
        totals = self.card_totals(know, cards, rng)
        return CARD_NAMES[min(cards, key=lambda c: (totals[c], c))]

    def card_totals(self, know: LorumKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:
        """Each legal card's cost summed over the deals drawn (lower is better; 101 while
        its stock lasts: 0 for the rule's card, 1 for the others)."""
        if know.rule is not None:
            return self._trick_totals(know, cards, rng)
        return self._turn_totals(know, cards, rng)

    # Lórum's world holds 101's stock in order where Lora's holds a kitty mask: the
    # sampling loop (PimcBot._solved_totals) passes it on to Lórum's solvers.
    def deal_world(self, know: LorumKnowledge, rng: random.Random) -> World:  # type: ignore[override]
        return sample_lorum_world(know, rng)

    # -- trick contracts (PimcBot._trick_totals decides between the two) -------

    def _exact_trick_totals(self, know: LorumKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:  # type: ignore[override]
        def solve(world: World, limit: int) -> tuple[dict[int, int], int]:
            solver = LorumTrickSolver(know, node_limit=limit)
            return solver.move_values(world[0], know.trick), solver.nodes

        totals, _ = self._solved_totals(know, cards, rng, self.level.trick_nodes, solve,  # type: ignore[arg-type]
                                        need_min_samples=True)
        return totals

    def _playout_totals(self, know: LorumKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:  # type: ignore[override]
        totals = dict.fromkeys(cards, 0.0)
        for _ in range(self.level.playouts):
            hands, _ = self.deal_world(know, rng)
            for c in cards:
                totals[c] += trick_playout_cost(know, hands, c)
        return totals

    # -- Kvart, Fast train, Domino, 101 -----------------------------------------

    def _turn_totals(self, know: LorumKnowledge, cards: list[int], rng: random.Random) -> dict[int, float]:
        level = self.level
        share = level.layout_nodes // max(1, level.min_samples)  # each deal's part of the budget

        def solve(world: World, limit: int) -> tuple[dict[int, int], int]:
            game, state = turn_game(know, world)
            search = MaxnSearch(game, know.seat, node_limit=min(limit, share))
            return search.move_values(state), search.nodes

        if know.lorum is LorumContract.STO_JEDAN and know.stock_size:
            # While there is a stock, searching each sampled order of it as if known, or
            # playouts, measured no better than the rule (and the playouts worse): the rule.
            rule = pile_card(mask_of(cards), know.total)
            return {c: (0.0 if c == rule else 1.0) for c in cards}
        if level.layout_nodes:
            try:
                totals, _ = self._solved_totals(know, cards, rng, level.layout_nodes, solve,  # type: ignore[arg-type]
                                                need_min_samples=True)
                return totals
            except SearchAborted:
                pass
        totals = dict.fromkeys(cards, 0.0)
        for _ in range(level.playouts):
            game, state = turn_game(know, self.deal_world(know, rng))
            for c in cards:
                totals[c] += playout(game, state, c)[know.seat]
        return totals
