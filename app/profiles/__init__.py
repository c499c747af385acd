"""Profiles: a member's profile page's data (ratings, statistics, recent parties, head-to-head)."""
