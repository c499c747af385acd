"""Licitacija (section 5), prijavljene igre (section 6) and the igra suit contest (P2).

Seats are 0..2 in speaking order; ``first`` is the first bidder of the hand.
"""

from __future__ import annotations

from app.games.base import IllegalAction, NotYourTurn
from app.games.preferans.contracts import BETL, MAX_BID, MIN_BID, SANS, SUIT_WORDS, Contract

IGRA = "igra"
DALJE, MOJE, SLABIJA = "dalje", "moje", "slabija"
DECLARATIONS = (IGRA, BETL, SANS)
_BID_WORDS = {str(n): n for n in range(MIN_BID, MAX_BID + 1)}
_STRENGTH = {IGRA: 0, BETL: 1, SANS: 2}


class Bidding:
    """The licitacija of one hand, then the naming of the igra trump when needed.

    Ends with ``winner`` and either ``bid`` (an ordinary bid: talon follows) or
    ``contract`` (a declared game), or with ``all_pass``.
    """

    __slots__ = (
        "first", "turn", "spoke", "out", "bid", "holder", "declared", "naming",
        "named", "name_index", "winner", "contract", "all_pass", "done",
    )

    def __init__(self, first: int):
        self.first = first
        self.turn: int | None = first
        self.spoke = [False, False, False]
        self.out = [False, False, False]
        self.bid = 0
        self.holder: int | None = None
        self.declared: list[tuple[int, str]] = []  # in declaration order
        self.naming: list[int] = []  # igra declarers who name a suit, in order
        self.named: list[tuple[int, str]] = []  # (seat, suit word or slabija)
        self.name_index = 0
        self.winner: int | None = None
        self.contract: Contract | None = None
        self.all_pass = False
        self.done = False

    # -- queries -------------------------------------------------------------------
    def _priority(self, seat: int, other: int) -> bool:
        """Is ``seat`` closer to the first bidder than ``other``?"""
        return (seat - self.first) % 3 < (other - self.first) % 3

    def _strongest(self) -> str | None:
        if not self.declared:
            return None
        return max((kind for _, kind in self.declared), key=_STRENGTH.__getitem__)

    def _best_named(self) -> int:
        best = -1
        for _, word in self.named:
            if word != SLABIJA:
                best = max(best, SUIT_WORDS.index(word))
        return best

    def legal(self, seat: int) -> list[str]:
        if self.done or seat != self.turn:
            return []
        if self.naming:
            if len(self.naming) == 1:
                return list(SUIT_WORDS)
            best = self._best_named()
            words = [w for i, w in enumerate(SUIT_WORDS) if i > best]
            if self.named:
                words.append(SLABIJA)
            return words
        if self.declared:
            strongest = self._strongest()
            words = []
            if strongest == IGRA:
                words += [IGRA, BETL, SANS]
            elif strongest == BETL:
                words.append(SANS)
            words.append(DALJE)
            return words
        words = []
        if self.bid == 0:
            words.append(str(MIN_BID))
        elif self._priority(seat, self.holder):  # type: ignore[arg-type]
            words.append(MOJE)
        elif self.bid < MAX_BID:
            words.append(str(self.bid + 1))
        words.append(DALJE)
        if not self.spoke[seat]:
            words += [IGRA, BETL, SANS]
        return words

    # -- moves -----------------------------------------------------------------------
    def apply(self, seat: int, word: str) -> None:
        if self.done or seat != self.turn:
            raise NotYourTurn(f"seat {seat} does not speak now in the licitacija")
        if word not in self.legal(seat):
            raise IllegalAction(self._why_not(seat, word))
        if self.naming:
            self._name(seat, word)
        elif word in DECLARATIONS:
            self.spoke[seat] = True
            self.declared.append((seat, word))
            for s in range(3):  # ordinary bidders and passers are out (section 6)
                if self.spoke[s] and s != seat and s not in (d for d, _ in self.declared):
                    self.out[s] = True
            self._next_declaration_turn(seat)
        elif self.declared:
            self.spoke[seat] = True
            self.out[seat] = True
            self._next_declaration_turn(seat)
        else:
            self.spoke[seat] = True
            if word == DALJE:
                self.out[seat] = True
            elif word == MOJE:
                self.holder = seat
            else:
                self.bid = _BID_WORDS[word]
                self.holder = seat
            self._next_bidding_turn(seat)

    def _why_not(self, seat: int, word: str) -> str:
        if self.naming:
            return f"{word!r} is not allowed here; say one of {', '.join(self.legal(seat))}"
        if word in DECLARATIONS and self.spoke[seat]:
            return f"{word} can be declared only as a player's first word in the hand"
        if word in DECLARATIONS:
            return f"{word} cannot be declared after {self._strongest()}"
        if word == MOJE:
            return "moje is said only by a player with priority facing another player's bid"
        if word in _BID_WORDS:
            if self.declared:
                return "after a declaration there is no more ordinary bidding"
            need = MIN_BID if self.bid == 0 else self.bid + 1
            if self.bid and self._priority(seat, self.holder):  # type: ignore[arg-type]
                return "a player with priority never raises: say moje or dalje"
            return f"the bid must be exactly {need}" if need <= MAX_BID else "the bidding is at 7 already"
        return f"{word!r} is not a word of the licitacija now; say one of {', '.join(self.legal(seat))}"

    def _next_bidding_turn(self, speaker: int) -> None:
        active = [s for s in range(3) if not self.out[s]]
        if not active:
            self.all_pass, self.done, self.turn = True, True, None
            return
        if self.holder is not None and active == [self.holder]:
            self.winner, self.done, self.turn = self.holder, True, None
            return
        for step in (1, 2, 3):
            s = (speaker + step) % 3
            if not self.out[s] and s != self.holder:
                self.turn = s
                return

    def _next_declaration_turn(self, speaker: int) -> None:
        for step in (1, 2):
            s = (speaker + step) % 3
            if not self.spoke[s]:
                self.turn = s
                return
        strongest = self._strongest()
        if strongest in (BETL, SANS):
            seat = next(s for s, k in self.declared if k == strongest)
            self.winner, self.contract, self.done, self.turn = seat, Contract(strongest, True), True, None
            return
        self.naming = [s for s, k in self.declared if k == IGRA]
        self.turn = self.naming[0]

    def _name(self, seat: int, word: str) -> None:
        self.named.append((seat, word))
        self.name_index += 1
        if self.name_index < len(self.naming):
            self.turn = self.naming[self.name_index]
            return
        best = self._best_named()
        winner = next(s for s, w in self.named if w == SUIT_WORDS[best])
        self.winner, self.contract, self.done, self.turn = winner, Contract(SUIT_WORDS[best], True), True, None
