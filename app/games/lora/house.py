"""A house-rules table: its schedule and its contracts, and the deal each step deals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.cards import mask_of
from app.games.tricks.contracts import ContractRule
from app.games.tricks.deal import Deal
from app.games.lora.house_deals import BlindDeal, ChoosingDeal, PrognozaDeal, ScoredLayoutDeal, ScoredTrickDeal
from app.games.lora.hrvatska import RULES as HRVATSKA_RULES
from app.games.lora.klub_options import klub_rules
from app.games.lora.libijska import LibyanLayoutDeal, LibyanRule, LibyanTrickDeal, libijska_rules
from app.games.lora.variants import HRVATSKA, LIBIJSKA, Schedule

KITTY_KEY = "kitty"


class HouseTable:
    def __init__(self, settings: dict[str, Any]):
        self.schedule = Schedule.of(settings)
        variant = self.schedule.variant
        self.bets = bool(settings.get("opklade"))
        self.rules: dict[str, ContractRule] = (
            HRVATSKA_RULES if variant == HRVATSKA
            else libijska_rules(self.schedule.n_seats) if variant == LIBIJSKA
            else klub_rules(settings)
        )

    def deal_shape(self, slot: int) -> tuple[int, str | None]:
        """8 cards a hand; with three players 10 and a kitty of two (V11)."""
        n = self.schedule.n_seats
        return 32 // n, (KITTY_KEY if 32 % n else None)

    def blind(self, k: int) -> bool:
        """Is deal ``k`` dealt face down (its hands keep the dealt order)?"""
        code = self.schedule.fixed_contract(k)
        return code is not None and self.rules[code].kind == "slepi"

    def contract_deal(self, code: str, order: Sequence[Sequence[int]], first: int, pile: Sequence[int] = ()) -> Deal:
        rule = self.rules[code]
        if isinstance(rule, LibyanRule):
            if rule.kind == "layout":
                return LibyanLayoutDeal(rule, [mask_of(h) for h in order], first, list(pile), self.bets)
            return LibyanTrickDeal(rule, [mask_of(h) for h in order], first, mask_of(pile), self.bets)
        if rule.kind == "slepi":
            return BlindDeal(rule, order, first)
        hands = [mask_of(h) for h in order]
        if rule.kind == "layout":
            return ScoredLayoutDeal(rule, hands, first)
        if rule.kind == "prognoza":
            return PrognozaDeal(rule, hands, first)
        return ScoredTrickDeal(rule, hands, first)

    def new_deal(self, k: int, order: Sequence[Sequence[int]], pile: Sequence[int], earlier: Sequence[Deal]) -> Deal:
        """The deal of slot ``k`` with these hands and pile; ``earlier``: the deals before it
        (izbor's choices)."""
        schedule = self.schedule
        first = schedule.first(k)
        code = schedule.fixed_contract(k)
        if code is not None:
            return self.contract_deal(code, order, first, pile)
        chosen = [d.code for d in earlier if d.slot < schedule.base_deals and d.first == first]
        choices = schedule.choices(k, [c for c in chosen if c is not None])
        titles = {c: self.rules[c].title for c in choices}
        return ChoosingDeal([mask_of(h) for h in order], first, choices, titles,
                            lambda chosen_code: self.contract_deal(chosen_code, order, first))
