"""Random legal play, for ``random-partie``, the property tests and the benchmarks."""

from __future__ import annotations

import random
from typing import Any

from app.games.registry import engine_class

# Words a game never waits for (preferans: otpis, a ponuda, a fall takeover) are said in
# this share of the turns where they are legal; uniformly random play would otherwise end
# nearly every preferans partie by an early otpis.
OPTIONAL_WORD_SHARE = 0.05


def random_partie(game: str, seed: int, settings: dict[str, Any] | None = None, max_actions: int = 1_000_000):
    """A whole partie of uniformly random legal words, dealt from ``seed``.

    Stops at the end of the partie, or unfinished after ``max_actions`` words.
    """
    cls = engine_class(game)
    partie = cls.new(settings or {}, seed=seed)
    optional = cls.optional_words
    uniform = random.Random(seed).random
    for _ in range(max_actions):
        if partie.finished:
            break
        seats = partie.seats_to_act()
        if not seats:
            break
        seat = seats[0] if len(seats) == 1 else seats[int(uniform() * len(seats))]
        words = partie.legal_actions(seat)
        if optional and uniform() >= OPTIONAL_WORD_SHARE:
            words = [w for w in words if w not in optional] or words
        partie.apply(seat, words[0] if len(words) == 1 else words[int(uniform() * len(words))])
    return partie
