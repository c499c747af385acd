"""Libyan Lora (rulings V10-V12, V15, V17): eight contracts, the lowest total wins; with
three players 10 cards each and a kitty of two; optional bets (``opklade``).

A contract is a :class:`LibyanRule`; its trick deal (:class:`LibyanTrickDeal`) and its
layout (:class:`LibyanLayoutDeal`) score by it, settle the bets said before the first
card (:mod:`app.games.lora.bets`) and may end void (dealt again in the same slot).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.games.base import IllegalAction
from app.games.cards import CARD_BY_NAME, CARD_NAMES, names_of, rank_of
from app.games.lora.bets import BetRound
from app.games.tricks.contracts import Contract, ContractRule
from app.games.tricks.deal import DALJE, HEARTS_MASK, JACK_OF_CLUBS, KING_OF_HEARTS, QUEENS_MASK, Deal
from app.games.lora.house_deals import (
    ScoredLayoutDeal,
    ScoredTrickDeal,
    all_or_each,
    taken_counts,
    taker_of,
)

KITTY = "kitty"


@dataclass(frozen=True)
class LibyanRule(ContractRule):
    """A Libyan contract. ``counts``: what a bet counts for each seat (None: no bets);
    ``max_bet``: the highest N of ``kladim N`` (None with ``counts``: ``kladim da``/``ne``);
    ``kitty_voids``: a card that voids the deal when it lies in the kitty (V11, V15);
    ``kitty_to_last``: the kitty's cards of ``ends_when_taken`` go to the last trick's
    winner, so the deal then plays every trick; ``stop_after``: the deal ends after this
    many tricks (0: no such end); ``pair``: dvojica's tricks a player needs."""

    counts: Callable[[Any], list[int]] | None = None
    max_bet: int | None = None
    kitty_voids: int = 0
    kitty_to_last: bool = False
    stop_after: int = 0
    pair: int = 0


def final_taken(deal: LibyanTrickDeal) -> list[int]:
    """The cards each seat took, with the kitty to the last trick's winner once every trick
    was played (V11, V17): its hearts count for him in herc, Q herc too; ``dame`` counts
    only the queens taken in tricks (a kitty queen counts for nobody)."""
    taken = list(deal.taken)
    if deal.pile_mask and len(deal.tricks) == deal.n_tricks:
        taken[deal.tricks[-1][2]] |= deal.pile_mask
    return taken


def hearts(deal: Any) -> list[int]:
    return [(t & HEARTS_MASK).bit_count() for t in final_taken(deal)]


def queens(deal: Any) -> list[int]:
    return taken_counts(deal, QUEENS_MASK)


def tricks(deal: Any) -> list[int]:
    return list(deal.trick_counts)


def won_stop_trick(deal: Any) -> list[int]:
    """1 for the winner of the 6th trick (the 8th with three players)."""
    winner = deal.tricks[deal.rule.stop_after - 1][2]
    return [1 if s == winner else 0 for s in range(deal.n)]


def herc(deal: Any) -> list[int]:
    return all_or_each(hearts(deal), 8, -8, 1)


def kralj_herc(deal: Any) -> list[int]:
    taker = taker_of(deal, KING_OF_HEARTS)
    return [8 if s == taker else 0 for s in range(deal.n)]


def dame(deal: Any) -> list[int]:
    return all_or_each(queens(deal), 4, -8, 2)


def zandar(deal: Any) -> list[int]:
    """+8 to the seat after the taker of J tref (the next to play after him)."""
    taker = taker_of(deal, JACK_OF_CLUBS)
    return [8 if taker is not None and s == (taker + 1) % deal.n else 0 for s in range(deal.n)]


def sesti(deal: Any) -> list[int]:
    return [8 * w for w in won_stop_trick(deal)]


def stihovi(deal: Any) -> list[int]:
    return all_or_each(deal.trick_counts, deal.n_tricks, -deal.n_tricks, 1)


def pair_made(deal: Any) -> bool:
    return sum(1 for n in deal.trick_counts if n >= deal.rule.pair) >= 2


def dvojica(deal: Any) -> list[int] | None:
    """Once two players have 3 tricks each (4 with three players), the others get +4 (the
    third +8); without that the deal is void (None)."""
    if not pair_made(deal):
        return None
    bonus = 8 if deal.n == 3 else 4
    return [0 if n >= deal.rule.pair else bonus for n in deal.trick_counts]


