"""Member accounts and login sessions."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.exc import IntegrityError

from app.config import Settings
from app.db import Database
from app.db.models import LoginSession, Member
from app.errors import ClubError, Conflict, Forbidden, Invalid, NotAuthenticated, NotFound
from app.members import passwords, throttle

# The whole name (fullmatch: "$" alone would let a trailing newline through).
NAME_PATTERN = re.compile(r"[\w.-]{3,32}")
# Refresh a session's idle clock at most this often (one write per minute, not per request).
TOUCH_EVERY = timedelta(seconds=60)


@dataclass(frozen=True)
class CurrentMember:
    id: int
    name: str
    role: str
    session_id: str

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


def session_id_of(token: str) -> str:
    """The stored id of a cookie token: its SHA-256, so a database leak is no session leak."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> str:
    """A member's name, or :class:`Invalid`: the rule of registration (also for the names of
    an imported record, ``app/parties/archive.py``)."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise Invalid("a name has 3 to 32 letters, digits, '.', '_' or '-'", code="invalid_name")
    return name


def _check_password(password: str) -> str:
    if not isinstance(password, str) or not passwords.MIN_LENGTH <= len(password) <= passwords.MAX_LENGTH:
        raise Invalid(
            f"a password has {passwords.MIN_LENGTH} to {passwords.MAX_LENGTH} characters", code="invalid_password"
        )
    if passwords.is_common(password):
        raise Invalid("this password is too common; choose another", code="common_password")
    return password


def register(db: Database, name: str, password: str, role: str = "member") -> Member:
    check_name(name)
    _check_password(password)
    password_hash = passwords.hash_password(password)
    taken = Conflict(f"the name {name!r} is taken", code="name_taken")
    with db.write() as s:
        if s.scalar(select(Member.id).where(Member.name_key == name.lower())) is not None:
            raise taken
        member = Member(name=name, name_key=name.lower(), password_hash=password_hash, role=role)
        s.add(member)
        try:
            s.flush()
        except IntegrityError as e:
            # PostgreSQL: a simultaneous registration of the name committed after our check
            # (the unique key decides; SQLite's BEGIN IMMEDIATE already serialises the two).
            raise taken from e
        return member


def find_member(db: Database, name: str) -> Member:
    with db.read() as s:
        member = s.scalar(select(Member).where(Member.name_key == str(name).lower()))
    if member is None:
        raise NotFound(f"no member named {name!r}", code="no_such_member")
    return member


def count_members(db: Database) -> int:
    with db.read() as s:
        return s.scalar(select(func.count(Member.id))) or 0


def login(
    db: Database, settings: Settings, name: str, password: str, address: str | None = None
) -> tuple[str, CurrentMember]:
    """Check the password and open a new session; returns the cookie token.

    An unknown name and a wrong password get the same answer (and cost the same time);
    too many failures for the account or the address: :class:`throttle.TooManyAttempts`.
    """
    bad = ClubError("wrong name or password", code="bad_credentials", status=401)
    keys = throttle.keys_for(name, address)
    throttle.check(db, settings, keys)
    with db.read() as s:
        member = s.scalar(select(Member).where(Member.name_key == str(name).lower()))
    if member is None or member.bot_owner_id is not None:
        # A bot account has no password: it acts with its owner's tokens (app/bots/).
        passwords.spend_verify_time(str(password))
        throttle.record_failure(db, settings, keys)
        raise bad
    if not passwords.verify_password(member.password_hash, str(password)):
        throttle.record_failure(db, settings, keys)
        raise bad
    throttle.clear(db, keys[0])
    if member.disabled:
        raise Forbidden("this account is disabled", code="account_disabled")
    return open_session(db, settings, member, password=str(password))


def open_session(db: Database, settings: Settings, member: Member, password: str | None = None) -> tuple[str, CurrentMember]:
    """A new session of ``member`` (whose password was just checked or set); the cookie token.
    With ``password``, a hash made with older costs is remade with the current ones."""
    token = secrets.token_urlsafe(32)
    now = db.clock.now()
    with db.write() as s:
        s.add(
            LoginSession(
                id=session_id_of(token),
                member_id=member.id,
                created_at=now,
                last_seen_at=now,
                expires_at=now + timedelta(days=settings.session_max_days),
            )
        )
        row = s.get(Member, member.id)
        row.last_seen_at = now
        if password is not None and passwords.needs_rehash(row.password_hash):
            row.password_hash = passwords.hash_password(password)
    return token, CurrentMember(member.id, member.name, member.role, session_id_of(token))


_SESSIONS, _MEMBERS = LoginSession.__table__, Member.__table__
# Every request of a member reads its session and member: one Core statement, built once
# (the ORM's get of the session with its member cost twice as much).
_SESSION_OF = (
    select(_SESSIONS.c.expires_at, _SESSIONS.c.last_seen_at,
           _MEMBERS.c.id, _MEMBERS.c.name, _MEMBERS.c.role, _MEMBERS.c.disabled)
    .select_from(_SESSIONS.join(_MEMBERS, _MEMBERS.c.id == _SESSIONS.c.member_id))
    .where(_SESSIONS.c.id == bindparam("sid"))
)


def authenticate(db: Database, settings: Settings, token: str | None) -> CurrentMember:
    """The member of a session cookie, or :class:`NotAuthenticated`."""
    if not token:
        raise NotAuthenticated("log in first")
    sid = session_id_of(token)
    now = db.clock.now()
    with db.read() as s:
        row = s.execute(_SESSION_OF, {"sid": sid}).first()
    if row is None:
        raise NotAuthenticated("your session has ended; log in again", code="session_ended")
    expires_at, last_seen_at, member_id, name, role, disabled = row
    expired = now >= expires_at or now - last_seen_at > timedelta(hours=settings.session_idle_hours)
    if expired or disabled:
        end_session(db, sid)
        raise NotAuthenticated("your session has ended; log in again", code="session_ended")
    if now - last_seen_at > TOUCH_EVERY:
        with db.write() as s:
            row = s.get(LoginSession, sid)
            if row is not None:
                row.last_seen_at = now
                s.get(Member, member_id).last_seen_at = now
    return CurrentMember(member_id, name, role, sid)


def touch_member(db: Database, member_id: int) -> None:
    with db.write() as s:
        member = s.get(Member, member_id)
        if member is not None:
            member.last_seen_at = db.clock.now()


def end_session(db: Database, session_id: str) -> None:
    with db.write() as s:
        s.execute(delete(LoginSession).where(LoginSession.id == session_id))


def end_all_sessions(db: Database, member_id: int, except_session: str | None = None) -> list[str]:
    """End every session of a member (but one); returns the ended session ids."""
    with db.write() as s:
        ids = [
            sid
            for sid in s.scalars(select(LoginSession.id).where(LoginSession.member_id == member_id))
            if sid != except_session
        ]
        if ids:
            s.execute(delete(LoginSession).where(LoginSession.id.in_(ids)))
    return ids


def change_password(
    db: Database, member: CurrentMember, old: str, new: str, settings: Settings | None = None
) -> list[str]:
    """Set a new password; every other session of the member ends (their ids are returned).

    With ``settings``, wrong current passwords count as failed logins of the account.
    """
    _check_password(new)
    keys = throttle.keys_for(member.name, None)
    if settings is not None:
        throttle.check(db, settings, keys)
    with db.read() as s:
        current_hash = s.get(Member, member.id).password_hash
    if not passwords.verify_password(current_hash, str(old)):
        if settings is not None:
            throttle.record_failure(db, settings, keys)
        raise ClubError("the current password is wrong", code="bad_credentials", status=403)
    new_hash = passwords.hash_password(new)
    with db.write() as s:
        s.get(Member, member.id).password_hash = new_hash
    return end_all_sessions(db, member.id, except_session=member.session_id)


def set_disabled(db: Database, admin: CurrentMember, name: str, disabled: bool) -> list[str]:
    """Admin: disable (or enable) a member; a disabled member's sessions end at once."""
    if not admin.is_admin:
        raise Forbidden("only an admin may do that", code="admin_only")
    with db.write() as s:
        member = s.scalar(select(Member).where(Member.name_key == str(name).lower()))
        if member is None:
            raise NotFound(f"no member named {name!r}", code="no_such_member")
        if member.id == admin.id:
            raise Conflict("an admin cannot disable himself", code="cannot_disable_self")
        member.disabled = disabled
        member_id = member.id
    return end_all_sessions(db, member_id) if disabled else []


