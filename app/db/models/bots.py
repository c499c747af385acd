"""The bot accounts' tokens (app/bots/); a bot account itself is a Member."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base
from app.db.types import UTCDateTime, utcnow


class BotToken(Base):
    """A personal token of a bot account, made by its owner: the row keeps the SHA-256 of
    the token (shown once), its scopes, when it expires and when it was last used."""

    __tablename__ = "bot_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    bot_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # The token's first characters, to tell the tokens apart in a list (never enough to use).
    prefix: Mapped[str] = mapped_column(String(16))
    label: Mapped[str] = mapped_column(String(40), default="")
    scopes: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
