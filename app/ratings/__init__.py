"""Ratings per game (Weng-Lin / OpenSkill), their history and the standings.

``method`` is the rating math, ``ledger`` what one finished partie does to the ratings,
``service`` the database side (live updates, rebuild, a member's ratings and history),
``standings`` the standings page's data. ``docs/ratings.md`` explains the choices.
"""
