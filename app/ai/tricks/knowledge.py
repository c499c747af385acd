"""What one seat knows in a deal of a trick game (Lora, Lórum), read from its view alone.

The view holds the seat's hand and the public record of the deal (every action so far).
From the actions we rebuild the cards already played and what each other seat cannot
hold: a suit it did not follow, and in a layout every card that was playable when it
said ``dalje``. Each game reads its own view into this (``app.ai.lora.knowledge``,
``app.ai.lorum.knowledge``) and adds what its contracts need.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.games.cards import CARD_BY_NAME, FULL_MASK, SUIT_MASKS, mask_of
from app.games.tricks.contracts import N_SEATS, Contract, ContractRule
from app.games.tricks.deal import DALJE


@dataclass
class TrickKnowledge:
    seat: int
    contract: Contract  # the Club contract whose play (and rules of thumb) the deal shares
    hand: int  # my cards
    hand_sizes: list[int]
    turn: int
    played: int = 0  # every card no longer in a hand
    forbidden: list[int] = field(default_factory=lambda: [0] * N_SEATS)  # cards a seat cannot hold
    # trick contracts
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) on the table
    taken: list[int] = field(default_factory=lambda: [0] * N_SEATS)
    trick_counts: list[int] = field(default_factory=lambda: [0] * N_SEATS)
    tricks_done: int = 0
    # layout
    start_rank: int | None = None
    next_cards: int = FULL_MASK
    passes: list[int] = field(default_factory=lambda: [0] * N_SEATS)  # each seat's dalje
    # the contract's own rule (None: the Club's own Lora contract), the predictions said
    # (Lora's prognoza), and +1 when lower totals are better, -1 when higher are
    rule: ContractRule | None = None
    predictions: list[int | None] = field(default_factory=lambda: [None] * N_SEATS)
    sign: int = 1
    # cards nobody holds: face up and not yet played (a kitty), how many lie face down (a
    # kitty, 101's stock), and the cards the face-down ones cannot be
    kitty: int = 0
    kitty_hidden: int = 0
    kitty_forbidden: int = 0

    @property
    def n(self) -> int:
        """The seats at the table (3 or 4)."""
        return len(self.hand_sizes)

    @property
    def unknown(self) -> int:
        """Cards in the other seats' hands or face down aside (where each is, is hidden)."""
        return FULL_MASK & ~self.played & ~self.hand & ~self.kitty


def replay_tricks(know: TrickKnowledge, actions: list[tuple[int, str]]) -> None:
    n = know.n
    trick: list[tuple[int, int]] = []
    for seat, word in actions:
        c = CARD_BY_NAME[word]
        know.played |= 1 << c
        if trick:
            led = trick[0][1] >> 3
            if c >> 3 != led:
                know.forbidden[seat] |= SUIT_MASKS[led]
        trick.append((seat, c))
        if len(trick) == n:
            led = trick[0][1] >> 3
            winner, best = trick[0]
            for s, x in trick[1:]:
                if x >> 3 == led and x > best:
                    winner, best = s, x
            know.taken[winner] |= mask_of(x for _, x in trick)
            know.trick_counts[winner] += 1
            know.tricks_done += 1
            trick = []
    know.trick = trick


def replay_layout(know: TrickKnowledge, actions: list[tuple[int, str]]) -> None:
    next_cards = FULL_MASK
    start: int | None = None
    rows = [0, 0, 0, 0]
    for seat, word in actions:
        if word == DALJE:
            know.forbidden[seat] |= next_cards
            know.passes[seat] += 1
            continue
        c = CARD_BY_NAME[word]
        know.played |= 1 << c
        if start is None:
            start = c & 7
            next_cards = sum(1 << (s * 8 + start) for s in range(4))
        s = c >> 3
        rows[s] += 1
        next_cards &= ~(1 << c)
        if rows[s] < 8:
            next_cards |= 1 << (s * 8 + ((c & 7) + 1) % 8)
    know.start_rank = start
    know.next_cards = next_cards
