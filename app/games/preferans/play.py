"""Igranje ruke (section 9): tricks on bit masks."""

from __future__ import annotations

from app.games.cards import legal_mask

__all__ = ["legal_mask", "trick_winner", "TrickPlay"]


def trick_winner(cards: list[tuple[int, int]], trump: int | None) -> int:
    """The seat that takes a trick given as (seat, card) in playing order."""
    best_seat, best = cards[0]
    for seat, c in cards[1:]:
        if (c >> 3) == (best >> 3):
            if c > best:
                best_seat, best = seat, c
        elif trump is not None and (c >> 3) == trump:
            best_seat, best = seat, c
    return best_seat


class TrickPlay:
    """The tricks of one hand between the seats in play."""

    __slots__ = ("hands", "trump", "seats", "turn", "trick", "tricks", "history", "betl", "declarer", "over")

    def __init__(self, hands: list[int], trump: int | None, seats: tuple[int, ...], leader: int,
                 declarer: int, betl: bool):
        self.hands = hands  # current masks, all three seats (out-of-play hand untouched)
        self.trump = trump
        self.seats = seats
        self.turn = leader
        self.trick: list[tuple[int, int]] = []
        self.tricks = [0, 0, 0]
        self.history: list[tuple[tuple[tuple[int, int], ...], int]] = []  # (cards, winner)
        self.betl = betl
        self.declarer = declarer
        self.over = False

    @property
    def completed(self) -> int:
        return len(self.history)

    @property
    def remaining(self) -> int:
        """Tricks not yet completed (an unfinished trick counts as unplayed, P9)."""
        return 10 - len(self.history)

    @property
    def cards_played(self) -> int:
        """Cards played so far in this hand, the unfinished trick's too."""
        return len(self.history) * len(self.seats) + len(self.trick)

    def opponents_tricks(self) -> int:
        return 10 - self.remaining - self.tricks[self.declarer]

    def legal(self, seat: int) -> int:
        if self.over or seat != self.turn:
            return 0
        return legal_mask(self.hands[seat], self.trick[0][1] if self.trick else None, self.trump)

    def play(self, seat: int, c: int) -> None:
        """Play a card already checked legal; ends the hand early when the rules say so."""
        self.hands[seat] &= ~(1 << c)
        self.trick.append((seat, c))
        if len(self.trick) < len(self.seats):
            i = self.seats.index(seat)
            self.turn = self.seats[(i + 1) % len(self.seats)]
            return
        winner = trick_winner(self.trick, self.trump)
        self.history.append((tuple(self.trick), winner))
        self.tricks[winner] += 1
        self.trick = []
        self.turn = winner
        if self.betl:
            if winner == self.declarer or len(self.history) == 10:
                self._end()
        elif len(self.history) == 10 or self.opponents_tricks() >= 5:
            self._end()

    def _end(self) -> None:
        self.over = True
        self.turn = -1
