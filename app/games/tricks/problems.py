"""The trick games' problems, Lora's and Lórum's (app/games/problems.py): a card to play
(or to give to the kitty), its theme the deal's contract as the partie names it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.cards import CARD_BY_NAME
from app.games.descriptor import Text
from app.games.problems import Decision, Margin, ProblemRules, UNITS
from app.games.registry import descriptor

# Lora's values are the seat's points; Lórum's its chips: a card that loses 2 and a best
# card ahead of every other by 2 (docs/rulings.md, "Problems").
CLEAR = 2.0


def describe(engine: Any, seat: int, legal: list[str], settings: Mapping[str, Any]) -> Decision:
    view = engine.view(seat)
    d = descriptor(view["game"])
    label = (view.get("deal") or {}).get("contract")
    name = Text(d.contract_name(label, settings, "sr"), d.contract_name(label, settings, "en"))
    kitty = bool(legal) and legal[0] not in CARD_BY_NAME and legal[0].split()[-1] in CARD_BY_NAME
    if kitty:
        question = Text(f"Igrate {name.sr}: koju kartu dajete u talon?",
                        f"Playing {name.en}: which card do you give to the kitty?")
    else:
        question = Text(f"Igrate {name.sr}: koju kartu bacate?", f"Playing {name.en}: which card do you play?")
    return Decision(theme=str(label), theme_name=name, question=question)


TRICK_PROBLEMS = ProblemRules(margins={None: Margin(CLEAR, CLEAR)}, describe=describe, units=UNITS)
