"""Computer players for Lora: rules (pocetnik) and sampling + open-cards search (iskusan, majstor)."""

from __future__ import annotations

from app.ai.lora.bots import ISKUSAN, MAJSTOR, LoraRuleBot, LoraSearchBot


def make_bot(level: str, seed: int | str | None):
    if level == "pocetnik":
        return LoraRuleBot(seed)
    return LoraSearchBot(ISKUSAN if level == "iskusan" else MAJSTOR, seed)
