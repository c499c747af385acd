"""The Club's own computer players as entrants of a tournament: the references of the
bot ladder (app/bots/ladder.py).

A reference is an account of the role ``computer`` named ``klub-<level>``, with no
password and no owner. A tournament registers it as any player; its seat at a round's
table is a computer seat of its level that keeps the account (``kind="bot"``,
``member_id`` set), so the Club's computer player plays it (app/bots/runner.py), the
tournament scores it as a player, and the ratings count it as the computer player it is
(a fixed rating, never stored, docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.ai import LEVELS
from app.db import Database
from app.db.models import Member

ROLE = "computer"
NO_PASSWORD = "!computer-account"


def name_of(level: str) -> str:
    return f"klub-{level}"


def ensure(db: Database) -> dict[str, int]:
    """The reference accounts (made on first use): level -> member id. A name a member
    took already is left to him, and that level has no reference."""
    out: dict[str, int] = {}
    with db.write() as s:
        for level in LEVELS:
            name = name_of(level)
            row = s.scalar(select(Member).where(Member.name_key == name))
            if row is None:
                row = Member(name=name, name_key=name, password_hash=NO_PASSWORD, role=ROLE, created_at=db.clock.now())
                s.add(row)
                s.flush()
            if row.role == ROLE:
                out[level] = row.id
    return out


def levels_of(s: Session, member_ids: Iterable[int | None]) -> dict[int, str]:
    """The references among ``member_ids``: id -> level."""
    ids = [m for m in member_ids if m is not None]
    if not ids:
        return {}
    rows = s.execute(select(Member.id, Member.name).where(Member.id.in_(ids), Member.role == ROLE))
    return {member_id: name.removeprefix("klub-") for member_id, name in rows if name.removeprefix("klub-") in LEVELS}
