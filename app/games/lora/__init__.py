"""The Club's Lora: four players, seven contracts in a fixed order, 28 deals."""

from app.games.tricks.contracts import Contract, contract_of, dealer_of, first_player_of
from app.games.lora.partie import LoraPartie

__all__ = ["Contract", "LoraPartie", "contract_of", "dealer_of", "first_player_of"]
