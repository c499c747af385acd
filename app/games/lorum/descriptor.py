"""Lórum as the rest of the Club sees it (:mod:`app.games.descriptor`)."""

from __future__ import annotations

from app.games.descriptor import GameDescriptor, Text
from app.games.lora.descriptor import REPLAY_KEYS, deal_hands, deal_table
from app.games.lorum.partie import LorumPartie

# The bank, Kvart's chains, the Fast train and Domino's passes besides Lora's table.
LORUM_REPLAY_KEYS = (*REPLAY_KEYS, "bank", "chain", "chains", "next_card", "train", "next_rank", "passes")

DESCRIPTOR = GameDescriptor(
    code="lorum",
    name=Text("Lórum", "Lórum"),
    tagline=Text("4 igrača, 28 deljenja, žetoni i banka", "4 players, 28 deals, chips and a bank"),
    rules_title=Text("Pravila Loruma", "Rules of Lórum"),
    engine=LorumPartie,
    contracts=(
        Text("Herc", "Hearts"),
        Text("Dame", "Queens"),
        Text("Bez štihova", "No tricks"),
        Text("Kvart", "Kvart"),
        Text("Brzi voz", "Fast train"),
        Text("Čupavi majmun", "Hairy monkey"),
        Text("Domino", "Domino"),
    ),
    script="lora.js",
    rules={"sr-Latn": "rules/lorum.sr.html", "en": "rules/lorum.en.html"},
    replay_table=deal_table(LORUM_REPLAY_KEYS),
    replay_hands=deal_hands,
)
