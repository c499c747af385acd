"""A partie of Hungarian Lórum: Lora's table and order, chips and a shared bank."""

from __future__ import annotations

from typing import Any, ClassVar

from app.games.cards import CARD_NAMES
from app.games.lora.deal import Deal
from app.games.lora.partie import LoraPartie
from app.games.lora.variants import timer_only
from app.games.lorum.contracts import N_DEALS, N_SEATS, contract_of, dealer_of, first_player_of
from app.games.lorum.deals import DominoDeal, FastTrainDeal, KvartDeal, new_lorum_deal


def lorum_places(totals: list[int]) -> list[int]:
    """The highest total wins; equal totals draw and share the place (1, 1, 3, 4)."""
    return [1 + sum(1 for t in totals if t > mine) for mine in totals]


class LorumPartie(LoraPartie):
    game: ClassVar[str] = "lorum"
    n_seats: ClassVar[int] = N_SEATS
    packet = 2  # "по 8 пачками по 2"
    settings_rule = staticmethod(timer_only)

    def __init__(self, settings: dict[str, Any], seed: int | str | None):
        self.bank = 0
        self.bank_deltas: list[int] = []
        super().__init__(settings, seed)

    def _new_deal(self, k: int, hands: list[int]) -> Deal:
        return new_lorum_deal(contract_of(k), hands, first_player_of(k), self.bank)

    def _score(self, deal: Deal) -> None:
        self.bank += deal.bank_delta  # type: ignore[attr-defined]
        self.bank_deltas.append(deal.bank_delta)  # type: ignore[attr-defined]
        super()._score(deal)

    def live_bank(self) -> int:
        """The bank as the table sees it now, with the passes of a running Domino."""
        deal = self.deal
        if isinstance(deal, DominoDeal) and not deal.ended:
            return self.bank + sum(deal.passes)
        return self.bank

    def result(self) -> dict[str, Any]:
        return {
            "deals": [
                {"contract": int(contract_of(k)), "transfers": list(p), "bank": self.bank_deltas[k]}
                for k, p in enumerate(self.points)
            ],
            "bank": self.bank,
            "totals": list(self.totals),
            "places": lorum_places(self.totals),
        }

    def _deal_view(self, deal: Deal, k: int, seat: int | None) -> dict[str, Any]:
        out = super()._deal_view(deal, k, seat)
        out["bank"] = self.live_bank()
        if isinstance(deal, KvartDeal):
            out["chain"] = [[s, CARD_NAMES[c]] for s, c in deal.chain]
            out["chains"] = [[[s, CARD_NAMES[c]] for s, c in chain] for chain in deal.chains]
            out["next_card"] = None if deal.next_card is None else CARD_NAMES[deal.next_card]
        elif isinstance(deal, FastTrainDeal):
            out["train"] = [[s, CARD_NAMES[c]] for s, c in deal.train]
            out["next_rank"] = None if deal.next_rank is None else "789TJQKA"[deal.next_rank]
        elif isinstance(deal, DominoDeal):
            out["passes"] = list(deal.passes)
        return out
