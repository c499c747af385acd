"""What one seat knows in a Lora deal, read from its view alone.

The view holds the seat's hand and the public record of the deal (every action so far).
From the actions we rebuild the cards already played and what each other seat cannot
hold: a suit it did not follow, and in contract 7 every card that was playable when it
said ``dalje``. Libyan Lora adds three-seat tables, the kitty (face down, or face up in
the three-seat layout, where the dealer plays its cards with ``kitty <card>``) and the
bets said before the first card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.games.cards import CARD_BY_NAME, FULL_MASK, SUIT_MASKS, mask_of
from app.games.lora.bets import DA, NE_KLADIM, Bet
from app.games.tricks.contracts import N_SEATS, Contract
from app.games.tricks.deal import DALJE
from app.games.lora.house import HouseTable
from app.games.lora.house_deals import ContractRule
from app.games.lora.libijska import KITTY, LibyanRule

RANK_BY_LETTER = {letter: i for i, letter in enumerate("789TJQKA")}


@dataclass
class LoraKnowledge:
    seat: int
    contract: Contract
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
    # house rules: the contract's own rule (None: the Club's own Lora), the predictions
    # said (prognoza), and +1 when lower totals are better, -1 when higher are (hrvatska)
    rule: ContractRule | None = None
    predictions: list[int | None] = field(default_factory=lambda: [None] * N_SEATS)
    sign: int = 1
    # Libyan Lora: the kitty's cards face up and not yet played, how many lie face down
    # (nobody holds them), the cards a face-down kitty cannot hold (they would have voided
    # the deal, V15), the bets said, the dealer, and the void deals of this slot before it
    kitty: int = 0
    kitty_place: bool = False  # a three-seat table: the kitty is dealt (and plays in the layout)
    kitty_hidden: int = 0
    kitty_forbidden: int = 0
    bets: list[Bet] = field(default_factory=list)
    dealer: int = -1
    voids_before: int = 0

    @property
    def n(self) -> int:
        """The seats at the table (3 or 4)."""
        return len(self.hand_sizes)

    @property
    def unknown(self) -> int:
        """Cards in the other seats' hands or the face-down kitty (where each is, is hidden)."""
        return FULL_MASK & ~self.played & ~self.hand & ~self.kitty

    @property
    def libyan(self) -> LibyanRule | None:
        """The Libyan contract's rule (None: another variant)."""
        return self.rule if isinstance(self.rule, LibyanRule) else None


def house_table(view: dict[str, Any]) -> HouseTable | None:
    """The house-rules table of a view (None: the Club's own Lora)."""
    settings = (view.get("deal") or {}).get("settings")
    return HouseTable(settings) if settings else None


def read_view(view: dict[str, Any]) -> LoraKnowledge:
    deal = view["deal"]
    seat = view["seat"]
    table = house_table(view)
    rule = table.rules[deal["contract"]] if table is not None else None
    contract = rule.plays_like if rule is not None else Contract(deal["contract"])
    n = len(deal["hand_sizes"])
    know = LoraKnowledge(
        seat=seat,
        contract=contract,
        hand=mask_of(CARD_BY_NAME[w] for w in deal["hand"]),
        hand_sizes=list(deal["hand_sizes"]),
        turn=deal["turn"] if deal["turn"] is not None else -1,
        forbidden=[0] * n,
        taken=[0] * n,
        trick_counts=[0] * n,
        passes=[0] * n,
        rule=rule,
        predictions=[None] * n,
        sign=-1 if table is not None and table.schedule.highest_wins else 1,
    )
    if isinstance(rule, LibyanRule):
        _read_libyan(know, view, rule)
    # cards, dalje and the kitty's cards; not ugovor, prognoza, the bets
    actions = [(s, w) for s, w in deal["actions"] if w in CARD_BY_NAME or w == DALJE or w.startswith(KITTY)]
    if contract is Contract.LORA:
        _replay_layout(know, actions)
    else:
        _replay_tricks(know, actions)
    if "predictions" in deal:
        know.predictions = list(deal["predictions"])
        wanted = know.predictions[seat]
        if wanted is not None:  # play for the tricks still wanted, then duck
            know.contract = Contract.STO_VISE if know.trick_counts[seat] < wanted else Contract.STO_MANJE
    return know


def _read_libyan(know: LoraKnowledge, view: dict[str, Any], rule: LibyanRule) -> None:
    """The kitty, the bets, the dealer and the earlier void deals of a Libyan deal."""
    deal = view["deal"]
    know.dealer = deal["dealer"]
    know.kitty_place = "kitty_size" in deal
    shown = deal.get("kitty")
    if shown is not None:
        know.kitty = mask_of(CARD_BY_NAME[w] for w in shown)
    elif deal.get("kitty_size"):
        know.kitty_hidden = deal["kitty_size"]
        know.kitty_forbidden = rule.kitty_voids
    know.bets = read_bets(deal.get("bets"))
    voids = 0
    for d in reversed(view["result"]["deals"]):
        if not d.get("void"):
            break
        voids += 1
    know.voids_before = voids % 3  # the third void of a slot moves on to the next (V10)


def read_bets(said: list[dict[str, Any]] | None) -> list[Bet]:
    """The bets of the view (``kladim ...`` words, with their kontra and rekontra)."""
    bets = []
    for seat, entry in enumerate(said or []):
        word = entry["word"]
        if word is None or word == NE_KLADIM:
            continue
        value = word.split()[1]
        target: int | bool = value == DA if not value.isdigit() else int(value)
        bets.append(Bet(seat, target, entry["kontra_by"], bool(entry["rekontra"])))
    return bets


def _replay_tricks(know: LoraKnowledge, actions: list[tuple[int, str]]) -> None:
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


def _replay_layout(know: LoraKnowledge, actions: list[tuple[int, str]]) -> None:
    next_cards = FULL_MASK
    start: int | None = None
    rows = [0, 0, 0, 0]
    for seat, word in actions:
        if word == DALJE:
            know.forbidden[seat] |= next_cards
            know.passes[seat] += 1
            continue
        if word.startswith(KITTY):  # the dealer plays for the kitty (its dalje costs nobody)
            name = word.split()[1]
            if name == DALJE:
                continue
            word = name
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
