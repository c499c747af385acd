"""Open-cards values of a preferans decision, for the replay's analysis (:mod:`app.analysis`).

A card is valued by the tricks the declarer takes from there on, every hand open: the
exact declarer-against-defenders search (:class:`~app.ai.preferans.solver.PlaySolver`,
as ``majstor`` and the oracle play late in a hand), or, for a position too big for its
budget, the rule-based playout. The value is the seat's cost in tricks: the declarer's
tricks lost (in betl: taken), and for a defender the declarer's tricks (in betl: those
he escapes).

The other decisions (the bids, the škart, the contract, the follow round's words and
kontra) are valued in points of the result, as ``majstor`` weighs them, but over more
worlds: each word's expected result for the seat against the table mean (lower is better),
over deals of the cards that seat does not see drawn consistently with its view (the
sampler of the computer players, :mod:`app.ai.preferans.sampler`), each world solved with
every card open (:func:`~app.ai.preferans.worlds.makes`). The seat is judged by what it
could know, not by the true deal:

- a bid (a number, ``moje``, ``igra``, ``betl``, ``sans``, an igra's trump) is worth the
  best contract it lets the seat play, as its declarer (talon games with the škart the
  hand evaluation picks for each talon); ``dalje`` and ``slabija`` are worth 0;
- a škart is worth the best contract the ten cards it keeps can announce (at least the
  bid); the škart said is compared with the hand evaluation's škart of each contract;
- a contract is worth the declarer's expected result with it (his ten cards as they are);
- the follow words (``pratim``, ``ne pratim``, ``sam``, ``zovem``) are the defender's
  expected result against the table if nobody follows, if he plays alone, if he calls
  (the worlds fitted to the declarer's contract, as ``majstor`` judges them);
- ``kontra`` doubles what the hand is worth to the defenders (half the declarer's expected
  loss each), ``rekontra`` doubles it again for the declarer; ``moze`` keeps it (in pik sa
  talonom without kontra the hand is not played: 0).

The side words (the claims, the offers and their answers) are not valued.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.cards import CARD_BY_NAME
from app.games.preferans import PreferansPartie
from app.games.preferans.between import SIDE_WORDS
from app.games.preferans.contracts import CONTRACT_VALUE, CONTRACT_WORDS

from app.ai.common.search import SearchAborted
from app.ai.preferans.auction import Outlook, auction_outlook, declarer_expectation, plan_outlook, skart_plans
from app.ai.preferans.knowledge import SUIT_WORDS, PreferansKnowledge, read_view
from app.ai.preferans.oracle import PreferansOracle
from app.ai.preferans.sampler import sample_hands
from app.ai.preferans.simulated import PROLAZ, SimulatedChoices, skart_word
from app.ai.preferans.solver import PlaySolver
from app.ai.registry import UnitValues

NODES = 200_000  # the exact search per decision; past it the rule playout values the cards
# The other decisions: worlds per decision, search nodes for each word valued (in all) and
# per world and contract. majstor weighs them with 16 worlds and 12,000 nodes per decision; 12
# worlds keep a deal's analysis within a few seconds (docs/performance.md).
WORLDS = 12
WORD_NODES = 24_000
SOLVE_NODES = 800
POINTS = "points"
SEED = "analysis"  # the worlds are drawn from a fixed seed: the same analysis every time
_OUTLOOKS: dict[tuple[int, int, int, int], Outlook] = {}  # the auction's, in this process


def open_values(partie: PreferansPartie, seat: int, legal: list[str], said: str | None = None) -> dict[str, float] | None:
    """Each legal word's cost for ``seat`` now (lower is better): a card's in tricks, a bid's,
    a škart's, a contract's and a follow word's in points (:class:`UnitValues`); None for
    a claim or an offer's answer, or a decision without a choice. The words about the
    hand before (otpis, taking over or giving back a fall) are not valued: the others are,
    among themselves."""
    legal = [w for w in legal if w not in SIDE_WORDS]
    cards = [CARD_BY_NAME[w] for w in legal if w in CARD_BY_NAME]
    if len(cards) >= 2:
        return card_values(partie, seat, legal, cards)
    if cards or len(legal) < 2:
        return None
    view: dict[str, Any] = partie.view(seat)
    h = view["hand"]
    phase = h["phase"]
    if h.get("ponuda") or view.get("offer") or phase not in ("licitacija", "talon", "kontrakt", "pracenje"):
        return None
    valuer = WordValues(read_view(view), h)
    if phase == "licitacija":
        values = valuer.bids(legal)
    elif phase == "talon":
        values = valuer.skarts(legal, said)
    elif phase == "kontrakt":
        values = valuer.contracts(legal)
    else:
        follow = getattr(partie.hand, "follow", None)
        values = valuer.follow(legal, getattr(follow, "kind", None))
    return UnitValues(values, POINTS) if values else None


def card_values(partie: PreferansPartie, seat: int, legal: list[str], cards: list[int]) -> dict[str, float]:
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


def skart_pair(word: str | None, hand: int) -> frozenset[int] | None:
    """The two cards of a škart word, if they are two of the hand's."""
    parts = (word or "").split()
    if len(parts) != 3 or parts[0] != "skart" or not all(c in CARD_BY_NAME for c in parts[1:]):
        return None
    pair = frozenset(CARD_BY_NAME[c] for c in parts[1:])
    return pair if len(pair) == 2 and all(hand >> c & 1 for c in pair) else None


