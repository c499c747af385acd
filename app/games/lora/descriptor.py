"""Lora as the rest of the Club sees it (:mod:`app.games.descriptor`)."""

from __future__ import annotations

from typing import Any

from app.games.descriptor import GameDescriptor, Text
from app.games.lora.partie import LoraPartie

# The public part of a Lora-table deal the replay shows after each step.
REPLAY_KEYS = ("index", "contract", "contract_title", "dealer", "first", "turn", "ended", "points", "trick",
               "trick_counts", "penalty_cards", "rows", "start_rank")


def deal_table(keys: tuple[str, ...]):
    def table(engine: Any) -> dict[str, Any]:
        deal = engine.view(None).get("deal") or {}
        return {k: deal.get(k) for k in keys}

    return table


def deal_hands(engine: Any) -> list[list[str]]:
    return [list((engine.view(s).get("deal") or {}).get("hand") or []) for s in range(engine.n_seats)]


DESCRIPTOR = GameDescriptor(
    code="lora",
    name=Text("Lora", "Lora"),
    tagline=Text("4 igrača, 28 deljenja", "4 players, 28 deals"),
    rules_title=Text("Pravila lore", "Rules of Lora"),
    engine=LoraPartie,
    contracts=(
        Text("Što više", "Most tricks"),
        Text("Što manje", "Fewest tricks"),
        Text("Dame", "Queens"),
        Text("Herc", "Hearts"),
        Text("Žandar tref", "Jack of clubs"),
        Text("K herc i 8. štih", "King of hearts and the last trick"),
        Text("Lora", "Lora"),
    ),
    script="lora.js",
    rules={"sr-Latn": "rules/lora.sr.html", "en": "rules/lora.en.html"},
    quick_start=Text("Lora protiv tri računara", "Lora against three computer players"),
    quick_suits="♠♥",
    replay_table=deal_table(REPLAY_KEYS),
    replay_hands=deal_hands,
)
