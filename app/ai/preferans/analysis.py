"""Open-cards values of a preferans card, for the replay's analysis (:mod:`app.analysis`).

A card is valued by the tricks the declarer takes from there on, every hand open: the
exact declarer-against-defenders search (:class:`~app.ai.preferans.solver.PlaySolver`,
as ``majstor`` and the oracle play late in a hand), or, for a position too big for its
budget, the rule-based playout. The value is the seat's cost in tricks: the declarer's
tricks lost (in betl: taken), and for a defender the declarer's tricks (in betl: those
he escapes). Only the cards of one decision are compared; the auction's and the follow
round's words and the claims are rows without values.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.cards import CARD_BY_NAME
from app.games.preferans import PreferansPartie

from app.ai.common.search import SearchAborted
from app.ai.preferans.knowledge import read_view
from app.ai.preferans.oracle import PreferansOracle
from app.ai.preferans.solver import PlaySolver

NODES = 200_000  # the exact search per decision; past it the rule playout values the cards


def open_values(partie: PreferansPartie, seat: int, legal: list[str]) -> dict[str, float] | None:
    """Each legal card's cost in tricks for ``seat`` now (lower is better); None when fewer
    than two cards are legal (a bid, a follow word, the škart)."""
    cards = [CARD_BY_NAME[w] for w in legal if w in CARD_BY_NAME]
    if len(cards) < 2:
        return None
    view: dict[str, Any] = partie.view(seat)
    know = read_view(view)
    declarer = know.declarer
    assert declarer is not None, "cards are played only after a contract"
    oracle = PreferansOracle(partie)
    hands = oracle.deal_hands(know, random.Random(0))[:3]
    try:
        futures = PlaySolver(know.in_play, declarer, know.trump, know.betl, node_limit=NODES).move_values(hands, know.trick, seat)
    except SearchAborted:
        futures = {c: oracle._playout(know, hands, c) for c in cards}
    sign = 1 if (seat == declarer) == know.betl else -1
    return {w: float(sign * futures[c]) for w, c in zip((w for w in legal if w in CARD_BY_NAME), cards)}
