"""A partie of Hungarian Lórum: Lora's table and order, chips and a shared bank.

Settings ``{}`` is the Club's Lórum: 7 contracts per dealer, 28 deals, contract numbers.
The options ``sto_jedan`` and ``makk`` (:mod:`app.games.lorum.options`) add "101" and
"makk" before each dealer's Domino: 8 or 9 contracts per dealer, 32 or 36 deals, and
the record and result name every contract by its code (rulings V13, V14, V17).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from app.games.cards import CARD_NAMES, mask_of
from app.games.tricks.deal import DALJE, Deal
from app.games.tricks.partie import TrickPartie
from app.games.lorum.contracts import N_SEATS, LorumContract, order_of
from app.games.lorum.deals import (
    JACK_OF_CLUBS,
    KING_OF_HEARTS,
    MAKK_PAYMENT,
    STO_JEDAN_HAND,
    DominoDeal,
    FastTrainDeal,
    KvartDeal,
    LorumTrickDeal,
    deal_units,
    MakkDeal,
    StoJedanDeal,
    new_lorum_deal,
)
from app.games.lorum.options import normalize

CARDS_PER_HAND = 8
STOCK = "stock"  # the record's key of 101's stock (top first)


def lorum_places(totals: list[int]) -> list[int]:
    """The highest total wins; equal totals draw and share the place (1, 1, 3, 4)."""
    return [1 + sum(1 for t in totals if t > mine) for mine in totals]


class LorumPartie(TrickPartie):
    game: ClassVar[str] = "lorum"
    n_seats = N_SEATS
    # A timed-out decision: ``dalje`` when it is legal (Domino, Kvart, Fast train, 101 know
    # it only without a playable card); a card is the computer player's.
    timeout_words: ClassVar[tuple[str, ...]] = (DALJE,)
    packet = 2  # "по 8 пачками по 2"
    settings_rule = staticmethod(normalize)

    def __init__(self, settings: dict[str, Any], seed: int | str | None):
        self.bank = 0
        self.bank_deltas: list[int] = []
        self.order = order_of(settings)  # each dealer's contracts
        super().__init__(settings, seed, N_SEATS, N_SEATS * len(self.order))

    @classmethod
    def seats_for(cls, settings: Mapping[str, Any]) -> int:
        return N_SEATS

    @property
    def extras(self) -> bool:
        """Are the options on (the record names contracts by code)?"""
        return bool(self.rules_settings())

    # -- the schedule ----------------------------------------------------------

    def contract_at(self, slot: int) -> LorumContract:
        return self.order[slot % len(self.order)]

    def dealer_at(self, slot: int) -> int:
        """One dealer plays all his contracts, then the deal passes to the next seat."""
        return slot // len(self.order)

    def first_at(self, slot: int) -> int:
        return (self.dealer_at(slot) + 1) % N_SEATS

    def deal_shape(self, slot: int) -> tuple[int, str | None]:
        if self.contract_at(slot) is LorumContract.STO_JEDAN:
            return STO_JEDAN_HAND, STOCK
        return CARDS_PER_HAND, None

    def first_to_deal(self, slot: int, k: int) -> int:
        return self.first_at(slot)

    def _new_deal(self, slot: int, hands: list[list[int]], pile: list[int]) -> Deal:
        return new_lorum_deal(self.contract_at(slot), [mask_of(h) for h in hands], self.first_at(slot), self.bank, pile)

    # -- the bank --------------------------------------------------------------

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

    # -- what the table sees ---------------------------------------------------

    def slot_dealer(self, slot: int) -> int:
        return self.dealer_at(slot)

    def contract_label(self, k: int) -> int | str:
        """Deal ``k``'s contract as records name it: a number (settings {}), else a code."""
        contract = self.contract_at(k)
        return contract.code if self.extras else int(contract)

    def result(self) -> dict[str, Any]:
        return {
            "deals": [
                {"contract": self.contract_label(k), "transfers": list(p), "bank": self.bank_deltas[k]}
                for k, p in enumerate(self.points)
            ],
            "bank": self.bank,
            "totals": list(self.totals),
            "places": lorum_places(self.totals),
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        view = super().view(seat)
        if self.extras:  # the sheet's rows: each deal's dealer and contract code
            view["schedule"] = [[self.dealer_at(k), self.contract_at(k).code] for k in range(self.n_deals)]
        return view

    def deal_end(self, k: int) -> dict[str, Any]:
        out = super().deal_end(k)
        out["transfers"] = out["points"]
        out["bank"] = self.bank_deltas[k]
        deal = self.deals[k]
        if isinstance(deal, StoJedanDeal):  # the pile stays in view: every card of it was played
            out["pile"] = [[s, CARD_NAMES[c]] for s, c in deal.discards]
            out["total"] = deal.total
        return out

    def end_reasons(self, deal: Deal) -> list[dict[str, Any]]:
        """Why Lórum's deal paid what it did (rulings "Lórum deal ends"):

        - ``makk_king`` / ``makk_last_trick`` / ``makk_opposite_jack`` (``seat``, ``amount``;
          ``card``; the last trick's ``trick``; the J♣'s ``taker``): makk's three payers (V14);
        - ``sto_jedan`` (``seat``, ``card``, ``total``, ``amount``): the card that reached 101;
        - ``king_of_hearts`` (``seat``, ``card``, ``amount``): the Hairy monkey's payer;
        - ``out_first`` (``seat``): the first empty hand (Kvart, Fast train, Domino);
        - ``clean`` (``seats``) / ``collected_all`` (``seat``) / ``nobody_clean``: Hearts,
          Obers, No tricks: who stayed clean and shares the pot, who took everything, or
          the pot to the bank.
        """
        if isinstance(deal, MakkDeal):
            king, last, opposite = deal.payers()
            jack = (opposite + 2) % N_SEATS
            return [
                {"code": "makk_king", "seat": king, "card": CARD_NAMES[KING_OF_HEARTS], "amount": -MAKK_PAYMENT},
                {"code": "makk_last_trick", "seat": last, "trick": len(deal.tricks), "amount": -MAKK_PAYMENT},
                {"code": "makk_opposite_jack", "seat": opposite, "taker": jack, "card": CARD_NAMES[JACK_OF_CLUBS],
                 "amount": -MAKK_PAYMENT},
            ]
        if isinstance(deal, StoJedanDeal):
            seat, c = deal.discards[-1]
            return [{"code": "sto_jedan", "seat": seat, "card": CARD_NAMES[c], "total": deal.total,
                     "amount": deal.transfers[seat]}]
        if isinstance(deal, (KvartDeal, FastTrainDeal, DominoDeal)):
            return [{"code": "out_first", "seat": deal.transfers.index(max(deal.transfers))}]
        if isinstance(deal, LorumTrickDeal):
            if deal.contract is LorumContract.HAIRY_MONKEY:
                seat = next(s for s in range(N_SEATS) if (deal.taken[s] >> KING_OF_HEARTS) & 1)
                return [{"code": "king_of_hearts", "seat": seat, "card": CARD_NAMES[KING_OF_HEARTS],
                         "amount": deal.transfers[seat]}]
            units = deal_units(deal)
            takers = [s for s in range(N_SEATS) if units[s]]
            if len(takers) == 1:
                return [{"code": "collected_all", "seat": takers[0]}]
            clean = [s for s in range(N_SEATS) if not units[s]]
            return [{"code": "clean", "seats": clean}] if clean else [{"code": "nobody_clean"}]
        return []

    def _deal_view(self, deal: Deal, k: int, seat: int | None) -> dict[str, Any]:
        out = super()._deal_view(deal, k, seat)
        out["contract"] = self.contract_label(k)
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
        elif isinstance(deal, StoJedanDeal):
            # The pile is public, the stock face down: only its size; each seat sees his hand.
            out["total"] = deal.total
            out["pile"] = [[s, CARD_NAMES[c]] for s, c in deal.discards]
            out["stock_size"] = deal.stock_size
        return out
