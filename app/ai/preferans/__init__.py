"""Computer players for preferans: hand evaluation for the auction, PIMC for the play."""

from __future__ import annotations

from app.ai.preferans.bots import make_preferans_bot as make_bot

__all__ = ["make_bot"]
