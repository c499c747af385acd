"""A partie of the Club's Lora: 28 deals, totals and places (the engine protocol)."""

from __future__ import annotations

from typing import Any, ClassVar

from app.games.base import DealError, EngineBase, IllegalAction, NotYourTurn
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
from app.games.lora.house import HouseTable
from app.games.lora.house_deals import BlindDeal, ChoosingDeal, PrognozaDeal
from app.games.lora.variants import LIVE_KEYS, normalize
from app.games.lora.standings import places, places_highest_first

CARDS_PER_HAND = 8


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
        # House rules (None: the Club's own Lora, settings {}).
        self.house = HouseTable(settings) if self.rules_settings() else None
        self.n_deals = self.house.schedule.n_deals if self.house else N_DEALS
        if seed is not None:
            self._deal_from_seed()

    settings_rule = staticmethod(normalize)

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
        self._begin(parsed)

    def _deal_from_seed(self) -> None:
        k = len(self.deals)
        deck = shuffled_deck(self.seed, k)
        house = self.house
        first = house.schedule.first(k) if house else first_player_of(k)
        blind = house is not None and house.blind(k)
        self._begin(deal_in_packets(deck, N_SEATS, CARDS_PER_HAND, first, self.packet, sort=not blind))

    def _begin(self, hands: list[list[int]]) -> None:
        """Deal these hands (each in the order dealt) as the next deal."""
        k = len(self.deals)
        if self.house is not None:
            self.deal = self.house.new_deal(k, hands, self.deals)
        else:
            self.deal = self._new_deal(k, [mask_of(h) for h in hands])
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
        self.points.append(deal.points)
        for s in range(N_SEATS):
            self.totals[s] += deal.points[s]
        self._finished = len(self.points) == self.n_deals
        if self.seed is not None and not self.finished:
            self._deal_from_seed()

    # -- what the table sees ---------------------------------------------------

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
                {"contract": self.contract_label(k), "points": list(p)} for k, p in enumerate(self.points)
            ],
            "totals": list(self.totals),
            "places": ranked,
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
            "deals_total": self.n_deals,
            "result": self.result(),
            "legal_actions": self.legal_actions(seat) if seat is not None else [],
        }
        if self.house is not None:
            # The sheet's rows before they are played: each deal's dealer and contract (None:
            # its first player chooses), and which way the points count.
            schedule = self.house.schedule
            view["schedule"] = [[schedule.dealer(k), schedule.fixed_contract(k)] for k in range(self.n_deals)]
            view["highest_wins"] = schedule.highest_wins
        if deal is not None:
            k = self.deal_index
            view["deal"] = self._deal_view(deal, k, seat)
        return view

    def _deal_view(self, deal: Deal, k: int, seat: int | None) -> dict[str, Any]:
        house = self.house
        out: dict[str, Any] = {
            "index": k,
            "contract": int(deal.contract) if house is None else deal.code,
            "contract_title": deal.contract.title if house is None else self._title(deal),
            "dealer": dealer_of(k) if house is None else house.schedule.dealer(k),
            "first": deal.first,
            "turn": None if deal.ended else deal.turn,
            "ended": deal.ended,
            "points": list(deal.points) if deal.points is not None else None,
            "hand_sizes": [h.bit_count() for h in deal.hands],
            "actions": [[s, w] for s, w in self.actions[k]],
        }
        if seat is not None:
            out["hand"] = names_of(deal.hands[seat])
        if house is not None:
            self._house_view(deal, seat, out)
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

    def _title(self, deal: Deal) -> str | None:
        assert self.house is not None
        return None if deal.code is None else self.house.rules[deal.code].title

    def _house_view(self, deal: Deal, seat: int | None, out: dict[str, Any]) -> None:
        """What house rules add: the settings, the chooser's choices, the predictions, a blind hand."""
        out["settings"] = self.rules_settings()
        if isinstance(deal, ChoosingDeal):
            out["choosing"] = True
            out["choices"] = list(deal.choices) if seat == deal.first else []
            out["choice_titles"] = dict(deal.titles) if seat == deal.first else {}
        elif isinstance(deal, PrognozaDeal):
            out["predictions"] = list(deal.predictions)
        elif isinstance(deal, BlindDeal):
            out["blind"] = True
            if seat is not None:
                out["hand"] = []  # face down: he sees only how many are left (hand_sizes)

    # -- export ----------------------------------------------------------------

    def to_record(self, players: list[str]) -> dict[str, Any]:
        return {
            "format": "klub-record/1",
            "game": self.game,
            "players": list(players),
            "settings": self.rules_settings(),
            "deals": [
                {"hands": deal.record_hands(), "actions": [[s, w] for s, w in acts]}
                for deal, acts in zip(self.deals, self.actions)
            ],
            "result": self.result(),
        }
