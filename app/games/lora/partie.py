"""A partie of the Club's Lora: 28 deals, totals and places (the engine protocol)."""

from __future__ import annotations

from typing import Any, ClassVar

from app.games.base import DealError, EngineBase, IllegalAction, NotYourTurn, SettingsError
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
from app.games.lora.contracts import (
    N_DEALS,
    N_SEATS,
    contract_of,
    dealer_of,
    first_player_of,
)
from app.games.lora.deal import DALJE, Deal, LayoutDeal, TrickDeal, new_deal
from app.games.lora.standings import places

CARDS_PER_HAND = 8
TIMER_RANGE = (15, 300)


def validate_settings(settings: object) -> dict[str, Any]:
    """Lora has no options but the live decision timer (off, or 15-300 s)."""
    if settings is None:
        return {}
    if not isinstance(settings, dict):
        raise SettingsError("settings must be an object")
    unknown = set(settings) - {"timer"}
    if unknown:
        raise SettingsError(f"Lora has no setting {', '.join(sorted(unknown))}; only 'timer'")
    timer = settings.get("timer")
    if timer is not None and (
        not isinstance(timer, int) or isinstance(timer, bool) or not TIMER_RANGE[0] <= timer <= TIMER_RANGE[1]
    ):
        raise SettingsError(f"timer must be off (null) or {TIMER_RANGE[0]}-{TIMER_RANGE[1]} seconds, got {timer!r}")
    return {"timer": timer} if timer is not None else {}


class LoraPartie(EngineBase):
    game: ClassVar[str] = "lora"
    n_seats: ClassVar[int] = N_SEATS
    packet = 1  # cards are dealt "jedna po jedna"

    def __init__(self, settings: dict[str, Any], seed: int | str | None):
        self.settings = settings
        self.seed = seed
        self.version = 0
        self.deals: list[Deal] = []
        self.actions: list[list[tuple[int, str]]] = []  # per deal, in order
        self.points: list[list[int]] = []  # per finished deal
        self.totals = [0, 0, 0, 0]
        self.deal: Deal | None = None  # the deal being played, or the last one
        self._finished = False
        if seed is not None:
            self._deal_from_seed()

    settings_rule = staticmethod(validate_settings)

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

    def start_deal(self, hands: object, talon: object = None) -> None:
        if not self.needs_deal:
            raise DealError("a deal is already being played" if not self.finished else "the partie has ended")
        if talon is not None:
            raise DealError("Lora has no talon")
        if not isinstance(hands, list) or len(hands) != N_SEATS:
            raise DealError(f"a Lora deal has {N_SEATS} hands")
        parsed = []
        for seat, hand in enumerate(hands):
            try:
                parsed.append(parse_cards(hand, count=CARDS_PER_HAND))
            except CardError as e:
                raise DealError(f"seat {seat}'s hand: {e}") from None
        try:
            check_partition(parsed)
        except CardError as e:
            raise DealError(str(e)) from None
        self._begin([mask_of(h) for h in parsed])

    def _deal_from_seed(self) -> None:
        k = len(self.deals)
        deck = shuffled_deck(self.seed, k)
        hands = deal_in_packets(deck, N_SEATS, CARDS_PER_HAND, first_player_of(k), self.packet)
        self._begin([mask_of(h) for h in hands])

    def _begin(self, hands: list[int]) -> None:
        self.deal = self._new_deal(len(self.deals), hands)
        self.deals.append(self.deal)
        self._log: list[tuple[int, str]] = []
        self.actions.append(self._log)

    def _new_deal(self, k: int, hands: list[int]) -> Deal:
        return new_deal(contract_of(k), hands, first_player_of(k))

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
            return [DALJE]  # only the layout can leave a player without a card (section 6)
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
        if word != DALJE:
            raise IllegalAction(f"{word!r} is neither a card nor {DALJE!r}")
        deal.pass_turn(seat)
        self._log.append((seat, DALJE))
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
        self.points.append(deal.points)
        for s in range(N_SEATS):
            self.totals[s] += deal.points[s]
        self._finished = len(self.points) == N_DEALS
        if self.seed is not None and not self.finished:
            self._deal_from_seed()

    # -- what the table sees ---------------------------------------------------

    def result(self) -> dict[str, Any]:
        return {
            "deals": [
                {"contract": int(contract_of(k)), "points": list(p)} for k, p in enumerate(self.points)
            ],
            "totals": list(self.totals),
            "places": places(self.totals, self.points),
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): his hand, never another's."""
        deal = self.deal
        view: dict[str, Any] = {
            "game": self.game,
            "version": self.version,
            "seat": seat,
            "finished": self.finished,
            "deal_index": self.deal_index,
            "deals_total": N_DEALS,
            "result": self.result(),
            "legal_actions": self.legal_actions(seat) if seat is not None else [],
        }
        if deal is not None:
            k = self.deal_index
            view["deal"] = self._deal_view(deal, k, seat)
        return view

    def _deal_view(self, deal: Deal, k: int, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": k,
            "contract": int(deal.contract),
            "contract_title": deal.contract.title,
            "dealer": dealer_of(k),
            "first": deal.first,
            "turn": None if deal.ended else deal.turn,
            "ended": deal.ended,
            "points": list(deal.points) if deal.points is not None else None,
            "hand_sizes": [h.bit_count() for h in deal.hands],
            "actions": [[s, w] for s, w in self.actions[k]],
        }
        if seat is not None:
            out["hand"] = names_of(deal.hands[seat])
        if isinstance(deal, TrickDeal):
            out["trick"] = [[s, CARD_NAMES[c]] for s, c in deal.trick]
            out["tricks"] = [
                {"leader": leader, "cards": [[s, CARD_NAMES[c]] for s, c in plays], "winner": winner}
                for leader, plays, winner in deal.tricks
            ]
            out["trick_counts"] = list(deal.trick_counts)
            out["taken"] = [names_of(t) for t in deal.taken]
            penalty = deal.penalty_mask
            out["penalty_cards"] = [names_of(t & penalty) for t in deal.taken]
        elif isinstance(deal, LayoutDeal):
            out["start_rank"] = None if deal.start_rank is None else "789TJQKA"[deal.start_rank]
            out["rows"] = [[CARD_NAMES[c] for c in row] for row in deal.rows]
        return out

    # -- export ----------------------------------------------------------------

    def to_record(self, players: list[str]) -> dict[str, Any]:
        return {
            "format": "klub-record/1",
            "game": self.game,
            "players": list(players),
            "settings": {},
            "deals": [
                {"hands": [names_of(h) for h in deal.dealt], "actions": [[s, w] for s, w in acts]}
                for deal, acts in zip(self.deals, self.actions)
            ],
            "result": self.result(),
        }
