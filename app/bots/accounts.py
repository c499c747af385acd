"""Bot accounts and their personal tokens (issue 27).

A member creates bot accounts that he owns: members rows with the role ``bot`` and
``bot_owner_id``, no usable password (a bot never logs in with one), shown everywhere
with the owner's name. A bot acts with personal tokens its owner creates and revokes:
``kbt_`` + 43 URL-safe characters (256 random bits), shown once; the row keeps the
token's SHA-256 (:func:`token_hash`), its scopes, its expiry and when it was last used.

Scopes: ``bot:play`` (the event stream, the parties' streams, words, accepting and
declining invitations, taking bot-open seats), ``bot:challenge`` (proposing a partie),
``bot:tournament`` (joining a tournament that allows bots), ``bot:read`` (its own finished
parties, score sheets, records and the bots' standings; ``bot:play`` reads them too),
``bot:chat`` (writing in its table's chat).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.exc import IntegrityError

from app.db import Database
from app.db.models import BotToken, Member
from app.errors import ClubError, Conflict, Forbidden, Invalid, NotAuthenticated, NotFound
from app.members.service import CurrentMember, check_name

SCOPES = ("bot:play", "bot:challenge", "bot:tournament", "bot:read", "bot:chat")
TOKEN_PREFIX = "kbt_"
BOT_ROLE = "bot"
# A bot account's password hash: no password verifies against it (argon2 refuses it).
NO_PASSWORD = "!bot-account"
MAX_BOTS_PER_OWNER = 5
# Paths of /api/bots that a bot's name would shadow.
RESERVED_NAMES = frozenset({"online", "muted"})
MAX_TOKENS_PER_BOT = 10
TOKEN_DAYS = (1, 365)
DEFAULT_TOKEN_DAYS = 90
LABEL_LENGTH = 40
# Write the last-used time at most this often (one write a minute, not one per word).
TOUCH_EVERY = timedelta(seconds=60)


class BotAuthError(NotAuthenticated):
    """401 with ``WWW-Authenticate: Bearer`` (RFC 6750)."""

    headers = {"WWW-Authenticate": 'Bearer realm="klub"'}


@dataclass(frozen=True)
class CurrentBot:
    """The bot account of a request's token."""

    id: int
    name: str
    owner_id: int
    owner: str
    token_id: int
    scopes: frozenset[str]

    @property
    def member(self) -> CurrentMember:
        """The account as the services of members take it (it sits at seats as a member)."""
        return CurrentMember(self.id, self.name, BOT_ROLE, f"bot-token:{self.token_id}")

    def require(self, scope: str) -> None:
        if scope not in self.scopes:
            raise Forbidden(f"this token lacks the scope {scope}", code="missing_scope", scope=scope)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _owned_bot(s, owner: CurrentMember, name: str) -> Member:
    bot = s.scalar(select(Member).where(Member.name_key == str(name).lower()))
    if bot is None or bot.bot_owner_id != owner.id:
        raise NotFound(f"you have no bot named {name!r}", code="no_such_bot")
    return bot


def _check_owner(owner: CurrentMember) -> None:
    if owner.role == BOT_ROLE:
        raise Forbidden("a bot cannot own bots", code="bots_own_no_bots")


def create_bot(db: Database, owner: CurrentMember, name: str) -> dict[str, Any]:
    """A new bot account of ``owner`` (a name as a member's: 3 to 32 letters, digits, . _ -)."""
    _check_owner(owner)
    check_name(name)
    taken = Conflict(f"the name {name!r} is taken", code="name_taken")
    if name.lower() in RESERVED_NAMES:  # /api/bots/online, /api/bots/muted
        raise taken
    with db.write() as s:
        count = s.scalar(select(func.count()).select_from(Member).where(Member.bot_owner_id == owner.id)) or 0
        if count >= MAX_BOTS_PER_OWNER:
            raise Conflict(f"a member owns at most {MAX_BOTS_PER_OWNER} bots", code="too_many_bots")
        if s.scalar(select(Member.id).where(Member.name_key == name.lower())) is not None:
            raise taken
        bot = Member(name=name, name_key=name.lower(), password_hash=NO_PASSWORD, role=BOT_ROLE,
                     bot_owner_id=owner.id, created_at=db.clock.now())
        s.add(bot)
        try:
            s.flush()
        except IntegrityError as e:
            raise taken from e
        return _bot_dict(bot, owner.name, [])


