"""Open-cards values of a Lórum decision, for the replay's analysis (:mod:`app.analysis`).

The values are the oracle's (:class:`~app.ai.lorum.oracle.LorumOracle`: the ``majstor``
bot's searches on the true deal): a trick contract by the exact search in its last
tricks and a rule playout before, Kvart, Fast train, Domino and 101 by the max-n search
over the remaining turns, or a rule playout when the position is too big for its budget.
101 is searched with the stock's true order (the bot itself plays the rule while the
stock lasts, having only guesses of it). A value is the seat's cost from there on, in
chips (paid, minus won): only the differences between the cards of one decision mean
something.
"""

from __future__ import annotations

from typing import Any

from app.games.cards import CARD_BY_NAME
from app.games.lorum import LorumPartie

from app.ai.common.search import SearchAborted
from app.ai.tricks.pimc import decision_rng
from app.ai.lorum.bots import turn_game
from app.ai.lorum.knowledge import read_lorum
from app.ai.lorum.oracle import ORACLE, LorumOracle
from app.ai.lorum.turns import MaxnSearch, playout

# 101 while its stock lasts: a whole deal's search rarely fits even the oracle's budget
# (seconds per decision before it gives up), so the analysis stops sooner and plays out.
STOCK_NODES = 50_000


def open_values(partie: LorumPartie, seat: int, legal: list[str], said: str | None = None) -> dict[str, float] | None:
    """Each legal card's cost for ``seat`` now, every hand (and 101's stock) open; None
    when there is no choice (``dalje`` is only ever said alone)."""
    if len(legal) < 2 or not all(w in CARD_BY_NAME for w in legal):
        return None
    cards = [CARD_BY_NAME[w] for w in legal]
    view: dict[str, Any] = partie.view(seat)
    know = read_lorum(view)
    oracle = LorumOracle(partie)
    rng = decision_rng(None, view)
    if know.rule is not None:
        totals = oracle.card_totals(know, cards, rng)
        return {w: float(totals[c]) for w, c in zip(legal, cards)}
    game, state = turn_game(know, oracle.deal_world(know, rng))
    try:
        limit = STOCK_NODES if know.stock_size else ORACLE.layout_nodes
        values = MaxnSearch(game, seat, node_limit=limit).move_values(state)
    except SearchAborted:
        values = {c: playout(game, state, c)[seat] for c in cards}
    return {w: float(values[c]) for w, c in zip(legal, cards)}