def list_members(db: Database, settings: Settings) -> list[dict]:
    cutoff = db.clock.now() - timedelta(seconds=settings.online_window_seconds)
    with db.read() as s:
        members = s.scalars(select(Member).order_by(Member.name_key)).all()
    return [
        {
            "name": m.name,
            "role": m.role,
            "bot_owner": m.bot_owner_name,  # a bot account: its owner (app/bots/)
            "disabled": m.disabled,
            "online": bool(m.last_seen_at and m.last_seen_at >= cutoff and not m.disabled),
        }
        for m in members
    ]


def ensure_admin(db: Database, name: str, password: str | None = None) -> tuple[Member, str | None]:
    """Create admin ``name`` (password generated unless given), or promote an existing member."""
    with db.write() as s:
        member = s.scalar(select(Member).where(Member.name_key == name.lower()))
        if member is not None:
            if member.bot_owner_id is not None:
                raise Conflict(f"{member.name} is a bot account", code="is_a_bot")
            member.role = "admin"
            return member, None
    password = password or passwords.generate_password()
    try:
        return register(db, name, password, role="admin"), password
    except Conflict:  # registered meanwhile (another instance's first start): promote that member
        return ensure_admin(db, name)



def delete_expired_sessions(db: Database, settings: Settings) -> int:
    now = db.clock.now()
    idle_cutoff = now - timedelta(hours=settings.session_idle_hours)
    with db.write() as s:
        result = s.execute(
            delete(LoginSession).where((LoginSession.expires_at <= now) | (LoginSession.last_seen_at < idle_cutoff))
        )
        return result.rowcount or 0


def create_account(db: Database, settings: Settings, name: str, password: str, address: str | None) -> tuple[str, CurrentMember]:
    """Register, throttled per client address (``KLUB_REGISTER_MAX_PER_ADDRESS``), and log
    in: the new member's first session (the password just hashed is not checked again)."""
    with throttle.registration_slot(db, settings, address):
        member = register(db, name, password)
    return open_session(db, settings, member)
