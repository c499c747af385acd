"""Leagues (liga): seasons of weekly evenings run by the calendar (issue 40)."""
