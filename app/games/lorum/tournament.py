"""Lórum in a tournament: Lora's rounds, boards and lines (:mod:`app.games.lora.tournament`),
counted in chips, where more is better (T4) and the highest total wins."""

from __future__ import annotations

from dataclasses import replace

from app.games.lora.tournament import LORA_TOURNAMENT
from app.games.tournament import never

LORUM_TOURNAMENT = replace(LORA_TOURNAMENT, board_higher_better=True, total_higher_better=True, turned_by=never)
