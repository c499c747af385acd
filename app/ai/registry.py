"""Which class plays which level of which game."""

from __future__ import annotations

from app.ai import Bot, RandomBot


def build_bot(name: str, game: str, seed: int | str | None) -> Bot:
    if name == "random":
        return RandomBot(seed)
    if game == "lora":
        from app.ai.lora.bots import ISKUSAN, MAJSTOR, LoraRuleBot, LoraSearchBot

        if name == "pocetnik":
            return LoraRuleBot(seed)
        return LoraSearchBot(ISKUSAN if name == "iskusan" else MAJSTOR, seed)
    if game == "preferans":
        try:
            from app.ai.preferans.bots import make_preferans_bot
        except ImportError:  # the preferans players are not there yet
            return RandomBot(seed)
        return make_preferans_bot(name, seed)
    if game == "lorum":
        from app.ai.lorum.rules import LorumRuleBot

        return LorumRuleBot(seed)  # one rule-based level for now, whatever the name
    raise ValueError(f"no computer player for game {game!r}")
