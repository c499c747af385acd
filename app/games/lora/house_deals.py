"""The deals of Lora's house rules: the trick and layout deals that score by a contract's
rule (:class:`~app.games.tricks.contracts.ContractRule`), the prediction round of ``prognoza``, the blind
``slepi`` and the contract choice of ``izbor`` (rulings V2-V9).

The Club's own deals (``app.games.tricks.deal``) stay as they are; these subclass them
and change only what a house rule changes: how a deal ends, what it scores, and the
words said before its first card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.games.base import IllegalAction
from app.games.cards import CARD_NAMES
from app.games.tricks.contracts import ContractRule
from app.games.tricks.deal import Deal, LayoutDeal, TrickDeal

UGOVOR = "ugovor"
PROGNOZA = "prognoza"
TRICKS_PER_DEAL = 8


class ScoredTrickDeal(TrickDeal):
    """A trick contract scored by its rule."""

    def __init__(self, rule: ContractRule, hands: list[int], first: int):
        self.rule = rule
        super().__init__(rule.plays_like, hands, first)
        self.min_tricks = rule.min_tricks

    @property
    def code(self) -> str:
        return self.rule.code

    @property
    def penalty_mask(self) -> int:
        return self.rule.penalty

    def early_end_mask(self) -> int:
        return self.rule.ends_when_taken

    def _finish(self) -> None:
        self.ended = True
        self.turn = -1
        assert self.rule.score is not None
        self.points = self.rule.score(self)


class ScoredLayoutDeal(LayoutDeal):
    """The layout scored by its rule (its ``dalje`` words may cost, V6, V9)."""

    def __init__(self, rule: ContractRule, hands: list[int], first: int):
        super().__init__(hands, first)
        self.rule = rule

    @property
    def code(self) -> str:
        return self.rule.code

    def _finish(self, out_seat: int) -> None:
        self.ended = True
        self.turn = -1
        out, per_card, per_dalje, out_pays = self.rule.layout
        self.points = [
            (out + (per_dalje * self.passes[s] if out_pays else 0)) if s == out_seat
            else per_card * self.hands[s].bit_count() + per_dalje * self.passes[s]
            for s in range(self.n)
        ]


class PrognozaDeal(ScoredTrickDeal):
    """Tricks after each seat, from the first player on, said ``prognoza N`` (V9)."""

    def __init__(self, rule: ContractRule, hands: list[int], first: int):
        super().__init__(rule, hands, first)
        self.predictions: list[int | None] = [None] * self.n
        self.said = 0

    @property
    def predicting(self) -> bool:
        return self.said < self.n

    def legal_mask(self, seat: int) -> int:
        return 0 if self.predicting else super().legal_mask(seat)

    def spoken(self, seat: int) -> list[str]:
        return [f"{PROGNOZA} {n}" for n in range(TRICKS_PER_DEAL + 1)] if self.predicting else []

    def say(self, seat: int, word: str) -> Deal | None:
        self.check_turn(seat)
        if not self.predicting:
            raise IllegalAction(f"{word!r}: the predictions are said; now a card is played")
        if word not in self.spoken(seat):
            raise IllegalAction(f"{word!r}: seat {seat} first says {PROGNOZA} N, N = 0..{TRICKS_PER_DEAL}")
        self.predictions[seat] = int(word.split()[1])
        self.said += 1
        self.turn = (seat + 1) % self.n
        return None

    def play(self, seat: int, c: int) -> None:
        if self.predicting and not self.ended:
            self.check_turn(seat)
            raise IllegalAction(f"seat {seat} first says {PROGNOZA} N (how many tricks he will take)")
        super().play(seat, c)


class BlindDeal(ScoredTrickDeal):
    """``slepi``: each seat turns the top card of his hand as dealt; no duty to follow (V9)."""

    follows_suit = False

    def __init__(self, rule: ContractRule, order: Sequence[Sequence[int]], first: int):
        super().__init__(rule, [sum(1 << c for c in hand) for hand in order], first)
        self.order = [list(hand) for hand in order]
        self.turned = [0] * self.n

    def top(self, seat: int) -> int:
        return self.order[seat][self.turned[seat]]

    def legal_mask(self, seat: int) -> int:
        return 1 << self.top(seat) if seat == self.turn else 0

    def play(self, seat: int, c: int) -> None:
        self.check_turn(seat)
        if c != self.top(seat):
            raise IllegalAction(f"in slepi seat {seat} plays the top card of his hand, not {CARD_NAMES[c]}")
        self.turned[seat] += 1
        super().play(seat, c)

    def record_hands(self) -> list[list[str]]:
        return [[CARD_NAMES[c] for c in hand] for hand in self.order]


class ChoosingDeal(Deal):
    """Dealt, and the first player is to say ``ugovor <code>`` (V2, V3)."""

    def __init__(self, hands: list[int], first: int, choices: list[str], titles: dict[str, str],
                 make: Callable[[str], Deal]):
        super().__init__(None, hands, first)  # type: ignore[arg-type]
        self.choices = choices
        self.titles = titles
        self.make = make

    def legal_mask(self, seat: int) -> int:
        return 0

    def spoken(self, seat: int) -> list[str]:
        return [f"{UGOVOR} {c}" for c in self.choices]

    def say(self, seat: int, word: str) -> Deal | None:
        self.check_turn(seat)
        if word not in self.spoken(seat):
            allowed = ", ".join(self.choices)
            raise IllegalAction(f"{word!r}: seat {seat} first chooses the contract, one of: {allowed}")
        return self.make(word.split()[1])

    def play(self, seat: int, c: int) -> None:
        self.check_turn(seat)
        raise IllegalAction(f"seat {seat} first chooses the contract ({UGOVOR} <code>)")


def taker_of(deal: TrickDeal, c: int) -> int | None:
    """The seat that took card ``c`` (None: nobody yet)."""
    for s, taken in enumerate(deal.taken):
        if (taken >> c) & 1:
            return s
    return None


def all_or_each(counts: list[int], total: int, all_points: int, each: int) -> list[int]:
    """``all_points`` to a seat holding all ``total`` (the others 0), else ``each`` per unit."""
    if total in counts:
        return [all_points if n == total else 0 for n in counts]
    return [each * n for n in counts]


def taken_counts(deal: TrickDeal, mask: int) -> list[int]:
    return [(t & mask).bit_count() for t in deal.taken]


__all__ = ["BlindDeal", "ChoosingDeal", "ContractRule", "PrognozaDeal", "ScoredLayoutDeal", "ScoredTrickDeal",
           "all_or_each", "taken_counts", "taker_of"]
