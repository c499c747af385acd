"""The Club's computer players by level: the one place that names them.

A level is what a proposal, a tournament's robot field and a reference account ask for
(``make_bot``); with it come the names its seats are shown with (four, one per seat
number, so that the computer players of one table are told apart; records, exports and
the API keep "AI n") and its fixed rating (app/ratings/method.py; sigma 2: a well-known
opponent, not a newcomer). ``random`` is the benchmark, never offered in the forms.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    code: str
    names: tuple[str, str, str, str]  # shown at seats 1-4
    mu: float  # the fixed rating's mean (displayed: 1580, 1740, 1860, 1980)


RANDOM = Level("random", ("Zeka", "Cile", "Buca", "Lale"), 10.0)
# In the order the forms offer them, the weakest first.
CLUB_LEVELS: tuple[Level, ...] = (
    Level("pocetnik", ("Mile", "Joca", "Raša", "Pera"), 18.0),
    Level("iskusan", ("Steva", "Bora", "Laza", "Sima"), 24.0),
    Level("majstor", ("Čeda", "Mika", "Gaga", "Đura"), 30.0),
)
EVERY_LEVEL: dict[str, Level] = {level.code: level for level in (RANDOM, *CLUB_LEVELS)}
DEFAULT_LEVEL = "majstor"  # a seat taken over on a timeout, or an unknown name
