"""Serbian preferans, by the Club's rules and rulings P1-P11."""

from app.games.preferans.partie import PreferansPartie

__all__ = ["PreferansPartie"]
