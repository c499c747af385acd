"""Pure rules engines, one package per game (no I/O, no framework imports)."""