def libijska_rules(n: int) -> dict[str, ContractRule]:
    """The eight contracts at a table of ``n`` seats (3 or 4)."""
    n_tricks = 32 // n
    three = n == 3
    rules = (
        LibyanRule("herc", "Herc", "tricks", Contract.HERC, herc, penalty=HEARTS_MASK,
                   ends_when_taken=HEARTS_MASK, counts=hearts, max_bet=8, kitty_to_last=True),
        LibyanRule("kralj_herc", "Kralj herc", "tricks", Contract.KING_AND_LAST, kralj_herc,
                   penalty=1 << KING_OF_HEARTS, ends_when_taken=1 << KING_OF_HEARTS,
                   kitty_voids=1 << KING_OF_HEARTS if three else 0),
        LibyanRule("dame", "Dame", "tricks", Contract.DAME, dame, penalty=QUEENS_MASK, ends_when_taken=QUEENS_MASK,
                   counts=queens, max_bet=4),
        LibyanRule("zandar", "Žandar tref", "tricks", Contract.ZANDAR_TREF, zandar, penalty=1 << JACK_OF_CLUBS,
                   ends_when_taken=1 << JACK_OF_CLUBS, kitty_voids=1 << JACK_OF_CLUBS if three else 0),
        LibyanRule("sesti", "Osmi štih" if three else "Šesti štih", "tricks", Contract.STO_MANJE, sesti,
                   counts=won_stop_trick, stop_after=8 if three else 6),
        LibyanRule("stihovi", "Štihovi", "tricks", Contract.STO_MANJE, stihovi, counts=tricks, max_bet=n_tricks),
        LibyanRule("dvojica", "Dvojica", "tricks", Contract.STO_MANJE, dvojica, counts=tricks, max_bet=n_tricks,
                   pair=4 if three else 3),
        LibyanRule("lora", "Lora", "layout", Contract.LORA, layout=(0, 1, 2, False), max_bet=32,
                   counts=lambda deal: list(deal.passes)),
    )
    return {r.code: r for r in rules}


class Bets:
    """What a deal with bets adds: the round before the first card, and its settlement.
    Mixed into a deal before its trick or layout class."""

    rule: LibyanRule
    bets: BetRound | None
    first: int
    n: int
    turn: int
    ended: bool

    def start_bets(self, on: bool) -> None:
        rule = self.rule
        self.bets = BetRound(self.first, self.n, rule.max_bet) if on and rule.counts is not None else None

    @property
    def betting(self) -> bool:
        return self.bets is not None and self.bets.open

    def legal_mask(self, seat: int) -> int:
        return 0 if self.betting else super().legal_mask(seat)  # type: ignore[misc]

    def spoken(self, seat: int) -> list[str]:
        if self.betting:
            assert self.bets is not None
            return self.bets.words(seat)
        return super().spoken(seat)  # type: ignore[misc]

    def say(self, seat: int, word: str) -> Deal | None:
        if not self.betting:
            return super().say(seat, word)  # type: ignore[misc]
        assert self.bets is not None
        self.check_turn(seat)  # type: ignore[attr-defined]
        self.bets.say(seat, word)
        self.turn = self.bets.turn if self.bets.turn is not None else self.first
        return None

    def play(self, seat: int, c: int) -> None:
        if self.betting and not self.ended:
            self.check_turn(seat)  # type: ignore[attr-defined]
            raise IllegalAction(f"the bets come first: seat {seat} says kladim ... or ne kladim (or answers a bet)")
        super().play(seat, c)  # type: ignore[misc]

    def bet_points(self) -> list[int]:
        if self.bets is None:
            return [0] * self.n
        assert self.rule.counts is not None
        return self.bets.points(self.rule.counts(self))


class LibyanTrickDeal(Bets, ScoredTrickDeal):
    """A Libyan trick contract, with its kitty (three players) and its bets."""

    def __init__(self, rule: LibyanRule, hands: list[int], first: int, kitty: int, bets: bool):
        self.pile_mask = kitty  # before the trick deal asks for its early end
        super().__init__(rule, hands, first)
        self.start_bets(bets)
        if self.bets is not None:
            self.turn = self.first
        if kitty & rule.kitty_voids:  # K herc or J tref in the kitty: void at once (V15)
            self.ended, self.turn, self.void = True, -1, True
            self.points = [0] * self.n

    def early_end_mask(self) -> int:
        mask = self.rule.ends_when_taken
        if self.pile_mask & mask:  # the kitty's part of them: to the last trick, or nobody's
            return 0 if self.rule.kitty_to_last else mask & ~self.pile_mask
        return mask

    def ends_early(self) -> bool:
        rule = self.rule
        return bool(rule.stop_after and len(self.tricks) == rule.stop_after) or bool(rule.pair and pair_made(self))

    def _finish(self) -> None:
        self.ended = True
        self.turn = -1
        assert self.rule.score is not None
        points = self.rule.score(self)
        if points is None:  # dvojica without a pair: void, its bets too
            self.void = True
            self.points = [0] * self.n
            return
        self.points = [p + b for p, b in zip(points, self.bet_points())]


