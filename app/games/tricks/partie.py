"""A partie of a trick game of the Lora family (Lora, Lórum): a schedule of deals, each
of tricks or a layout, dealt from a seed or given, played a word at a time; points (or
chips) per ended deal and their totals (the engine protocol, :mod:`app.games.base`).

A game says what differs: each slot's deal and its shape, who deals and leads, how a
deal's end is counted and named, the result and what its view adds
(:mod:`app.games.tricks.views`)."""

from __future__ import annotations

from typing import Any, ClassVar

from app.games.base import DealError, EngineBase, IllegalAction, NotYourTurn, once_per, once_per_version
from app.games.cards import (
    CARD_BY_NAME,
    CARD_NAMES,
    CardError,
    check_partition,
    deal_in_packets,
    names_of,
    parse_cards,
    shuffled_deck,
)
from app.games.tricks import views
from app.games.tricks.deal import DALJE, Deal
from app.games.tricks.settings import LIVE_KEYS

CARDS_PER_HAND = 8


class TrickPartie(EngineBase):
    game: ClassVar[str]
    packet = 1  # cards dealt at a time to each seat

    def __init__(self, settings: dict[str, Any], seed: int | str | None, n_seats: int, n_deals: int):
        self.settings = settings
        self.seed = seed
        self.version = 0
        self.n_seats = n_seats
        self.n_deals = n_deals
        self.deals: list[Deal] = []
        self.actions: list[list[tuple[int, str]]] = []  # per deal, in order
        self.points: list[list[int]] = []  # per ended deal
        self.voids: list[bool] = []  # per ended deal: voided and dealt again
        self.totals = [0] * n_seats
        self.deal: Deal | None = None  # the deal being played, or the last one
        self._finished = False
        self.next_slot = 0  # the schedule's slot of the next deal (a void deal keeps it)
        if seed is not None:
            self._deal_from_seed()

    def rules_settings(self) -> dict[str, Any]:
        """The settings that are rules of the game (the record's), without live ones."""
        return {k: v for k, v in self.settings.items() if k not in LIVE_KEYS}

    # -- what a game says --------------------------------------------------------

    def deal_shape(self, slot: int) -> tuple[int, str | None]:
        """(cards per hand, the record key of the cards set aside) of the deal in ``slot``."""
        return CARDS_PER_HAND, None

    def first_to_deal(self, slot: int, k: int) -> int:
        """Who is dealt the first packet of deal ``k`` (in ``slot``): the seat that leads."""
        raise NotImplementedError

    def blind(self, slot: int) -> bool:
        """Is the deal in ``slot`` played face down (its hands dealt unsorted)?"""
        return False

    def _new_deal(self, slot: int, hands: list[list[int]], pile: list[int]) -> Deal:
        raise NotImplementedError

    def slot_dealer(self, slot: int) -> int:
        """The dealer of the schedule's ``slot``."""
        raise NotImplementedError

    def contract_label(self, k: int) -> int | str | None:
        """Deal ``k``'s contract as records name it."""
        raise NotImplementedError

    def result(self) -> dict[str, Any]:
        raise NotImplementedError

    def deal_contract(self, deal: Deal) -> int | str | None:
        """The contract a deal in play shows."""
        return int(deal.contract)

    def deal_title(self, deal: Deal) -> str | None:
        return deal.contract.title

    def end_reasons(self, deal: Deal) -> list[dict[str, Any]]:
        """Why the ended ``deal`` counted as it did (codes and facts, nothing hidden)."""
        return []

    def view_extras(self, view: dict[str, Any]) -> None:
        """What the game adds to every view (the sheet's rows before they are played)."""

    def deal_extras(self, deal: Deal, seat: int | None, out: dict[str, Any]) -> None:
        """What the game adds to the view of the deal in play, for ``seat``."""

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

    @property  # the next deal's: it follows the schedule
    def pile_key(self) -> str | None:  # type: ignore[override]
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
        per_hand, pile_key = self.deal_shape(slot)
        deck = shuffled_deck(self.seed, k)  # type: ignore[arg-type]
        n = self.n_seats
        hands = deal_in_packets(deck, n, per_hand, self.first_to_deal(slot, k), self.packet, sort=not self.blind(slot))
        # The undealt rest of the deck, in deck order, is the pile (a kitty, 101's stock: top first).
        self._begin(hands, list(deck[n * per_hand:]) if pile_key else [])

    def _begin(self, hands: list[list[int]], pile: list[int]) -> None:
        """Deal these hands (each in the order dealt) and pile as the next deal."""
        slot = self.next_slot
        deal = self._new_deal(slot, hands, pile)
        deal.slot = slot
        deal.pile = pile
        deal.pile_key = self.deal_shape(slot)[1]
        self.deal = deal
        self.deals.append(deal)
        self._log: list[tuple[int, str]] = []
        self.actions.append(self._log)
        if deal.ended:  # voided at once (a Libyan kitty, V15)
            self._score(deal)

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
            return deal.spoken(seat)  # dalje; a contract's words
        return names_of(mask)

    def legal_mask(self, seat: int) -> int:
        """The cards ``seat`` may play now as a mask; 0 means nothing, or a word."""
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
        self._count(deal.points, False, True)

    def _count(self, points: list[int], void: bool, next_slot: bool) -> None:
        """An ended deal's ``points`` on the sheet; the schedule moves on with ``next_slot``
        (a void deal is dealt again in its slot), and the next deal is dealt from the seed."""
        if next_slot:
            self.next_slot += 1
        self.points.append(points)
        self.voids.append(void)
        for s in range(self.n_seats):
            self.totals[s] += points[s]
        self._finished = self.next_slot == self.n_deals
        if self.seed is not None and not self.finished:
            self._deal_from_seed()

    # -- what the table sees ---------------------------------------------------

    def deal_dealer(self, k: int) -> int:
        """The dealer of dealt deal ``k`` (a void deal's successor has the void's dealer)."""
        return self.slot_dealer(self.deals[k].slot)

    # The views' sheet and the last deal's end: only a deal's end changes them (the points
    # and totals are appended then, never changed after), so one object until the next.
    shown_result = once_per("result", lambda partie: len(partie.points))
    shown_deal_ends = once_per("deal_ends", lambda partie: len(partie.points))

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): his hand, never another's."""
        return views.partie_view(self, seat)

    def deal_ends(self) -> list[dict[str, Any]]:
        return views.deal_ends(self)

    def deal_end(self, k: int) -> dict[str, Any]:
        """Ended deal ``k``: its contract, points and the reasons."""
        return views.deal_end(self, k)

    def _deal_view(self, deal: Deal, k: int, seat: int | None) -> dict[str, Any]:
        return views.deal_view(self, deal, k, seat)

    def _deal_parts(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return views.deal_parts(self)

    _shown_deal_parts = once_per_version("_deal_parts")

    def to_record(self, players: list[str]) -> dict[str, Any]:
        return views.record(self, players)
