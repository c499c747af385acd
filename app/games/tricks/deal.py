"""One deal of Lora's contracts, which Lórum plays too: trick play (contracts 1-6) or the
layout (contract 7; Lórum's Domino).

Cards are ints and sets of cards are bit masks (see ``app.games.cards``); the partie
turns them into record words. A deal knows whose turn it is, which cards are legal,
when it ends, and the points it gives.
"""

from __future__ import annotations

from app.games.base import IllegalAction, NotYourTurn
from app.games.cards import (
    CARD_NAMES,
    HEARTS,
    JACK,
    KING,
    QUEEN,
    SUIT_MASKS,
    CLUBS,
    card,
    highest,
    names_of,
    rank_of,
    suit_of,
)
from app.games.tricks.contracts import Contract

QUEENS_MASK = sum(1 << card(QUEEN, s) for s in range(4))
HEARTS_MASK = SUIT_MASKS[HEARTS]
JACK_OF_CLUBS = card(JACK, CLUBS)
KING_OF_HEARTS = card(KING, HEARTS)
EARLY_END_MASKS = {Contract.DAME: QUEENS_MASK, Contract.HERC: HEARTS_MASK, Contract.ZANDAR_TREF: 1 << JACK_OF_CLUBS}
# The cards that cost points in each trick contract (1 and 2 count tricks, not cards).
PENALTY_MASKS = {
    Contract.STO_VISE: 0,
    Contract.STO_MANJE: 0,
    Contract.DAME: QUEENS_MASK,
    Contract.HERC: HEARTS_MASK,
    Contract.ZANDAR_TREF: 1 << JACK_OF_CLUBS,
    Contract.KING_AND_LAST: 1 << KING_OF_HEARTS,
}
DALJE = "dalje"
TRICKS_PER_DEAL = 8


class Deal:
    """What both kinds of deal share: the hands, the turn, the end and the points."""

    contract: Contract
    void = False  # ended without a result: dealt again (Libyan dvojica, a kitty's K herc or J tref)
    slot = 0  # the schedule's slot (its dealer and contract); a void deal's successor shares it
    pile: list[int] = []  # the cards dealt aside (a three-player kitty), in dealt order
    pile_key: str | None = None  # the record's key for them

    def __init__(self, contract: Contract, hands: list[int], first: int):
        self.contract = contract
        self.dealt = tuple(hands)
        self.hands = list(hands)
        self.n = len(hands)  # seats at the table: 4, or 3 (Libyan Lora)
        self.first = first
        self.turn = first
        self.ended = False
        self.points: list[int] | None = None

    def legal_mask(self, seat: int) -> int:
        """The cards that seat may play now (0 when it is not his turn)."""
        raise NotImplementedError

    def play(self, seat: int, c: int) -> None:
        raise NotImplementedError

    allows_dalje = False  # only contracts without tricks know passing

    def pass_turn(self, seat: int) -> None:
        """``dalje``: only where the contract knows it, and only for a seat that has no
        card it may play (rulings L3)."""
        self.check_turn(seat)
        if not self.allows_dalje:
            raise IllegalAction("dalje is said only in contract 7 (Lora)")
        playable = self.legal_mask(seat)
        if playable:
            raise IllegalAction(f"seat {seat} may not say dalje while holding {CARD_NAMES[highest(playable)]}")
        self.turn = (seat + 1) % self.n

    # -- words other than cards, and what a house-rules deal adds ----------------

    @property
    def code(self) -> str | None:
        """A house-rules contract's code (None: the Club's own deal, or not chosen yet)."""
        return None

    def spoken(self, seat: int) -> list[str]:
        """The words of ``seat`` when it may play no card now (it is his turn)."""
        return [DALJE]

    def say(self, seat: int, word: str) -> Deal | None:
        """Say a word that is not a card; a deal that becomes another one (a chosen
        contract) returns it."""
        if word != DALJE:
            raise IllegalAction(f"{word!r} is neither a card nor {DALJE!r}")
        self.pass_turn(seat)
        return None

    def record_hands(self) -> list[list[str]]:
        """The hands as the record lists them."""
        return [names_of(h) for h in self.dealt]

    def record_pile(self) -> dict[str, list[str]]:
        """The cards dealt aside, under the record's key (nothing when there are none)."""
        return {self.pile_key: [CARD_NAMES[c] for c in self.pile]} if self.pile_key else {}

    def check_turn(self, seat: int) -> None:
        if self.ended:
            raise NotYourTurn("the deal has ended")
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")


