"""Pieces the computer players of several games share: tricks, the bounded open-cards
search, dealing the unseen cards, and the rule-based card player's frame."""
