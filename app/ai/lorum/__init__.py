"""Computer players for Hungarian Lórum: ``pocetnik`` by rules, ``iskusan`` and ``majstor``
by PIMC over open-cards search (``bots.py``)."""

from __future__ import annotations

from app.ai.lorum.bots import ISKUSAN, MAJSTOR, LorumSearchBot
from app.ai.lorum.rules import LorumRuleBot

SEARCH_LEVELS = {"iskusan": ISKUSAN, "majstor": MAJSTOR}


def make_bot(level: str, seed: int | str | None):
    if level in SEARCH_LEVELS:
        return LorumSearchBot(SEARCH_LEVELS[level], seed)
    return LorumRuleBot(seed)
