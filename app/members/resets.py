"""Password reset links: an admin makes one for a member who forgot his password.

The link carries a random token (256 bits); the database keeps only its SHA-256, so a
leak of the database is no leak of the links. A link is valid for
:data:`VALID_FOR` and once: setting the new password uses it up, and ends every session
of the member. A new link for a member replaces his earlier unused ones.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from app.db import Database
from app.db.database import for_update
from app.db.models import Member, PasswordReset
from app.errors import ClubError, Forbidden, NotFound
from app.members import passwords
from app.members.service import CurrentMember, _check_password, end_all_sessions

VALID_FOR = timedelta(hours=24)
PATH = "/reset/"  # the page of a link: PATH + token


def token_id(token: str) -> str:
    return hashlib.sha256(str(token).encode()).hexdigest()


def create_link(db: Database, admin: CurrentMember, name: str) -> dict:
    """Admin: a one-time link for member ``name``; returns its path, the member and when it expires."""
    if not admin.is_admin:
        raise Forbidden("only an admin may do that", code="admin_only")
    token = secrets.token_urlsafe(32)
    now = db.clock.now()
    with db.write() as s:
        member = s.scalar(select(Member).where(Member.name_key == str(name).strip().lower()))
        if member is None:
            raise NotFound(f"no member named {name!r}", code="no_such_member")
        s.execute(delete(PasswordReset).where(PasswordReset.member_id == member.id, PasswordReset.used_at.is_(None)))
        s.add(PasswordReset(id=token_id(token), member_id=member.id, created_by=admin.id, created_at=now,
                            expires_at=now + VALID_FOR))
        member_name = member.name
    return {"member": member_name, "path": PATH + token, "expires_at": (now + VALID_FOR).isoformat()}


def _usable(row: PasswordReset | None, now: datetime) -> PasswordReset:
    if row is None or row.used_at is not None:
        raise NotFound("this password reset link is not valid, or it was used already", code="invalid_reset_link")
    if now >= row.expires_at:
        raise ClubError("this password reset link has expired; ask an admin for a new one",
                        code="reset_link_expired", status=410)
    return row


def link_member(db: Database, token: str) -> str:
    """The name of the member a usable link is for (404 ``invalid_reset_link``, 410 ``reset_link_expired``)."""
    with db.read() as s:
        return _usable(s.get(PasswordReset, token_id(token)), db.clock.now()).member.name


def use_link(db: Database, token: str, new_password: str) -> tuple[str, list[str]]:
    """Set the member's new password with a link and use the link up; every session of
    the member ends. Returns his name and the ended session ids."""
    _check_password(new_password)
    new_hash = passwords.hash_password(new_password)
    with db.write() as s:
        # locked: two uses of one link at once, only one passes
        found = s.scalar(for_update(select(PasswordReset).where(PasswordReset.id == token_id(token)), db,
                                    of=PasswordReset))
        now = db.clock.now()
        row = _usable(found, now)
        row.used_at = now
        member = s.get(Member, row.member_id)
        member.password_hash = new_hash
        member_id, name = member.id, member.name
    return name, end_all_sessions(db, member_id)
