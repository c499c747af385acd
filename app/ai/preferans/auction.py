"""Simulation-checked contracts: what each contract I could play is worth, from worlds.

An option is (contract name, declared): declared games (igra, betl, sans without the
talon) are worth one more and are played with my ten cards; talon games with my twelve
less the škart that the hand evaluation picks for that contract. Every option is solved
open-handed in every world (make or not); its worth is the expected result change of the
declarer against the table (section 15; lower is better).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from app.games.preferans.contracts import CONTRACT_VALUE, CONTRACT_WORDS

from app.ai.preferans.evaluation import best_skart, betl_risk, contract_tricks
from app.ai.preferans.knowledge import SUIT_WORDS
from app.ai.preferans.sampler import PILE
from app.ai.preferans.worlds import NodeBudget, World, makes

Option = tuple[str, bool]  # (contract name, declared)
MAKE_SUPE, FAIL_SUPE = 2.5, 5.0  # followers' tricks (written as supe, x v) when it is made / not
BETL_SUPA = {False: 60, True: 70}
NOT_EVALUATED = 0.0  # make probability of an option the hand evaluation rules out


def declarer_expectation(option: Option, p_make: float) -> float:
    """Expected result change of the declarer minus the table mean, for one hand."""
    name, declared = option
    v = (CONTRACT_VALUE[name] + declared) * 2
    table = 20 / 3 * v  # a pass or fall of v moves him 10 v, the table mean 10 v / 3
    if name == "betl":
        return p_make * -table + (1 - p_make) * (table + 2 * BETL_SUPA[declared])
    return p_make * (-table + MAKE_SUPE * v) + (1 - p_make) * (table + FAIL_SUPE * v)


@dataclass
class Outlook:
    make: dict[Option, float] = field(default_factory=dict)

    def value(self, option: Option) -> float:
        return declarer_expectation(option, self.make.get(option, NOT_EVALUATED))

    def best(self, options: Iterable[Option]) -> tuple[float, Option] | None:
        scored = [(self.value(o), o) for o in options]
        return min(scored, key=lambda x: (x[0], -CONTRACT_VALUE[x[1][0]])) if scored else None


def leader_for(name: str, declarer: int, first_bidder: int) -> int:
    return (declarer + 2) % 3 if name == "sans" else first_bidder


def trump_of(name: str) -> int | None:
    return SUIT_WORDS.index(name) if name in SUIT_WORDS else None


def candidates(hand: int, declared: bool) -> list[str]:
    """Contracts worth solving for ``hand`` (ten cards; the talon may add to it)."""
    need = 5.0 if declared else 3.5
    suits = sorted(range(4), key=lambda t: -contract_tricks(hand, t))[:2]
    out = [SUIT_WORDS[t] for t in suits if contract_tricks(hand, t) >= need]
    if contract_tricks(hand, None) >= need + 0.5:
        out.append("sans")
    if betl_risk(hand) <= (1.6 if declared else 3.0):
        out.append("betl")
    return out


def world_makes(option: Option, mine: int, world: World, seat: int, first_bidder: int, budget: NodeBudget) -> float:
    name, _ = option
    hands = list(world[:3])
    hands[seat] = mine
    fallback = 0.5
    if name != "betl":
        fallback = 1.0 if contract_tricks(mine, trump_of(name)) >= 7 else 0.0 if contract_tricks(mine, trump_of(name)) < 5 else 0.5
    return makes(hands, seat, trump_of(name), name == "betl", leader_for(name, seat, first_bidder), budget, fallback)


def auction_outlook(hand: int, seat: int, first_bidder: int, worlds: list[World], budget: NodeBudget) -> Outlook:
    """Make probabilities of every contract I might end up playing, before the talon is seen."""
    out = Outlook()
    declared = [(n, True) for n in candidates(hand, True)]
    talon_names = candidates(hand, False)
    hits: dict[Option, float] = {o: 0.0 for o in declared + [(n, False) for n in talon_names]}
    for world in worlds:
        for o in declared:
            hits[o] += world_makes(o, hand, world, seat, first_bidder, budget)
        twelve = hand | world[PILE]
        for n in talon_names:
            a, b = best_skart(twelve, n)
            mine = twelve & ~(1 << a) & ~(1 << b)
            hits[(n, False)] += world_makes((n, False), mine, world, seat, first_bidder, budget)
    for o, h in hits.items():
        out.make[o] = h / len(worlds)
    return out


def skart_plans(twelve: int, bid: int) -> dict[str, tuple[int, int]]:
    """For each contract I may announce (worth at least ``bid``) that the evaluation does
    not rule out, the škart the evaluation picks for it."""
    plans: dict[str, tuple[int, int]] = {}
    for name in CONTRACT_WORDS:
        if CONTRACT_VALUE[name] < bid:
            continue
        a, b = best_skart(twelve, name)
        ten = twelve & ~(1 << a) & ~(1 << b)
        if name == "betl":
            keep = betl_risk(ten) <= 3.0
        else:
            keep = contract_tricks(ten, trump_of(name)) >= (4.5 if name == "sans" else 4.0)
        if keep:
            plans[name] = (a, b)
    if not plans:  # nothing looks playable: keep the least bad by the evaluation
        name = max((n for n in CONTRACT_WORDS if CONTRACT_VALUE[n] >= bid and n != "betl"),
                   key=lambda n: contract_tricks(twelve, trump_of(n)), default="betl")
        plans[name] = best_skart(twelve, name)
    return plans


def plan_outlook(tens: dict[str, int], seat: int, first_bidder: int, worlds: list[World], budget: NodeBudget) -> Outlook:
    """Make probabilities of talon contracts, each with its own ten cards, in the worlds."""
    out = Outlook()
    for name, mine in tens.items():
        o = (name, False)
        out.make[o] = sum(world_makes(o, mine, w, seat, first_bidder, budget) for w in worlds) / len(worlds)
    return out
