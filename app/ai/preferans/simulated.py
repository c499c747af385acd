"""The auction, škart, contract and kontra decisions of the search levels, each checked
in sampled worlds solved open-handed (see ``auction``); ``None`` leaves a decision to
the hand evaluation."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.games.cards import CARD_NAMES
from app.games.preferans.contracts import CONTRACT_VALUE, CONTRACT_WORDS

from app.ai.preferans.auction import Outlook, auction_outlook, leader_for, plan_outlook, skart_plans, trump_of
from app.ai.preferans.evaluation import betl_risk, contract_tricks, defence_tricks
from app.ai.preferans.knowledge import SUIT_WORDS, PreferansKnowledge
from app.ai.preferans.solver import RuleDefenceSolver
from app.ai.preferans.worlds import NodeBudget, World, conditioned, makes

DECLARATIONS = ("igra", "betl", "sans")
KONTRA_FAIL = 0.7  # kontra when the declarer fails in this share of the worlds
REKONTRA_MAKE = 0.9
FOLLOW_SHIFT = 0  # tricks real defence holds the declarer below the rule defence (1 made majstor defenders follow and fall too often against majstor declarers)
FOLLOW_MARGIN = 0.5  # pratim only when following is worth this much more than letting it pass (per v)
PASSER_STRENGTH = 2.0  # a defender who says ne pratim holds fewer defence tricks than this (hand evaluation)
PROLAZ = 10 / 3  # my result against the table when nobody follows, per v (the declarer writes -v bule)


def against_table(my_tricks: int, declarer_tricks: int, fall_below: int) -> float:
    """My result change minus the table mean, per v, when I write my defence's tricks
    (``my_tricks``) against the declarer and fall below ``fall_below`` of them."""
    fall = my_tricks < fall_below
    bule = (-1 if declarer_tricks >= 6 else 1) + fall
    return -my_tricks + 10 * fall - 10 * bule / 3


def rule_value(seats: tuple[int, ...], world: World, declarer: int, trump: int | None, leader: int) -> int:
    """Declarer tricks with the seats ``seats`` in play, he searching, the defence by the rules."""
    hands = [world[s] if s in seats else 0 for s in range(3)]
    solver = RuleDefenceSolver(seats, declarer, trump, False)
    lo, hi = 0, 10
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if solver.reaches(hands, leader, mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def leader_among(seats: tuple[int, ...], name: str, declarer: int, first_bidder: int) -> int:
    """Who leads when only ``seats`` play (as the engine sets it up)."""
    if name == "sans":
        return (declarer + 2) % 3 if (declarer + 2) % 3 in seats else (declarer + 1) % 3
    return next(s for s in (first_bidder, (first_bidder + 1) % 3, (first_bidder + 2) % 3) if s in seats)


def contract_fit(know: PreferansKnowledge) -> Callable[[World], float]:
    """How well a world fits the declarer's contract (positive: it fits): his ten cards
    (those still held and those he has played) should make the contract by the hand
    evaluation (betl: be safe enough)."""
    d = know.declarer
    name = know.contract
    assert d is not None and name is not None
    trump = trump_of(name)
    need = (6.0 if know.declared else 5.0) + (0.5 if name == "sans" else 0.0)
    played = know.played_by[d]
    if name == "betl":
        return lambda world: 1.8 - betl_risk(world[d] | played)
    return lambda world: contract_tricks(world[d] | played, trump) - need


def skart_word(a: int, b: int, words: list[str]) -> str:
    want = {f"skart {CARD_NAMES[a]} {CARD_NAMES[b]}", f"skart {CARD_NAMES[b]} {CARD_NAMES[a]}"}
    return next((w for w in words if w in want), words[0])


class SimulatedChoices:
    def __init__(self, worlds: int, nodes: int, solve_nodes: int, seed: int | str | None,
                 draw: Callable[[PreferansKnowledge, random.Random], World]):
        self.worlds = worlds
        self.nodes = nodes
        self.solve_nodes = solve_nodes
        self.seed = seed
        self.draw = draw
        self._cache: dict[tuple[Any, ...], Any] = {}  # per hand: outlooks and plans (view-derived keys)

    def decide(self, know: PreferansKnowledge, h: dict[str, Any], words: list[str]) -> str | None:
        phase = h["phase"]
        if phase == "licitacija":
            return self._bid(know, h, words)
        if phase == "talon":
            return self._skart(know, h, words)
        if phase == "kontrakt":
            return self._contract(know, h, words)
        if phase == "pracenje":
            return self._follow(know, h, words)
        return None

    # -- shared ----------------------------------------------------------------------------
    def _rng(self, h: dict[str, Any], what: str, hand: int) -> random.Random:
        return random.Random(f"{self.seed}:{h['deal_index']}:{what}:{hand}")

    def _budget(self) -> NodeBudget:
        return NodeBudget(self.nodes, self.solve_nodes)

    def _remember(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = make()
        return self._cache[key]

    def _sample(self, know: PreferansKnowledge, rng: random.Random, n: int) -> list[World]:
        return [self.draw(know, rng) for _ in range(n)]

    # -- auction -----------------------------------------------------------------------------
    def _bid(self, know: PreferansKnowledge, h: dict[str, Any], words: list[str]) -> str:
        first = h["first_bidder"]
        outlook: Outlook = self._remember(
            ("auction", h["deal_index"], know.seat, know.hand),
            lambda: auction_outlook(know.hand, know.seat, first,
                                    self._sample(know, self._rng(h, "auction", know.hand), self.worlds), self._budget()))
        suits = [w for w in words if w in SUIT_WORDS]
        if suits:  # naming the trump of a declared igra
            value, (name, _) = outlook.best((s, True) for s in suits)  # type: ignore[misc]
            return name if value < 0 or "slabija" not in words else "slabija"
        choices: list[tuple[float, int, str]] = [(0.0, 0, "dalje")]
        if "igra" in words:
            best = outlook.best((s, True) for s in SUIT_WORDS)
            assert best is not None
            choices.append((best[0], 1, "igra"))
        for w in ("betl", "sans"):
            if w in words:
                choices.append((outlook.value((w, True)), 1, w))
        level = next((int(w) for w in words if w.isdigit()), None)
        if level is None and "moje" in words:
            level = int(h["bid"])
        if level is not None:
            talon = outlook.best((n, False) for n in CONTRACT_WORDS if CONTRACT_VALUE[n] >= level)
            if talon is not None:
                choices.append((talon[0], 2, "moje" if "moje" in words else str(level)))
        value, _, word = min(choices)
        return word if word in words else "dalje"

    # -- talon and contract ---------------------------------------------------------------------
    def _plan(self, know: PreferansKnowledge, h: dict[str, Any], twelve: int) -> tuple[str, tuple[int, int] | None]:
        bid = int(h["bid"] or 2)
        plans = skart_plans(twelve, bid)
        tens = {n: twelve & ~(1 << a) & ~(1 << b) for n, (a, b) in plans.items()}
        worlds = self._sample(know, self._rng(h, "skart", twelve), self.worlds)
        outlook = plan_outlook(tens, know.seat, h["first_bidder"], worlds, self._budget())
        best = outlook.best((n, False) for n in plans)
        assert best is not None
        name = best[1][0]
        return name, plans[name]

    def _skart(self, know: PreferansKnowledge, h: dict[str, Any], words: list[str]) -> str:
        name, pair = self._remember(("plan", h["deal_index"], know.seat, know.hand), lambda: self._plan(know, h, know.hand))
        assert pair is not None
        a, b = pair
        ten = know.hand & ~(1 << a) & ~(1 << b)
        self._cache[("contract", h["deal_index"], know.seat, ten)] = name
        return skart_word(a, b, words)

    def _contract(self, know: PreferansKnowledge, h: dict[str, Any], words: list[str]) -> str:
        name = self._cache.get(("contract", h["deal_index"], know.seat, know.hand))
        if name in words:
            return name
        # not planned by this bot (a seat taken over after the škart): my ten cards as they are
        tens = {w: know.hand for w in words}
        worlds = self._sample(know, self._rng(h, "contract", know.hand), self.worlds)
        best = plan_outlook(tens, know.seat, h["first_bidder"], worlds, self._budget()).best((w, False) for w in words)
        return best[1][0] if best else words[0]

    # -- following, kontra, rekontra ----------------------------------------------------------------
    def _declarer_fails(self, know: PreferansKnowledge, h: dict[str, Any]) -> float:
        """Share of the worlds, fitted to the declarer's contract, in which he fails."""
        d = know.declarer
        name = know.contract
        assert d is not None and name is not None
        trump = trump_of(name)
        betl = name == "betl"
        fits = contract_fit(know)

        def compute() -> float:
            rng = self._rng(h, "follow", know.hand)
            worlds = conditioned(lambda r: self.draw(know, r), fits, rng, self.worlds, self.worlds * 8)
            budget = self._budget()
            leader = leader_for(name, d, h["first_bidder"])
            made = sum(makes(w, d, trump, betl, leader, budget, 0.5) for w in worlds)
            return 1 - made / len(worlds)

        return self._remember(("fails", h["deal_index"], know.seat, know.hand, name), compute)

    def _follow_values(self, know: PreferansKnowledge, h: dict[str, Any]) -> dict[str, float]:
        """My expected result against the table (per v, lower is better) if nobody follows,
        if I follow alone (sam: the declarer and I play two-handed) and if I call (zovem:
        both defenders play, I write and answer for their tricks), in worlds fitted to the
        contract; the defence holds the declarer ``FOLLOW_SHIFT`` below the rule defence."""
        d, name = know.declarer, know.contract
        assert d is not None and name is not None
        trump = trump_of(name)
        me = know.seat

        def compute() -> dict[str, float]:
            rng = self._rng(h, "follow-values", know.hand)
            fit = contract_fit(know)
            said = (h.get("follow") or {}).get("words", [])
            passed = [s for s, w in said if w == "ne pratim" and s != me]
            if passed:  # the other defender did not follow: his hand is weak for defence
                other = passed[0]
                contract_fits = fit
                fit = lambda w: min(contract_fits(w), PASSER_STRENGTH - defence_tricks(w[other], trump))  # noqa: E731
            worlds = conditioned(lambda r: self.draw(know, r), fit, rng, self.worlds, self.worlds * 8)
            first = h["first_bidder"]
            pair = tuple(sorted((d, me)))
            out = {"ne pratim": PROLAZ, "sam": 0.0, "zovem": 0.0}
            for w in worlds:
                three = max(0, rule_value((0, 1, 2), w, d, trump, leader_among((0, 1, 2), name, d, first)) - FOLLOW_SHIFT)
                two = max(0, rule_value(pair, w, d, trump, leader_among(pair, name, d, first)) - FOLLOW_SHIFT)
                out["sam"] += against_table(10 - two, two, 2) / len(worlds)
                out["zovem"] += against_table(10 - three, three, 4) / len(worlds)
            return out

        return self._remember(("follow-values", h["deal_index"], me, know.hand, name), compute)

    def _follow(self, know: PreferansKnowledge, h: dict[str, Any], words: list[str]) -> str | None:
        if "rekontra" in words:
            return "rekontra" if 1 - self._declarer_fails(know, h) >= REKONTRA_MAKE else "moze"
        if "kontra" in words:
            fails = self._declarer_fails(know, h)
            if fails >= KONTRA_FAIL:
                return "kontra"
            if "moze" in words:
                return "moze"
        if know.betl or know.declarer is None or (know.contract == "pik" and not know.declared):
            return None  # betl and pik sa talonom: kontra or not, decided above or by the evaluation
        said = [w for _, w in (h.get("follow") or {}).get("words", [])]
        if "sam" in words or "zovem" in words:  # I may play alone or call: pick the best
            values = self._follow_values(know, h)
            return min((w for w in words if w in values), key=lambda w: values[w])
        if "pratim" in words and not said:
            # the first to speak does not know whether the other joins (then each answers for
            # his own tricks, as alone) or passes (then he may call): follow if the worse of
            # playing alone and calling still beats a prolaz
            values = self._follow_values(know, h)
            return "pratim" if max(values["sam"], values["zovem"]) < PROLAZ - FOLLOW_MARGIN else "ne pratim"
        return None
