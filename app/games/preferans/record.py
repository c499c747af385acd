"""A preferans partie's result, its record and an ended hand's whole deal
(app/games/preferans/partie.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.games.base import GameError
from app.games.cards import CARD_BY_NAME
from app.games.preferans.settings import record_settings

if TYPE_CHECKING:
    from app.games.preferans.partie import PreferansPartie

FORMAT = "klub-record/1"


def result_of(partie: PreferansPartie) -> dict[str, Any]:
    p = partie._papir
    return {
        "bule": list(p.bule),
        "supe": [list(row) for row in p.supe],
        "refe": {"open": [p.refe_open(s) for s in range(3)], "played": list(p.refe_played)},
        "results": p.results(),
        "places": p.places(),
        "finished": partie.finished,
        "ended_by": partie.ended_by,
    }


def record_of(partie: PreferansPartie, players: list[str]) -> dict[str, Any]:
    deals = partie.deals
    if deals and partie.finished and partie.hand is not None and not partie.hand.over and not deals[-1]["actions"]:
        deals = deals[:-1]  # dealt ahead by the seed, never played: the partie ended before it
    return {
        "format": FORMAT,
        "game": partie.game,
        "players": list(players),
        "settings": record_settings(partie.settings),
        "deals": [
            {"hands": [list(h) for h in d["hands"]], "talon": list(d["talon"]),
             "actions": [list(a) for a in d["actions"]]}
            for d in deals
        ],
        "result": partie.result(),
    }


def shown_deal_of(partie: PreferansPartie, deal_index: int) -> dict[str, Any]:
    """The whole deal of an ended hand (three hands, talon, škart): public (section 4)."""
    if not isinstance(deal_index, int) or not 0 <= deal_index < partie.hands_ended:
        raise GameError(f"deal {deal_index!r} has not ended (hands ended: {partie.hands_ended})")
    deal = partie.deals[deal_index]
    skart = next((w.split()[1:] for _, w in deal["actions"] if w.startswith("skart ")), [])
    order = CARD_BY_NAME.__getitem__
    return {
        "deal_index": deal_index,
        "hands": [sorted(h, key=order) for h in deal["hands"]],
        "talon": sorted(deal["talon"], key=order),
        "skart": sorted(skart, key=order),
    }