class LibyanLayoutDeal(Bets, ScoredLayoutDeal):
    """Libyan Lora's layout: the first out 0, every other +1 a card left and +2 a dalje,
    everything (bets too) doubled when the card that ends it has the first card's rank.
    With three players the kitty is a fourth place just before the dealer, who plays for it."""

    def __init__(self, rule: LibyanRule, hands: list[int], first: int, kitty: list[int], bets: bool):
        super().__init__(rule, hands, first)
        self.kitty = sum(1 << c for c in kitty)
        self.has_kitty = bool(kitty)
        self.dealer = (first - 1) % self.n
        self.kitty_turn = False
        self.start_bets(bets)

    def legal_mask(self, seat: int) -> int:
        return 0 if self.kitty_turn else super().legal_mask(seat)

    def kitty_words(self) -> list[str]:
        playable = self.kitty & self.next_cards
        return [f"{KITTY} {name}" for name in names_of(playable)] or [f"{KITTY} {DALJE}"]

    def spoken(self, seat: int) -> list[str]:
        if self.kitty_turn and not self.betting:
            return self.kitty_words() if seat == self.turn else []
        return super().spoken(seat)

    def say(self, seat: int, word: str) -> Deal | None:
        if not self.kitty_turn or self.betting:
            if word.startswith(KITTY):
                self.check_turn(seat)
                raise IllegalAction(f"{word!r}: it is not the kitty's turn")
            return super().say(seat, word)
        self.check_turn(seat)
        if word not in self.kitty_words():
            raise IllegalAction(f"{word!r}: the dealer plays for the kitty one of {', '.join(self.kitty_words())}")
        name = word.split()[1]
        if name != DALJE:
            c = CARD_BY_NAME[name]
            self.place(c)
            self.kitty &= ~(1 << c)
        self.kitty_turn = False  # the dealer's own turn follows
        return None

    def play(self, seat: int, c: int) -> None:
        if self.kitty_turn and not self.betting:
            self.check_turn(seat)
            raise IllegalAction(f"seat {seat} plays for the kitty first ({', '.join(self.kitty_words())})")
        super().play(seat, c)
        self._to_kitty()

    def pass_turn(self, seat: int) -> None:
        super().pass_turn(seat)
        self._to_kitty()

    def _to_kitty(self) -> None:
        """The kitty's place comes just before the dealer's."""
        if self.has_kitty and not self.ended and self.turn == self.dealer:
            self.kitty_turn = True

    @property
    def kitty_shown(self) -> bool:
        """The kitty is turned face up after the first card (V11)."""
        return self.has_kitty and self.start_rank is not None

    def _finish(self, out_seat: int) -> None:
        self.ended = True
        self.turn = -1
        self.kitty_turn = False
        points = [0 if s == out_seat else self.hands[s].bit_count() + 2 * self.passes[s] for s in range(self.n)]
        points = [p + b for p, b in zip(points, self.bet_points())]
        if rank_of(self.last_placed) == self.start_rank:  # the card that ends it (V17)
            points = [2 * p for p in points]
        self.points = points

    def place(self, c: int) -> None:
        super().place(c)
        self.last_placed = c


def kitty_view(deal: Deal, seat: int | None) -> list[str] | None:
    """The kitty as a seat sees it: face up once turned (the layout), or once the deal is
    over; None while face down."""
    if isinstance(deal, LibyanLayoutDeal):
        return names_of(deal.kitty) if deal.kitty_shown or deal.ended else None
    if deal.pile and deal.ended:
        return [CARD_NAMES[c] for c in deal.pile]
    return None


__all__ = ["KITTY", "LibyanLayoutDeal", "LibyanRule", "LibyanTrickDeal", "kitty_view", "libijska_rules"]
