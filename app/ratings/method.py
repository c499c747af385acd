"""The rating method, with no database: Weng-Lin's Plackett-Luce model (OpenSkill).

Each seat of a partie is a team of one; the partie's places (1-based, shared places
allowed) are the ranks. A computer player is an opponent of a fixed, known strength per
level: it takes part in the update of the members at its table, but its own rating
never changes. The parameters and the reasons for them are in ``docs/ratings.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from app.ai.levels import DEFAULT_LEVEL, EVERY_LEVEL

# OpenSkill's defaults (Weng & Lin 2011, as TrueSkill's): the prior of a new member, the
# performance spread beta, the additive dynamics tau and the variance floor kappa.
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA)

# The displayed rating: a conservative ordinal (mu - 3 sigma: 99.7% sure the skill is at
# least this), scaled so that a new member shows 1500 (25 - 3 * 25/3 = 0).
DISPLAY_BASE = 1500
DISPLAY_SCALE = 20
ORDINAL_Z = 3.0

# Provisional: fewer rated parties than this, or a sigma still above this.
PROVISIONAL_PARTIES = 10
PROVISIONAL_SIGMA = 7.0


@dataclass(frozen=True)
class Skill:
    """A Weng-Lin rating: the skill's mean and standard deviation."""

    mu: float
    sigma: float


NEW_MEMBER = Skill(MU, SIGMA)

# The computer players' fixed ratings per level (app/ai/levels.py); sigma 2: a well-known
# opponent, not a newcomer.
BOT_SKILLS: dict[str, Skill] = {code: Skill(level.mu, 2.0) for code, level in EVERY_LEVEL.items()}
# A seat whose level is unknown is played at the default level.
DEFAULT_BOT = DEFAULT_LEVEL


def bot_skill(level: str | None) -> Skill:
    """The fixed rating of a computer player of ``level``."""
    return BOT_SKILLS.get(level or "", BOT_SKILLS[DEFAULT_BOT])


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """The new skill of every seat after a partie with these places (lower is better,
    equal places share); the caller keeps the bots' old ones."""
    if len(skills) != len(places) or len(skills) < 2:
        raise ValueError("a partie rates two or more seats, each with its place")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def ordinal(skill: Skill) -> float:
    """The conservative estimate the standings order by: mu - 3 sigma."""
    return skill.mu - ORDINAL_Z * skill.sigma


def displayed(skill: Skill) -> int:
    """The rating as the Club shows it: 1500 + 20 (mu - 3 sigma), rounded."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal(skill))


def provisional(skill: Skill, parties: int) -> bool:
    """Whether a rating is still provisional (too few parties, or still too uncertain)."""
    return parties < PROVISIONAL_PARTIES or skill.sigma > PROVISIONAL_SIGMA
