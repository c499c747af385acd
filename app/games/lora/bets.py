"""Libyan Lora's bets (``opklade``, rulings V12): said after the deal, before the first card.

Starting with the first player each says ``kladim N`` (``kladim da`` / ``kladim ne`` in
``sesti``) or ``ne kladim``. Then, bet by bet in that order, each opponent in turn after
the bettor says ``kontra`` or ``moze``; the first ``kontra`` closes that bet's round, and
the bettor answers it with ``rekontra`` or ``moze``. A bet that comes true gives its
bettor -10 and a false one +10; with ``kontra`` +-20 to the bettor and the opposite to the
one who said it; ``rekontra`` doubles that.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.base import IllegalAction

KLADIM, NE_KLADIM = "kladim", "ne kladim"
KONTRA, REKONTRA, MOZE = "kontra", "rekontra", "moze"
DA, NE = "da", "ne"
BET_POINTS = 10
# What a bet counts in each Libyan contract (the bet prompt names it): ``trick`` is the
# yes/no bet on the 6th (three players: 8th) trick.
BET_UNITS = {"herc": "hearts", "dame": "queens", "stihovi": "tricks", "dvojica": "tricks", "lora": "dalje",
             "sesti": "trick"}


@dataclass
class Bet:
    seat: int
    target: int | bool  # a count (kladim N), or whether he wins the trick (kladim da / ne)
    kontra_by: int | None = None
    rekontra: bool = False

    @property
    def word(self) -> str:
        if isinstance(self.target, bool):
            return f"{KLADIM} {DA if self.target else NE}"
        return f"{KLADIM} {self.target}"

    def stake(self) -> int:
        return BET_POINTS * (1 if self.kontra_by is None else 4 if self.rekontra else 2)

    def points(self, count: int, n: int) -> list[int]:
        """What this bet gives each of ``n`` seats when the bettor's count is ``count``
        (for a yes/no bet: 1 when he won the trick, else 0)."""
        came_true = bool(count) == self.target if isinstance(self.target, bool) else count == self.target
        to_bettor = -self.stake() if came_true else self.stake()
        out = [0] * n
        out[self.seat] = to_bettor
        if self.kontra_by is not None:
            out[self.kontra_by] = -to_bettor
        return out


class BetRound:
    """The bets of one deal: whose word it is, which words he may say, and the settlement."""

    def __init__(self, first: int, n: int, max_count: int | None):
        """``max_count``: the highest N of ``kladim N``; None: the bet is ``kladim da``/``ne``."""
        self.first = first
        self.n = n
        self.max_count = max_count
        self.said: list[str | None] = [None] * n  # each seat's bet word, as said
        self.bets: list[Bet] = []
        self._declared = 0
        self._bet_index = 0  # the bet whose answers are being said
        self._answered = 0  # opponents who have answered it
        self.turn: int | None = first

    @property
    def open(self) -> bool:
        return self.turn is not None

    def words(self, seat: int) -> list[str]:
        if seat != self.turn:
            return []
        if self._declared < self.n:
            if self.max_count is None:
                return [f"{KLADIM} {DA}", f"{KLADIM} {NE}", NE_KLADIM]
            return [f"{KLADIM} {k}" for k in range(self.max_count + 1)] + [NE_KLADIM]
        bet = self.bets[self._bet_index]
        if bet.kontra_by is not None:
            return [REKONTRA, MOZE]
        return [KONTRA, MOZE]

    def say(self, seat: int, word: str) -> None:
        allowed = self.words(seat)
        if word not in allowed:
            raise IllegalAction(f"{word!r}: seat {seat} says one of {', '.join(allowed)}")
        if self._declared < self.n:
            self._declare(seat, word)
        else:
            self._answer(seat, word)

    def _declare(self, seat: int, word: str) -> None:
        self.said[seat] = word
        if word != NE_KLADIM:
            value = word.split()[1]
            target: int | bool = value == DA if self.max_count is None else int(value)
            self.bets.append(Bet(seat, target))
        self._declared += 1
        if self._declared < self.n:
            self.turn = (seat + 1) % self.n
        else:
            self._next_bet(0)

    def _answer(self, seat: int, word: str) -> None:
        bet = self.bets[self._bet_index]
        if bet.kontra_by is not None:  # the bettor's answer to the kontra
            bet.rekontra = word == REKONTRA
            self._next_bet(self._bet_index + 1)
        elif word == KONTRA:
            bet.kontra_by = seat
            self.turn = bet.seat
        else:
            self._answered += 1
            if self._answered == self.n - 1:
                self._next_bet(self._bet_index + 1)
            else:
                self.turn = (seat + 1) % self.n

    def _next_bet(self, index: int) -> None:
        self._bet_index = index
        self._answered = 0
        self.turn = (self.bets[index].seat + 1) % self.n if index < len(self.bets) else None

    def points(self, counts: list[int]) -> list[int]:
        """Every bet settled on the bettors' final counts."""
        out = [0] * self.n
        for bet in self.bets:
            for s, p in enumerate(bet.points(counts[bet.seat], self.n)):
                out[s] += p
        return out

    def view(self) -> list[dict[str, object]]:
        """Each seat's bet as said, with its kontra and rekontra (public)."""
        by_seat = {b.seat: b for b in self.bets}
        return [
            {"word": self.said[s], "kontra_by": by_seat[s].kontra_by if s in by_seat else None,
             "rekontra": by_seat[s].rekontra if s in by_seat else False}
            for s in range(self.n)
        ]
