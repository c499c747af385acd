"""Replay of a Lora partie (game "lora"): the Club's Lora and every house-rules variant."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import lora_scoring as scoring
from .actions import ActionStream
from .bets import Bet, has_bets, read_bets, settle_bets
from .cards import JACK_OF_CLUBS, KING_OF_HEARTS, rank_of
from .errors import DealUnfinished, RefereeError
from .layout import LayoutOutcome, play_layout
from .places import penalty_places, reward_places
from .record import check_header, deal_cards
from .settings import KLUB, LoraRules, lora_rules
from .tricks import play_tricks

VOIDS_BEFORE_PENALTY = 3  # V10: after the third void deal in a row the dealer gets +8
VOID_PENALTY = 8


@dataclass
class DealOutcome:
    """A replayed deal: its contract, its points, and whether it was void."""

    contract: str
    points: list[int]
    void: bool = False


class Schedule:
    """Who deals, and which contract, deal by deal (L1, V1-V3, V5, V10 voids)."""

    def __init__(self, rules: LoraRules) -> None:
        self.rules = rules
        per_seat = len(rules.contracts)
        self.n_slots = rules.n_seats * per_seat + (4 if rules.dodatni else 0)
        self.slot = 0
        self.voids_in_row = 0
        self.chosen: list[list[str]] = [[] for _ in range(rules.n_seats)]

    @property
    def over(self) -> bool:
        """True once every deal of the partie has been played."""
        return self.slot >= self.n_slots

    @property
    def dealer(self) -> int:
        """The dealer of the coming deal."""
        if self.rules.izbor:
            return self.slot % self.rules.n_seats
        return self.slot // len(self.rules.contracts)

    @property
    def fixed_contract(self) -> str | None:
        """The coming deal's contract, None when the first player chooses it (izbor)."""
        if self.rules.izbor:
            return None
        return self.rules.contracts[self.slot % len(self.rules.contracts)]

    def choices(self, seat: int) -> list[str]:
        """Contracts the first player may name: those he has not chosen yet (V2, V5), or
        any not left out in the four extra deals (V3)."""
        if self.slot >= self.rules.n_seats * len(self.rules.contracts):
            return list(self.rules.contracts)
        return [code for code in self.rules.contracts if code not in self.chosen[seat]]

    def advance(self, outcome: DealOutcome, first: int) -> None:
        """Move on after a deal: a void deal repeats the slot, until the third in a row."""
        if outcome.void:
            self.voids_in_row += 1
            if self.voids_in_row < VOIDS_BEFORE_PENALTY:
                return
            outcome.points[self.dealer] += VOID_PENALTY
        if self.rules.izbor:
            self.chosen[first].append(outcome.contract)
        self.voids_in_row = 0
        self.slot += 1


