"""What house rules add to the views of a Lora partie (app/games/lora/partie.py; the
views themselves: :mod:`app.games.tricks.views`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.games.lora.bets import BET_POINTS, BET_UNITS
from app.games.tricks.deal import Deal
from app.games.lora.house_deals import BlindDeal, ChoosingDeal, PrognozaDeal
from app.games.lora.libijska import Bets, LibyanLayoutDeal, kitty_view

if TYPE_CHECKING:
    from app.games.lora.partie import LoraPartie


def house_schedule(partie: LoraPartie, view: dict[str, Any]) -> None:
    """The sheet's rows before they are played: each deal's dealer and contract (None: its
    first player chooses), and which way the points count; each dealt deal's slot of the
    schedule (a void deal and its successor share one) and its bets."""
    if partie.house is None:
        return
    schedule = partie.house.schedule
    view["schedule"] = [[schedule.dealer(k), schedule.fixed_contract(k)] for k in range(partie.n_deals)]
    view["highest_wins"] = schedule.highest_wins
    view["slots"] = [d.slot for d in partie.deals]
    if partie.house.bets:  # each dealt deal's bets (public as said), for the sheet
        view["bets"] = [d.bets.view() if isinstance(d, Bets) and d.bets is not None else None
                        for d in partie.deals]


def title(partie: LoraPartie, deal: Deal) -> str | None:
    assert partie.house is not None
    return None if deal.code is None else partie.house.rules[deal.code].title


def house_view(partie: LoraPartie, deal: Deal, seat: int | None, out: dict[str, Any]) -> None:
    """What house rules add: the settings, the chooser's choices, the predictions, a blind hand."""
    out["settings"] = partie.rules_settings()
    if isinstance(deal, ChoosingDeal):
        out["choosing"] = True
        out["choices"] = list(deal.choices) if seat == deal.first else []
        out["choice_titles"] = dict(deal.titles) if seat == deal.first else {}
    elif isinstance(deal, PrognozaDeal):
        out["predictions"] = list(deal.predictions)
    elif isinstance(deal, BlindDeal):
        out["blind"] = True
        if seat is not None:
            out["hand"] = []  # face down: he sees only how many are left (hand_sizes)
    if isinstance(deal, Bets) and deal.bets is not None:
        out["bets"] = deal.bets.view()
        # The prompt's unit and stakes: a true bet -stake, a false one +stake; kontra x2, rekontra x4.
        out["bet_terms"] = {"unit": BET_UNITS[deal.code], "stake": BET_POINTS,
                            "trick": deal.rule.stop_after or None}
    if deal.pile_key is not None:
        out["kitty"] = kitty_view(deal, seat)  # None while face down
        out["kitty_size"] = len(deal.pile) if not isinstance(deal, LibyanLayoutDeal) else deal.kitty.bit_count()
    if isinstance(deal, LibyanLayoutDeal) and deal.kitty_turn:
        out["kitty_turn"] = True
    if deal.void:
        out["void"] = True