class TrickDeal(Deal):
    """Contracts 1-6: free lead, follow suit if you can, no trumps, highest of the led suit."""

    def __init__(self, contract: Contract, hands: list[int], first: int):
        super().__init__(contract, hands, first)
        self.trick: list[tuple[int, int]] = []  # (seat, card) of the trick on the table
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int]] = []  # (leader, plays, winner)
        n = self.n
        self.taken = [0] * n  # cards taken per seat (mask)
        self.taken_by_anyone = 0
        self.ends_when_taken = self.early_end_mask()
        self.trick_counts = [0] * n
        self.n_tricks = hands[0].bit_count() if hands else TRICKS_PER_DEAL

    @property
    def penalty_mask(self) -> int:
        """The cards that cost points in this contract (none in 1 and 2: tricks count)."""
        return PENALTY_MASKS[self.contract]

    follows_suit = True  # False: any card of the hand may go on a trick (slepi)
    min_tricks = 0  # the taken-cards end waits for this many tricks (K herc i 6. štih)

    def legal_mask(self, seat: int) -> int:
        if seat != self.turn:  # the turn is -1 once the deal has ended
            return 0
        hand = self.hands[seat]
        if not self.trick:
            return hand
        same_suit = hand & SUIT_MASKS[self.trick[0][1] >> 3]
        return same_suit or hand

    def play(self, seat: int, c: int) -> None:
        if self.ended or seat != self.turn:
            self.check_turn(seat)
        hand = self.hands[seat]
        trick = self.trick
        if trick and self.follows_suit:
            same_suit = hand & SUIT_MASKS[trick[0][1] >> 3]
            legal = same_suit or hand
        else:
            legal = hand
        if not (legal >> c) & 1:
            if not (hand >> c) & 1:
                raise IllegalAction(f"{CARD_NAMES[c]} is not in seat {seat}'s hand")
            raise IllegalAction(f"{CARD_NAMES[c]} does not follow the led suit while seat {seat} holds it")
        self.hands[seat] = hand & ~(1 << c)
        trick.append((seat, c))
        if len(trick) < self.n:
            self.turn = (seat + 1) % self.n
            return
        led_suit = trick[0][1] >> 3
        winner, best = trick[0]
        for s, x in trick[1:]:
            if x >> 3 == led_suit and x > best:
                winner, best = s, x
        cards_mask = 0
        for _, x in trick:
            cards_mask |= 1 << x
        self.taken[winner] |= cards_mask
        self.trick_counts[winner] += 1
        self.tricks.append((trick[0][0], tuple(trick), winner))
        self.trick = []
        self.turn = winner
        ends_when_taken = self.ends_when_taken
        self.taken_by_anyone |= cards_mask
        if len(self.tricks) == self.n_tricks or (
            ends_when_taken
            and self.taken_by_anyone & ends_when_taken == ends_when_taken
            and len(self.tricks) >= self.min_tricks
        ) or self.ends_early():
            self._finish()

    def ends_early(self) -> bool:
        """An end of the deal other than all tricks or all of ``ends_when_taken`` taken."""
        return False

    def early_end_mask(self) -> int:
        """Dame, Herc and Žandar tref end as soon as these cards are all taken (section 5);
        0: the deal plays all eight tricks."""
        return EARLY_END_MASKS.get(self.contract, 0)

    def _finish(self) -> None:
        self.ended = True
        self.turn = -1
        contract = self.contract
        taken = self.taken
        if contract is Contract.STO_VISE:
            points = [-n for n in self.trick_counts]
        elif contract is Contract.STO_MANJE:
            points = list(self.trick_counts)
        elif contract is Contract.DAME:
            points = [2 * (t & QUEENS_MASK).bit_count() for t in taken]
        elif contract is Contract.HERC:
            hearts = [(t & HEARTS_MASK).bit_count() for t in taken]
            points = [-8 if h == 8 else 0 for h in hearts] if 8 in hearts else hearts
        elif contract is Contract.ZANDAR_TREF:
            points = [8 if (t >> JACK_OF_CLUBS) & 1 else 0 for t in taken]
        else:  # K herc i 8. štih
            last_winner = self.tricks[-1][2]
            points = [
                (4 if (t >> KING_OF_HEARTS) & 1 else 0) + (4 if seat == last_winner else 0)
                for seat, t in enumerate(taken)
            ]
        self.points = points


class LayoutDeal(Deal):
    """Contract 7, Lora: build each suit up from the start rank, A wrapping to 7 (section 6)."""

    allows_dalje = True

    def __init__(self, hands: list[int], first: int):
        super().__init__(Contract.LORA, hands, first)
        self.start_rank: int | None = None
        self.rows: list[list[int]] = [[], [], [], []]  # the layout, one row per suit
        self.next_cards = (1 << 32) - 1  # what may be played now by whoever holds it
        self.passes = [0] * self.n  # each seat's dalje so far

    def pass_turn(self, seat: int) -> None:
        super().pass_turn(seat)
        self.passes[seat] += 1

    def legal_mask(self, seat: int) -> int:
        if seat != self.turn:
            return 0
        return self.hands[seat] & self.next_cards

    def play(self, seat: int, c: int) -> None:
        self.check_turn(seat)
        if not (self.hands[seat] >> c) & 1:
            raise IllegalAction(f"{CARD_NAMES[c]} is not in seat {seat}'s hand")
        if not (self.next_cards >> c) & 1:
            raise IllegalAction(f"{CARD_NAMES[c]} does not fit the layout")
        self.place(c)
        self.hands[seat] &= ~(1 << c)
        if not self.hands[seat]:
            self._finish(seat)
        else:
            self.turn = (seat + 1) % self.n

    def place(self, c: int) -> None:
        """Put card ``c``, which fits, on the layout."""
        if self.start_rank is None:
            start = self.start_rank = rank_of(c)
            self.next_cards = sum(1 << (s * 8 + start) for s in range(4))
        s = suit_of(c)
        row = self.rows[s]
        row.append(c)
        self.next_cards &= ~(1 << c)
        if len(row) < 8:  # A is followed by 7 (section 6)
            self.next_cards |= 1 << (s * 8 + (rank_of(c) + 1) % 8)

    def _finish(self, out_seat: int) -> None:
        self.ended = True
        self.turn = -1
        self.points = [-8 if s == out_seat else self.hands[s].bit_count() for s in range(self.n)]


def new_deal(contract: Contract, hands: list[int], first: int) -> Deal:
    if contract is Contract.LORA:
        return LayoutDeal(hands, first)
    return TrickDeal(contract, hands, first)
