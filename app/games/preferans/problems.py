"""Preferans' problems (app/games/problems.py): the cards, as the declarer or in defence,
and the words the analysis values in points (the bids, the škart, the contract, following
and kontra)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.cards import CARD_BY_NAME
from app.games.descriptor import Text
from app.games.problems import UNITS, Decision, Margin, ProblemRules

# Cards: a trick lost and a best card a whole trick ahead; words: 4 points of the result
# (two units of the cheapest contract's value) lost, and ahead (docs/rulings.md, "Problems").
MARGINS = {None: Margin(1.0, 1.0), "points": Margin(4.0, 4.0)}

THEMES = {
    "igra": Text("Igra nosioca", "Declarer play"),
    "odbrana": Text("Odbrana", "Defence"),
    "licitacija": Text("Licitacija", "Bidding"),
    "skart": Text("Škart", "Discard"),
    "kontrakt": Text("Izbor igre", "Contract choice"),
    "pracenje": Text("Praćenje i kontra", "Following and kontra"),
}
QUESTIONS = {
    "licitacija": Text("Licitacija: šta kažete?", "The auction: what do you bid?"),
    "skart": Text("Koje dve karte škartirate?", "Which two cards do you discard?"),
    "kontrakt": Text("Koju igru zovete?", "Which contract do you announce?"),
    "pracenje": Text("Šta kažete: pratite li, kontra?", "What do you say: do you follow, kontra?"),
}


def describe(engine: Any, seat: int, legal: list[str], settings: Mapping[str, Any]) -> Decision:
    h = engine.view(seat).get("hand") or {}
    if any(w in CARD_BY_NAME for w in legal):
        contract = (h.get("contract") or {}).get("name") or ""
        theme = "igra" if h.get("declarer") == seat else "odbrana"
        question = (Text(f"Igrate {contract}: koju kartu igrate?", f"You play {contract}: which card do you play?")
                    if theme == "igra" else
                    Text(f"Branite se protiv igre {contract}: koju kartu igrate?",
                         f"You defend against {contract}: which card do you play?"))
        return Decision(theme, THEMES[theme], question)
    theme = {"licitacija": "licitacija", "talon": "skart", "kontrakt": "kontrakt"}.get(h.get("phase"), "pracenje")
    return Decision(theme, THEMES[theme], QUESTIONS[theme])


PREFERANS_PROBLEMS = ProblemRules(margins=MARGINS, describe=describe, units=UNITS)
