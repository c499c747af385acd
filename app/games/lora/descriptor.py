"""Lora as the rest of the Club sees it (:mod:`app.games.descriptor`)."""

from __future__ import annotations

from app.games.descriptor import GameDescriptor, Text, hands_in_views, public_part, rules_pages, texts
from app.games.lora.partie import LoraPartie

# The public part of a Lora-table deal the replay shows after each step.
REPLAY_KEYS = ("index", "contract", "contract_title", "dealer", "first", "turn", "ended", "points", "trick",
               "trick_counts", "penalty_cards", "rows", "start_rank")


DESCRIPTOR = GameDescriptor(
    code="lora", engine=LoraPartie, script="lora.js", rules=rules_pages("lora"),
    name=Text("Lora", "Lora"),
    tagline=Text("4 igrača, 28 deljenja", "4 players, 28 deals"),
    rules_title=Text("Pravila lore", "Rules of Lora"),
    contracts=texts(
        ("Što više", "Most tricks"), ("Što manje", "Fewest tricks"), ("Dame", "Queens"), ("Herc", "Hearts"),
        ("Žandar tref", "Jack of clubs"), ("K herc i 8. štih", "King of hearts and the last trick"), ("Lora", "Lora"),
    ),
    quick_start=Text("Lora protiv tri računara", "Lora against three computer players"), quick_suits="♠♥",
    replay_table=public_part("deal", REPLAY_KEYS), replay_hands=hands_in_views("deal", "hand"),
)