def v_of(name: str, declared: bool) -> int:
    """What one unit of a contract's value weighs (``v``: twice the contract's value)."""
    return (CONTRACT_VALUE[name] + declared) * 2


class WordValues(SimulatedChoices):
    """majstor's checks in sampled worlds (:class:`SimulatedChoices`), giving every word's value."""

    def __init__(self, know: PreferansKnowledge, h: dict[str, Any]):
        super().__init__(WORLDS, WORD_NODES, SOLVE_NODES, SEED, sample_hands)
        self.know = know
        self.h = h

    def _worlds(self, what: str) -> list[list[int]]:
        return self._sample(self.know, self._rng(self.h, what, self.know.hand), self.worlds)

    # -- the auction ----------------------------------------------------------------------
    def bids(self, legal: list[str]) -> dict[str, float]:
        know, h = self.know, self.h
        key = (h["deal_index"], know.seat, know.hand, h["first_bidder"])  # all the outlook depends on
        outlook = _OUTLOOKS.get(key)
        if outlook is None:  # a seat's every bid in a deal reads the same outlook: computed once
            outlook = auction_outlook(know.hand, know.seat, h["first_bidder"], self._worlds("auction"), self._budget())
            if len(_OUTLOOKS) >= 64:
                _OUTLOOKS.clear()
            _OUTLOOKS[key] = outlook
        out: dict[str, float] = {}
        for w in legal:
            if w in ("dalje", "slabija"):
                out[w] = 0.0
            elif w in SUIT_WORDS:
                out[w] = outlook.value((w, True))
            elif w == "igra":
                out[w] = min(outlook.value((s, True)) for s in SUIT_WORDS)
            elif w in ("betl", "sans"):
                out[w] = outlook.value((w, True))
            elif w.isdigit() or w == "moje":
                level = int(w) if w.isdigit() else int(h["bid"])
                best = outlook.best((n, False) for n in CONTRACT_WORDS if CONTRACT_VALUE[n] >= level)
                if best is not None:
                    out[w] = best[0]
        return out

    # -- the škart and the contract ----------------------------------------------------------
    def skarts(self, legal: list[str], said: str | None) -> dict[str, float]:
        """The škart said and the hand evaluation's škart of each contract it may announce,
        each worth the best of those contracts with the ten cards it keeps."""
        know, h = self.know, self.h
        plans = skart_plans(know.hand, int(h["bid"] or 2))
        pairs = {skart_word(a, b, legal): frozenset((a, b)) for a, b in plans.values()}
        said_pair = skart_pair(said, know.hand)
        if said_pair is not None:  # under the word said (its cards in either order)
            pairs = {w: pair for w, pair in pairs.items() if pair != said_pair}
            pairs[said] = said_pair  # type: ignore[index]
        worlds = self._worlds("skart")
        out: dict[str, float] = {}
        for w, pair in pairs.items():
            ten = know.hand & ~sum(1 << c for c in pair)
            outlook = plan_outlook({n: ten for n in plans}, know.seat, h["first_bidder"], worlds, self._budget())
            best = outlook.best((n, False) for n in plans)
            assert best is not None
            out[w] = best[0]
        return out

    def contracts(self, legal: list[str]) -> dict[str, float]:
        know, h = self.know, self.h
        outlook = plan_outlook({w: know.hand for w in legal}, know.seat, h["first_bidder"], self._worlds("contract"),
                               self._budget())
        return {w: outlook.value((w, False)) for w in legal}

    # -- the follow round ---------------------------------------------------------------------
    def follow(self, legal: list[str], kind: str | None) -> dict[str, float]:
        """``kind``: the round's kind (``normal``, ``betl``, or ``pik``: pik sa talonom
        without an open refe, played only with a kontra)."""
        know, h = self.know, self.h
        name = know.contract
        if know.declarer is None or name is None:
            return {}
        v = v_of(name, know.declared)
        played = 0.0  # the hand as it will be played, without kontra: the seat's expected result
        if "kontra" in legal or "rekontra" in legal or kind == "pik":
            declarer = declarer_expectation((name, know.declared), 1 - self._declarer_fails(know, h))
            played = declarer if know.seat == know.declarer else -declarer / 2
        if "rekontra" in legal:  # the declarer, after a kontra: twice, or four times
            return {"rekontra": 4 * played, "moze": 2 * played}
        out: dict[str, float] = {}
        follows = [w for w in legal if w in ("pratim", "ne pratim", "sam", "zovem")]
        if kind == "pik":  # not played unless a follower says kontra
            out.update({w: 0.0 for w in follows + ["moze"] if w in legal})
            if "pratim" in out:  # he may give kontra later
                out["pratim"] = min(0.0, 2 * played)
        elif follows:
            per_v = self._follow_values(know, h)
            said = (h.get("follow") or {}).get("words", [])
            for w in follows:
                if w == "pratim":  # the first to speak may end alone or calling (majstor's view)
                    out[w] = v * (max(per_v["sam"], per_v["zovem"]) if not said else per_v["zovem"])
                elif w == "ne pratim":  # a prolaz, unless the other defender follows
                    out[w] = v * PROLAZ if not any(x == "pratim" for _, x in said) else 0.0
                else:
                    out[w] = v * per_v[w]
        if "kontra" in legal:
            ways = [out[w] for w in ("sam", "zovem") if w in out]
            out["kontra"] = 2 * min(ways) if ways else 2 * played
            if "moze" in legal and kind != "pik":
                out["moze"] = played
        return out
