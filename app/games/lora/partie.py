"""A partie of the Club's Lora: 28 deals, totals and places (the engine protocol), or a
table's house rules (:mod:`app.games.lora.house`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from app.games.cards import mask_of
from app.games.tricks.contracts import N_DEALS, N_SEATS, contract_of, dealer_of, first_player_of
from app.games.tricks.deal import DALJE, Deal, new_deal
from app.games.tricks.partie import TrickPartie
from app.games.tricks.settings import LIVE_KEYS
from app.games.lora.bets import MOZE, NE_KLADIM
from app.games.lora.deal_end import lora_reasons
from app.games.lora.house import HouseTable
from app.games.lora.variants import Schedule, normalize
from app.games.lora.standings import places, places_highest_first
from app.games.lora import views

VOIDS_TO_MOVE_ON = 3  # the third void deal in a row costs the dealer +8 (V10, V11)


class LoraPartie(TrickPartie):
    game: ClassVar[str] = "lora"
    n_seats = N_SEATS  # the Club's Lora; a partie's own follows its settings
    packet = 1  # cards are dealt "jedna po jedna"
    # A timed-out decision (docs/rulings.md): Libyan bets ``ne kladim``, their answers
    # ``moze``; ``dalje`` is a layout's only word when it is legal. Cards, predictions and
    # a contract choice are the computer player's.
    timeout_words: ClassVar[tuple[str, ...]] = (DALJE, NE_KLADIM, MOZE)
    settings_rule = staticmethod(normalize)

    def __init__(self, settings: dict[str, Any], seed: int | str | None):
        rules = {k: v for k, v in settings.items() if k not in LIVE_KEYS}
        # House rules (None: the Club's own Lora, settings {}).
        self.house = HouseTable(settings) if rules else None
        self.voids_in_row = 0
        schedule = self.house.schedule if self.house else None
        super().__init__(settings, seed, schedule.n_seats if schedule else N_SEATS,
                         schedule.n_deals if schedule else N_DEALS)

    @classmethod
    def seats_for(cls, settings: Mapping[str, Any]) -> int:
        rules = {k: v for k, v in settings.items() if k not in LIVE_KEYS}
        return Schedule.of(rules).n_seats if rules else N_SEATS

    # -- the schedule ----------------------------------------------------------

    def deal_shape(self, slot: int) -> tuple[int, str | None]:
        if self.house is not None:
            return self.house.deal_shape(slot)
        return super().deal_shape(slot)

    def first_to_deal(self, slot: int, k: int) -> int:
        return self.house.schedule.first(slot) if self.house else first_player_of(k)

    def blind(self, slot: int) -> bool:
        return self.house is not None and self.house.blind(slot)

    def _new_deal(self, slot: int, hands: list[list[int]], pile: list[int]) -> Deal:
        if self.house is not None:
            return self.house.new_deal(slot, hands, pile, self.deals)
        return new_deal(contract_of(slot), [mask_of(h) for h in hands], first_player_of(slot))

    def _score(self, deal: Deal) -> None:
        assert deal.points is not None
        points = deal.points
        void = deal.void
        next_slot = not void
        if void:
            self.voids_in_row += 1
            if self.voids_in_row == VOIDS_TO_MOVE_ON:  # the dealer pays and the next contract follows
                dealer = self.slot_dealer(deal.slot)
                points = [8 if s == dealer else 0 for s in range(self.n_seats)]
                self.voids_in_row = 0
                next_slot = True
        else:
            self.voids_in_row = 0
        self._count(points, void, next_slot)

    # -- what the table sees ---------------------------------------------------

    def slot_dealer(self, slot: int) -> int:
        return dealer_of(slot) if self.house is None else self.house.schedule.dealer(slot)

    def contract_label(self, k: int) -> int | str | None:
        """Deal ``k``'s contract as records name it: a number (settings {}), else a code."""
        return int(contract_of(k)) if self.house is None else self.deals[k].code

    def deal_contract(self, deal: Deal) -> int | str | None:
        return super().deal_contract(deal) if self.house is None else deal.code

    def deal_title(self, deal: Deal) -> str | None:
        return super().deal_title(deal) if self.house is None else views.title(self, deal)

    def result(self) -> dict[str, Any]:
        if self.house is not None and self.house.schedule.highest_wins:
            ranked = places_highest_first(self.totals, self.points)
        else:
            ranked = places(self.totals, self.points)
        return {
            "deals": [
                {"contract": self.contract_label(k), "points": list(p), **({"void": True} if void else {})}
                for k, (p, void) in enumerate(zip(self.points, self.voids))
            ],
            "totals": list(self.totals),
            "places": ranked,
        }

    def view_extras(self, view: dict[str, Any]) -> None:
        views.house_schedule(self, view)

    def deal_extras(self, deal: Deal, seat: int | None, out: dict[str, Any]) -> None:
        if self.house is not None:
            views.house_view(self, deal, seat, out)

    def deal_end(self, k: int) -> dict[str, Any]:
        out = super().deal_end(k)
        points = out["points"]
        if out["void"] and any(points):  # the third void in a row: the dealer pays (V10, V11)
            dealer = points.index(max(points))
            out["reasons"].append({"code": "third_void", "seat": dealer, "amount": points[dealer]})
        return out

    def end_reasons(self, deal: Deal) -> list[dict[str, Any]]:
        return lora_reasons(deal)
