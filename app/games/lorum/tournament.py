"""Lórum in a tournament: the trick games' rounds, boards and lines (:mod:`app.games.tricks.tournament`),
counted in chips, where more is better (T4) and the highest total wins."""

from __future__ import annotations

from dataclasses import replace

from app.games.tricks.tournament import TRICK_TOURNAMENT
from app.games.tournament import never

LORUM_TOURNAMENT = replace(TRICK_TOURNAMENT, board_higher_better=True, total_higher_better=True, turned_by=never)