def _bot_dict(bot: Member, owner: str, tokens: list[BotToken], now: datetime | None = None) -> dict[str, Any]:
    return {
        "name": bot.name,
        "owner": owner,
        "disabled": bot.disabled,
        "created_at": bot.created_at.isoformat() if bot.created_at else None,
        "tokens": [_token_dict(t, now) for t in tokens],
    }


def _token_dict(t: BotToken, now: datetime | None = None) -> dict[str, Any]:
    return {
        "id": t.id,
        "label": t.label,
        "prefix": t.prefix,
        "scopes": list(t.scopes or []),
        "created_at": t.created_at.isoformat(),
        "expires_at": t.expires_at.isoformat(),
        "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None,
        "expired": now is not None and t.expires_at <= now,
    }


def list_bots(db: Database, owner: CurrentMember) -> list[dict[str, Any]]:
    """The owner's bots with their tokens (never the tokens themselves)."""
    now = db.clock.now()
    with db.read() as s:
        bots = s.scalars(select(Member).where(Member.bot_owner_id == owner.id).order_by(Member.name_key)).all()
        tokens: dict[int, list[BotToken]] = {}
        if bots:
            for t in s.scalars(select(BotToken).where(BotToken.bot_id.in_([b.id for b in bots])).order_by(BotToken.id)):
                tokens.setdefault(t.bot_id, []).append(t)
        return [_bot_dict(b, owner.name, tokens.get(b.id, []), now) for b in bots]


def get_bot(db: Database, owner: CurrentMember, name: str) -> dict[str, Any]:
    now = db.clock.now()
    with db.read() as s:
        bot = _owned_bot(s, owner, name)
        tokens = s.scalars(select(BotToken).where(BotToken.bot_id == bot.id).order_by(BotToken.id)).all()
        return _bot_dict(bot, owner.name, list(tokens), now)


def check_scopes(scopes: object) -> list[str]:
    if not isinstance(scopes, list) or not scopes or not all(isinstance(x, str) for x in scopes):
        raise Invalid(f"scopes is a non-empty list of {', '.join(SCOPES)}", code="invalid_scopes")
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown:
        raise Invalid(f"unknown scope {', '.join(unknown)}; the scopes are {', '.join(SCOPES)}", code="invalid_scopes")
    return [x for x in SCOPES if x in scopes]


def create_token(db: Database, owner: CurrentMember, bot_name: str, scopes: object,
                 days: object = DEFAULT_TOKEN_DAYS, label: object = "") -> dict[str, Any]:
    """A new token of the owner's bot: the token itself is in the answer, and nowhere else ever."""
    scopes = check_scopes(scopes)
    if not isinstance(days, int) or isinstance(days, bool) or not TOKEN_DAYS[0] <= days <= TOKEN_DAYS[1]:
        raise Invalid(f"a token lasts {TOKEN_DAYS[0]} to {TOKEN_DAYS[1]} days", code="invalid_token_days")
    if not isinstance(label, str) or len(label.strip()) > LABEL_LENGTH:
        raise Invalid(f"a token's label has at most {LABEL_LENGTH} characters", code="invalid_label")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    now = db.clock.now()
    with db.write() as s:
        bot = _owned_bot(s, owner, bot_name)
        count = s.scalar(select(func.count()).select_from(BotToken).where(BotToken.bot_id == bot.id)) or 0
        if count >= MAX_TOKENS_PER_BOT:
            raise Conflict(f"a bot has at most {MAX_TOKENS_PER_BOT} tokens; revoke one", code="too_many_tokens")
        row = BotToken(bot_id=bot.id, token_hash=token_hash(token), prefix=token[:10], label=label.strip(),
                       scopes=scopes, created_at=now, expires_at=now + timedelta(days=days))
        s.add(row)
        s.flush()
        return {**_token_dict(row, now), "bot": bot.name, "token": token}


