"""Computer players for Hungarian Lórum."""
