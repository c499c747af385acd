"""A partie of the Club's Lora: 28 deals, totals and places (the engine protocol)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from app.games.base import DealError, EngineBase, IllegalAction, NotYourTurn, once_per, once_per_version
from app.games.cards import (
    CARD_BY_NAME,
    CARD_NAMES,
    CardError,
    check_partition,
    deal_in_packets,
    mask_of,
    names_of,
    parse_cards,
    shuffled_deck,
)
from app.games.tricks.contracts import (
    N_DEALS,
    N_SEATS,
    contract_of,
    dealer_of,
    first_player_of,
)
from app.games.lora.bets import MOZE, NE_KLADIM
from app.games.tricks.deal import DALJE, Deal, new_deal
from app.games.lora.deal_end import lora_reasons
from app.games.lora.house import HouseTable
from app.games.lora.variants import LIVE_KEYS, Schedule, normalize
from app.games.lora.standings import places, places_highest_first
from app.games.lora import views

CARDS_PER_HAND = 8
VOIDS_TO_MOVE_ON = 3  # the third void deal in a row costs the dealer +8 (V10, V11)


class LoraPartie(EngineBase):
    game: ClassVar[str] = "lora"
    n_seats = N_SEATS  # the Club's Lora; a partie's own follows its settings
    packet = 1  # cards are dealt "jedna po jedna"
    # A timed-out decision (docs/rulings.md): Libyan bets ``ne kladim``, their answers
    # ``moze``; ``dalje`` is a layout's only word when it is legal. Cards, predictions and
    # a contract choice are the computer player's.
    timeout_words: ClassVar[tuple[str, ...]] = (DALJE, NE_KLADIM, MOZE)

    def __init__(self, settings: dict[str, Any], seed: int | str | None):
        self.settings = settings
        self.seed = seed
        self.version = 0
        self.deals: list[Deal] = []
        self.actions: list[list[tuple[int, str]]] = []  # per deal, in order
        self.points: list[list[int]] = []  # per finished deal
        self.voids: list[bool] = []  # per finished deal: voided and dealt again (V10, V11)
        # House rules (None: the Club's own Lora, settings {}).
        self.house = HouseTable(settings) if self.rules_settings() else None
        self.n_seats = self.house.schedule.n_seats if self.house else N_SEATS
        self.totals = [0] * self.n_seats
        self.deal: Deal | None = None  # the deal being played, or the last one
        self._finished = False
        self.n_deals = self.house.schedule.n_deals if self.house else N_DEALS
        self.next_slot = 0  # the schedule's slot of the next deal (a void deal keeps it)
        self.voids_in_row = 0
        if seed is not None:
            self._deal_from_seed()

    settings_rule = staticmethod(normalize)

    @classmethod
    def seats_for(cls, settings: Mapping[str, Any]) -> int:
        rules = {k: v for k, v in settings.items() if k not in LIVE_KEYS}
        return Schedule.of(rules).n_seats if rules else N_SEATS

    def rules_settings(self) -> dict[str, Any]:
        """The settings that are rules of the game (the record's), without live ones."""
        return {k: v for k, v in self.settings.items() if k not in LIVE_KEYS}

    # -- progress --------------------------------------------------------------

    @property
    def deal_index(self) -> int:
        return len(self.deals) - 1

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def needs_deal(self) -> bool:
        return not self.finished and (not self.deals or self.deals[-1].ended)

    def deal_shape(self, slot: int) -> tuple[int, str | None]:
        """(cards per hand, the record key of the cards set aside) of the deal in ``slot``."""
        if self.house is not None:
            return self.house.deal_shape(slot)
        return CARDS_PER_HAND, None

    @property
    def pile_key(self) -> str | None:
        return self.deal_shape(self.next_slot)[1]

    def start_deal(self, hands: object, pile: object = None) -> None:
        if not self.needs_deal:
            raise DealError("a deal is already being played" if not self.finished else "the partie has ended")
        per_hand, pile_key = self.deal_shape(self.next_slot)
        if pile_key is None and pile is not None:
            raise DealError("this deal sets no cards aside (no talon, kitty or stock)")
        n = self.n_seats
        if not isinstance(hands, list) or len(hands) != n:
            raise DealError(f"this deal has {n} hands")
        parsed = []
        for seat, hand in enumerate(hands):
            try:
                parsed.append(parse_cards(hand, count=per_hand))
            except CardError as e:
                raise DealError(f"seat {seat}'s hand: {e}") from None
        aside: list[int] = []
        if pile_key is not None:
            if pile is None:
                raise DealError(f"this deal needs its {pile_key}")
            try:
                aside = parse_cards(pile, count=32 - n * per_hand)
            except CardError as e:
                raise DealError(f"{pile_key}: {e}") from None
        try:
            check_partition(parsed + [aside])
        except CardError as e:
            raise DealError(str(e)) from None
        self._begin(parsed, aside)

    def _deal_from_seed(self) -> None:
        k = len(self.deals)
        slot = self.next_slot
        deck = shuffled_deck(self.seed, k)
        house = self.house
        first = house.schedule.first(slot) if house else first_player_of(k)
        blind = house is not None and house.blind(slot)
        per_hand, pile_key = self.deal_shape(slot)
        n = self.n_seats
        hands = deal_in_packets(deck, n, per_hand, first, self.packet, sort=not blind)
        self._begin(hands, list(deck[n * per_hand:]) if pile_key else [])

    def _begin(self, hands: list[list[int]], pile: list[int]) -> None:
        """Deal these hands (each in the order dealt) and pile as the next deal."""
        slot = self.next_slot
        if self.house is not None:
            deal = self.house.new_deal(slot, hands, pile, self.deals)
        else:
            deal = self._new_deal(slot, [mask_of(h) for h in hands], pile)
        deal.slot = slot
        deal.pile = pile
        deal.pile_key = self.deal_shape(slot)[1]
        self.deal = deal
        self.deals.append(deal)
        self._log: list[tuple[int, str]] = []
        self.actions.append(self._log)
        if deal.ended:  # voided at once by its kitty (V15)
            self._score(deal)

    def _new_deal(self, slot: int, hands: list[int], pile: list[int]) -> Deal:
        return new_deal(contract_of(slot), hands, first_player_of(slot))

    # -- moves -----------------------------------------------------------------

    def seats_to_act(self) -> list[int]:
        deal = self.deal
        if deal is None or deal.ended:
            return []
        return [deal.turn]

    def legal_actions(self, seat: int) -> list[str]:
        deal = self.deal
        if deal is None or seat != deal.turn:
            return []
        mask = deal.legal_mask(seat)
        if not mask:
            return deal.spoken(seat)  # dalje in the layout (section 6); house rules' words
        return names_of(mask)

    def legal_mask(self, seat: int) -> int:
        """The cards ``seat`` may play now as a mask; 0 means nothing, or ``dalje``."""
        deal = self.deal
        return deal.legal_mask(seat) if deal is not None else 0

    def apply(self, seat: int, word: str) -> None:
        c = CARD_BY_NAME.get(word) if isinstance(word, str) else None
        if c is not None:
            self.apply_card(seat, c)
            return
        deal = self._current_deal()
        if not isinstance(word, str):
            raise IllegalAction(f"{word!r} is neither a card nor {DALJE!r}")
        became = deal.say(seat, word)
        if became is not None:  # the contract is chosen: the same hands, now its deal
            became.slot, became.pile, became.pile_key = deal.slot, deal.pile, deal.pile_key
            self.deal = self.deals[-1] = became
        self._log.append((seat, word))
        self.version += 1

    def apply_card(self, seat: int, c: int) -> None:
        """Play card ``c`` (an int of ``app.games.cards``): the fast path of :meth:`apply`."""
        deal = self.deal
        if deal is None or deal.ended:
            deal = self._current_deal()  # raises the reason
        deal.play(seat, c)
        self._log.append((seat, CARD_NAMES[c]))
        self.version += 1
        if deal.ended:
            self._score(deal)

    def _current_deal(self) -> Deal:
        deal = self.deal
        if deal is None or deal.ended:
            raise NotYourTurn("the partie has ended" if self.finished else "the deal has ended and the next one is not dealt yet")
        return deal

    def _score(self, deal: Deal) -> None:
        assert deal.points is not None
        points = deal.points
        void = deal.void
        if void:
            self.voids_in_row += 1
            if self.voids_in_row == VOIDS_TO_MOVE_ON:  # the dealer pays and the next contract follows
                dealer = self.slot_dealer(deal.slot)
                points = [8 if s == dealer else 0 for s in range(self.n_seats)]
                self.voids_in_row = 0
                self.next_slot += 1
        else:
            self.voids_in_row = 0
            self.next_slot += 1
        self.points.append(points)
        self.voids.append(void)
        for s in range(self.n_seats):
            self.totals[s] += points[s]
        self._finished = self.next_slot == self.n_deals
        if self.seed is not None and not self.finished:
            self._deal_from_seed()

    # -- what the table sees ---------------------------------------------------

    def slot_dealer(self, slot: int) -> int:
        """The dealer of the schedule's ``slot``."""
        return dealer_of(slot) if self.house is None else self.house.schedule.dealer(slot)

    def deal_dealer(self, k: int) -> int:
        """The dealer of dealt deal ``k`` (a void deal's successor has the void's dealer)."""
        return self.slot_dealer(self.deals[k].slot)

    def contract_label(self, k: int) -> int | str | None:
        """Deal ``k``'s contract as records name it: a number (settings {}), else a code."""
        return int(contract_of(k)) if self.house is None else self.deals[k].code

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

    # The views' sheet and the last deal's end: only a deal's end changes them (the points
    # and totals are appended then, never changed after), so one object until the next.
    shown_result = once_per("result", lambda partie: len(partie.points))
    shown_deal_ends = once_per("deal_ends", lambda partie: len(partie.points))

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): his hand, never another's
        (:mod:`app.games.lora.views`)."""
        return views.partie_view(self, seat)

    # -- why the last deal ended as it did ---------------------------------------

    def deal_ends(self) -> list[dict[str, Any]]:
        return views.deal_ends(self)

    def deal_end(self, k: int) -> dict[str, Any]:
        """Ended deal ``k``: its contract, points and the reasons (:mod:`app.games.lora.views`)."""
        return views.deal_end(self, k)

    def end_reasons(self, deal: Deal) -> list[dict[str, Any]]:
        return lora_reasons(deal)

    def _deal_view(self, deal: Deal, k: int, seat: int | None) -> dict[str, Any]:
        return views.deal_view(self, deal, k, seat)

    def _deal_parts(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return views.deal_parts(self)

    _shown_deal_parts = once_per_version("_deal_parts")

    # -- export ----------------------------------------------------------------

    def to_record(self, players: list[str]) -> dict[str, Any]:
        return views.record(self, players)