def lora_result(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a Lora record and return its ``result``."""
    rules = lora_rules(record.get("settings"))
    deals = check_header(record, rules.n_seats)
    schedule = Schedule(rules)
    outcomes: list[DealOutcome] = []
    for index, deal in enumerate(deals):
        if schedule.over:
            raise RefereeError("more deals than the partie has", index)
        hand_size, extra = (8, None) if rules.n_seats == 4 else (10, "kitty")
        hands, kitty = deal_cards(index, deal, rules.n_seats, hand_size, extra, 2 if extra else 0)
        stream = ActionStream(index, deal["actions"], rules.n_seats)
        dealer = schedule.dealer
        first = (dealer + 1) % rules.n_seats
        try:
            outcome = replay_deal(stream, rules, schedule, hands, kitty, dealer)
        except DealUnfinished:
            if index != len(deals) - 1:
                raise RefereeError("the deal's actions stop before it ended, yet a deal follows",
                                   index, len(deal["actions"])) from None
            break  # an unfinished partie: its unfinished last deal is not scored
        stream.finish()
        schedule.advance(outcome, first)
        outcomes.append(outcome)
    return _result(rules, outcomes)


def _result(rules: LoraRules, outcomes: list[DealOutcome]) -> dict[str, Any]:
    """The record's ``result``: deals, totals and places."""
    deals: list[dict[str, Any]] = []
    for outcome in outcomes:
        entry: dict[str, Any] = {
            "contract": KLUB.index(outcome.contract) + 1 if rules.numbered else outcome.contract,
            "points": outcome.points,
        }
        if outcome.void:
            entry["void"] = True
        deals.append(entry)
    points = [outcome.points for outcome in outcomes]
    totals = [sum(deal[seat] for deal in points) for seat in range(rules.n_seats)]
    rank = reward_places if rules.variant == "hrvatska" else penalty_places
    return {"deals": deals, "totals": totals, "places": rank(totals, points)}


def replay_deal(stream: ActionStream, rules: LoraRules, schedule: Schedule,
                hands: list[list[str]], kitty: list[str], dealer: int) -> DealOutcome:
    """Replay one deal's words and cards and score it."""
    n = rules.n_seats
    first = (dealer + 1) % n
    contract = schedule.fixed_contract or _read_choice(stream, first, schedule.choices(first))
    if n == 3 and _kitty_voids(contract, kitty):
        return DealOutcome(contract, [0] * n, void=True)  # V15: no words at all
    forecasts = _read_forecasts(stream, first, n) if contract == "prognoza" else []
    bets = read_bets(stream, contract, first, n) if rules.opklade and has_bets(contract) else []
    if contract == "lora":
        layout = play_layout(stream, hands, first, kitty=kitty or None, dealer=dealer)
        return _lora_outcome(rules, layout, bets)
    blind = rules.variant == "hrvatska" and contract == "slepi"
    state = play_tricks(stream, hands, first, scoring.end_test(rules, contract, kitty), blind=blind)
    if rules.variant == "klub":
        return DealOutcome(contract, scoring.klub_points(rules, contract, state))
    if rules.variant == "hrvatska":
        return DealOutcome(contract, scoring.hrvatska_points(contract, state, forecasts))
    points = scoring.libijska_points(rules, contract, state, kitty)
    if points is None:  # a void dvojica: its bets are void too
        return DealOutcome(contract, [0] * n, void=True)
    bets_points = settle_bets(bets, lambda bet: scoring.bet_came_true(rules, contract, state, kitty, bet), n)
    return DealOutcome(contract, _add(points, bets_points))


def _kitty_voids(contract: str, kitty: list[str]) -> bool:
    """3-player libijska: K♥ (kralj_herc) or J♣ (zandar) in the kitty voids the deal."""
    return ((contract == "kralj_herc" and KING_OF_HEARTS in kitty)
            or (contract == "zandar" and JACK_OF_CLUBS in kitty))


def _read_choice(stream: ActionStream, first: int, choices: list[str]) -> str:
    """The first player's ``ugovor <code>`` (V2, V3)."""
    word = stream.take(first)
    code = word[len("ugovor "):] if word.startswith("ugovor ") else None
    if code not in choices:
        raise stream.error(f"seat {first} must name a contract ('ugovor' with one of {choices}), "
                           f"not {word!r}")
    return code


def _read_forecasts(stream: ActionStream, first: int, n: int) -> list[int]:
    """Hrvatska prognoza: from the first player, each says ``prognoza N`` (N = 0..8)."""
    forecasts = [0] * n
    allowed = {f"prognoza {k}": k for k in range(9)}
    for offset in range(n):
        seat = (first + offset) % n
        word = stream.take(seat)
        if word not in allowed:
            raise stream.error(f"seat {seat} must say 'prognoza N' with N 0..8, not {word!r}")
        forecasts[seat] = allowed[word]
    return forecasts


def _lora_outcome(rules: LoraRules, layout: LayoutOutcome, bets: list[Bet]) -> DealOutcome:
    """Points of the contract Lora in each variant (section 6, V6, V9, V10, V17)."""
    n = rules.n_seats
    out = layout.first_out
    if rules.variant == "klub":
        points = [-8 if seat == out else layout.cards_left[seat] for seat in range(n)]
        if rules.dalje_kazna:
            points = _add(points, layout.daljes)
        return DealOutcome("lora", points)
    if rules.variant == "hrvatska":
        return DealOutcome("lora", [8 if seat == out else -layout.cards_left[seat] - layout.daljes[seat]
                                    for seat in range(n)])
    points = [0 if seat == out else layout.cards_left[seat] + 2 * layout.daljes[seat] for seat in range(n)]
    points = _add(points, settle_bets(bets, lambda bet: layout.daljes[bet.bettor] == bet.count, n))
    if rank_of(layout.last_card) == rank_of(layout.first_card):
        points = [2 * p for p in points]
    return DealOutcome("lora", points)


def _add(a: list[int], b: list[int]) -> list[int]:
    """Seat-by-seat sum."""
    return [x + y for x, y in zip(a, b)]
