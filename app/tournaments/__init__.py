"""Tournaments (turniri, issue 25; rulings T1-T9): rounds of tables with the same deals."""
