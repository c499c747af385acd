"""What Lora's and Lórum's descriptors share: the table (static/js/lora.js), its texts and
timings, the score sheet's script, the analysis, the problems and the replay's hands."""

from __future__ import annotations

from typing import Any

from app.games.cards import names_of
from app.games.descriptor import GameDescriptor
from app.games.tricks.problems import TRICK_PROBLEMS
from app.games.tricks.texts import TEXTS

# The public part of a trick game's deal the replay shows after each step.
REPLAY_KEYS = ("index", "contract", "contract_title", "dealer", "first", "turn", "ended", "points", "trick",
               "trick_counts", "penalty_cards", "rows", "start_rank", "predictions", "blind", "choosing",
               "bets", "kitty", "kitty_size", "kitty_turn", "void", "slot")


def hands_face_up(engine: Any) -> list[list[str]]:
    """Every hand of the deal in play, face up (the replay; a blind hand's view has none)."""
    deal = engine.deal
    return [names_of(hand) for hand in deal.hands] if deal is not None else [[] for _ in range(engine.n_seats)]


def trick_game(**fields: Any) -> GameDescriptor:
    """A trick game's descriptor: the shared table with the game's own ``fields``."""
    return GameDescriptor(**{
        "script": "lora.js", "sheet": "games/lora-sheet.js", "analysis": True, "problems": TRICK_PROBLEMS,
        "replay_hands": hands_face_up, "texts": TEXTS,
        "timings": {"dalje_delay": 700},  # the pause before a seat with no card to play says dalje by itself
        **fields,
    })
