"""Computer players for Hungarian Lórum."""

from __future__ import annotations

from app.ai.lorum.rules import LorumRuleBot


def make_bot(level: str, seed: int | str | None):
    return LorumRuleBot(seed)  # one rule-based player plays every level
