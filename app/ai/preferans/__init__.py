"""Computer players for preferans: hand evaluation for the auction, PIMC for the play."""