def revoke_token(db: Database, owner: CurrentMember, bot_name: str, token_id: int) -> int:
    """Revoke (delete) one token of the owner's bot; returns the bot's id (its streams end)."""
    with db.write() as s:
        bot = _owned_bot(s, owner, bot_name)
        done = s.execute(delete(BotToken).where(BotToken.id == token_id, BotToken.bot_id == bot.id))
        if not done.rowcount:
            raise NotFound(f"{bot.name} has no token {token_id}", code="no_such_token")
        return bot.id


def set_bot_disabled(db: Database, owner: CurrentMember, bot_name: str, disabled: bool) -> int:
    """The owner retires his bot (its tokens stop working) or brings it back."""
    with db.write() as s:
        bot = _owned_bot(s, owner, bot_name)
        bot.disabled = disabled
        return bot.id


_TOKENS, _MEMBERS = BotToken.__table__, Member.__table__
_OWNERS = _MEMBERS.alias("owner")
# Every request of a bot reads its token, its account and its owner: one statement.
_TOKEN_OF = (
    select(_TOKENS.c.id, _TOKENS.c.scopes, _TOKENS.c.expires_at, _TOKENS.c.last_used_at,
           _MEMBERS.c.id, _MEMBERS.c.name, _MEMBERS.c.disabled, _OWNERS.c.id, _OWNERS.c.name, _OWNERS.c.disabled)
    .select_from(_TOKENS.join(_MEMBERS, _MEMBERS.c.id == _TOKENS.c.bot_id)
                 .join(_OWNERS, _OWNERS.c.id == _MEMBERS.c.bot_owner_id))
    .where(_TOKENS.c.token_hash == bindparam("hash"))
)


def authenticate(db: Database, token: str | None) -> CurrentBot:
    """The bot of a token (``Authorization: Bearer <token>``): 401 ``token_missing``,
    ``token_invalid`` (unknown or revoked) or ``token_expired``; 403 ``account_disabled``
    when the bot or its owner is disabled."""
    if not token:
        raise BotAuthError("send the bot's token: Authorization: Bearer <token>", code="token_missing")
    if not token.startswith(TOKEN_PREFIX) or len(token) > 128:
        raise BotAuthError("this token is not valid (revoked, or never made)", code="token_invalid")
    now = db.clock.now()
    with db.read() as s:
        row = s.execute(_TOKEN_OF, {"hash": token_hash(token)}).first()
    if row is None:
        raise BotAuthError("this token is not valid (revoked, or never made)", code="token_invalid")
    token_id, scopes, expires_at, last_used_at, bot_id, name, disabled, owner_id, owner, owner_disabled = row
    if now >= expires_at:
        raise BotAuthError("this token has expired; its owner makes a new one", code="token_expired")
    if disabled or owner_disabled:
        raise ClubError("this bot account is disabled", code="account_disabled", status=403)
    if last_used_at is None or now - last_used_at > TOUCH_EVERY:
        with db.write() as s:
            t = s.get(BotToken, token_id)
            if t is not None:
                t.last_used_at = now
            m = s.get(Member, bot_id)
            if m is not None:
                m.last_seen_at = now
    return CurrentBot(bot_id, name, owner_id, owner, token_id, frozenset(scopes or ()))


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header (None without one)."""
    if not authorization:
        return None
    scheme, _, value = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def owner_of(db: Database, bot_ids: list[int]) -> dict[int, int]:
    """The owners of bot accounts (bot id -> owner id); members that are no bots are left out."""
    ids = [i for i in bot_ids if i is not None]
    if not ids:
        return {}
    with db.read() as s:
        return dict(s.execute(select(Member.id, Member.bot_owner_id)
                              .where(Member.id.in_(ids), Member.bot_owner_id.is_not(None))).all())
