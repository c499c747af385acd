"""Klub: an online card club (the games: app/games/registry.py)."""
