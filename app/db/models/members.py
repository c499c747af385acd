"""The members' tables: accounts, login sessions, password resets, failed logins."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, select
from sqlalchemy.orm import Mapped, aliased, column_property, mapped_column, relationship

from app.db.models.base import Base
from app.db.types import UTCDateTime, utcnow


class Member(Base):
    __tablename__ = "members"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    # Lower-cased name: "Ana" and "ana" are one member.
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default="member")
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_seen_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Slow parties (app/parties/slow.py): "on holiday until", switched on ahead (his clocks
    # stand still from holiday_from to holiday_until), and the vacation hours he spent in
    # vacation_year (of the yearly allowance, KLUB_VACATION_DAYS_PER_YEAR).
    holiday_from: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    holiday_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    vacation_year: Mapped[int | None] = mapped_column(Integer, nullable=True)
    vacation_hours_used: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # A bot account (app/bots/): the member who owns it; its role is "bot", it has no
    # password and acts only with its owner's tokens (BotToken).
    bot_owner_id: Mapped[int | None] = mapped_column(
        ForeignKey("members.id", ondelete="CASCADE"), nullable=True, index=True
    )

    @property
    def is_bot(self) -> bool:
        return self.bot_owner_id is not None


class LoginSession(Base):
    """A server-side session; the cookie holds a random token, the row its SHA-256."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)

    member: Mapped[Member] = relationship(lazy="joined")


class PasswordReset(Base):
    """A one-time link an admin made for a member who forgot his password: the row keeps
    the SHA-256 of the link's token (the token itself is shown to the admin once)."""

    __tablename__ = "password_resets"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), index=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("members.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    member: Mapped[Member] = relationship(lazy="select", foreign_keys=[member_id])


class LoginFailure(Base):
    """A failed login, kept for the throttle window: one row per account and per address."""

    __tablename__ = "login_failures"
    __table_args__ = (Index("ix_login_failures_key", "key", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # "account:<name_key>" or "address:<client address>"
    key: Mapped[str] = mapped_column(String(160))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


# A bot account's owner's name, read with the account (seats, lists, standings name both):
# a correlated subquery, so no relationship has to be loaded after its session closed.
_BotOwner = aliased(Member)
Member.bot_owner_name = column_property(  # type: ignore[attr-defined]
    select(_BotOwner.name).where(_BotOwner.id == Member.bot_owner_id).correlate_except(_BotOwner).scalar_subquery()
)
