"""Hungarian Lórum: four players, seven contracts per dealer, chips and a shared bank."""

from app.games.lorum.contracts import LorumContract, contract_of
from app.games.lorum.partie import LorumPartie

__all__ = ["LorumContract", "LorumPartie", "contract_of"]
