"""Fair play of bot accounts (docs/bots.md, docs/rulings.md "Bot accounts").

- A member's bot never sits at a table where its owner sits, and one table seats at most
  one bot of an owner (the owner would play two seats); the same holds for a
  tournament's players (any two of them may meet at a table).
- The owner cannot watch a table where his bot plays until it ends
  (app/parties/visibility.py, ``owner_watching``).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Member
from app.errors import Forbidden


def check_together(s: Session, member_ids: Iterable[int | None]) -> None:
    """403 ``own_bot_at_table`` when the accounts named include a bot and its owner, or
    two bots of one owner."""
    ids = {m for m in member_ids if m is not None}
    if len(ids) < 2:
        return
    owners: dict[int, int] = {}
    for bot_id, owner_id in s.execute(
        select(Member.id, Member.bot_owner_id).where(Member.id.in_(ids), Member.bot_owner_id.is_not(None))
    ):
        if owner_id in ids:
            raise Forbidden("fair play: a member's bot never sits at a table (or in a tournament) with its owner",
                            code="own_bot_at_table")
        if owner_id in owners:
            raise Forbidden("fair play: one table (or tournament) has at most one bot of an owner",
                            code="own_bot_at_table")
        owners[owner_id] = bot_id
