"""The push notices' tables (app/push/): devices, the outbox, the Club's VAPID key."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base
from app.db.types import UTCDateTime, utcnow


class PushSubscription(Base):
    """A device that gets the member's push notices (app/push/): a browser's Web Push
    subscription, made from one login session and gone with it (logout, expiry).

    ``endpoint`` is the push service's URL for this browser (unique: a browser has one per
    site; a re-subscription from another member's session moves it to him); ``p256dh`` and
    ``auth`` (base64url) are the browser's keys the payload is encrypted for (RFC 8291);
    ``lang`` the language of the page that subscribed, the notices' language."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (Index("ix_push_subscriptions_member", "member_id", "updated_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(2048), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(32))
    lang: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # The last time a page sent it: the oldest goes first past the limit per member.
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class PushMessage(Base):
    """The push outbox: one notice for one device, waiting to be sent (app/push/outbox.py).

    Filled off the word path by the push worker; any instance's sender claims due rows
    (``next_try_at``, moved forward by the claim: a lease), sends them and deletes them.
    ``payload`` is the notice in the device's language; it is encrypted when sent."""

    __tablename__ = "push_outbox"

    id: Mapped[int] = mapped_column(primary_key=True)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(16))
    # The Topic header: a newer message of the same topic replaces an undelivered older one.
    topic: Mapped[str] = mapped_column(String(32))
    urgency: Mapped[str] = mapped_column(String(8))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # Past this the notice is stale: not sent (nor kept by the push service: the TTL header).
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    next_try_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)


class PushKey(Base):
    """The Club's VAPID key pair (RFC 8292), made on the first start: the PEM of the
    private key (the public key follows from it). ``KLUB_VAPID_PRIVATE_KEY`` overrides it."""

    __tablename__ = "push_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    private_key: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
