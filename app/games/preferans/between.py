"""Words about a finished hand: odlazak u bulu (section 11, P10) and otpis (section 14, P11)."""

from __future__ import annotations

OTPIS = "otpis"
PREUZIMAM_PAD = "preuzimam pad"
VRACAM_PAD = "vracam pad"
# Said between hands beside the hand's own words (the next hand's bids or contract choice)
SIDE_WORDS = (OTPIS, PREUZIMAM_PAD, VRACAM_PAD)


class SideOffer:
    """An open otpis proposal or fall offer, waiting for its answers."""

    __slots__ = ("word", "by", "responders", "accepted")

    def __init__(self, word: str, by: int, responders: tuple[int, ...]):
        self.word = word
        self.by = by
        self.responders = responders
        self.accepted: list[int] = []

    def pending(self) -> list[int]:
        return [s for s in self.responders if s not in self.accepted]


class FallWindow:
    """Odlazak u bulu for the falls of one hand, open until the end of the next hand.

    ``taker`` is set while a fall has been taken over (by the other opponent in play).
    """

    __slots__ = ("hand_index", "declarer", "v", "fallen", "opponents", "hand_supe", "taker", "closed")

    def __init__(self, hand_index: int, declarer: int, v: int, fallen: list[int],
                 opponents: tuple[int, int], hand_supe: list[list[int]]):
        self.hand_index = hand_index
        self.declarer = declarer
        self.v = v
        self.fallen = fallen
        self.opponents = opponents
        self.hand_supe = hand_supe
        self.taker: int | None = None
        self.closed = False

    def other(self, seat: int) -> int:
        a, b = self.opponents
        return b if seat == a else a

    def can_take(self, seat: int) -> bool:
        return (not self.closed and self.taker is None and seat in self.opponents
                and self.other(seat) in self.fallen)

    def can_return(self, seat: int) -> bool:
        return not self.closed and self.taker == seat

    def transfer(self, taker: int, sign: int) -> tuple[list[int], list[list[int]]]:
        """Bule and supe changes of taking over (sign 1) or returning (sign -1) the fall
        of the other opponent: its v moves to the taker, and every supa the opponents
        wrote in that hand is written by the taker."""
        fallen = self.other(taker)
        bule = [0, 0, 0]
        bule[fallen] -= sign * self.v
        bule[taker] += sign * self.v
        supe = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
        d = self.declarer
        moved = self.hand_supe[fallen][d]
        supe[fallen][d] -= sign * moved
        supe[taker][d] += sign * moved
        return bule, supe
