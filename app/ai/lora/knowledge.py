"""What one seat knows in a Lora deal, read from its view alone (the trick games' reading,
:mod:`app.ai.tricks.knowledge`, with the house rules' contract). Libyan Lora adds
three-seat tables, the kitty (face down, or face up in the three-seat layout, where the
dealer plays its cards with ``kitty <card>``) and the bets said before the first card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.games.cards import CARD_BY_NAME, mask_of
from app.games.lora.bets import DA, NE_KLADIM, Bet
from app.games.tricks.contracts import Contract
from app.games.tricks.deal import DALJE
from app.games.lora.house import HouseTable
from app.games.lora.libijska import KITTY, LibyanRule

from app.ai.tricks.knowledge import TrickKnowledge, replay_layout, replay_tricks

RANK_BY_LETTER = {letter: i for i, letter in enumerate("789TJQKA")}


@dataclass
class LoraKnowledge(TrickKnowledge):
    """What Libyan Lora adds: whether the kitty is dealt (a three-seat table: it plays in
    the layout), the bets said, the dealer, and the void deals of this slot before it;
    the kitty's cards a face-down kitty cannot hold would have voided the deal (V15)."""

    kitty_place: bool = False
    bets: list[Bet] = field(default_factory=list)
    dealer: int = -1
    voids_before: int = 0

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
        replay_layout(know, list(kitty_plays(actions)))
    else:
        replay_tricks(know, actions)
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


def kitty_plays(actions: list[tuple[int, str]]):
    """The layout's actions with the kitty's cards as plays: the dealer plays for the kitty
    with ``kitty <card>``, and its ``kitty dalje`` costs nobody."""
    for seat, word in actions:
        if word.startswith(KITTY):
            name = word.split()[1]
            if name != DALJE:
                yield seat, name
        else:
            yield seat, word
