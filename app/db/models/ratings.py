"""The ratings' tables (app/ratings/): a member's rating in a game, and each rated place."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base
from app.db.types import UTCDateTime


class Rating(Base):
    """A member's current rating in one game (app/ratings/): the Weng-Lin (OpenSkill)
    skill ``mu`` and its uncertainty ``sigma``, after ``parties`` rated parties."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_rating", "game", "rating"),)

    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    # The displayed number (app.ratings.method.displayed), kept for ordering the standings.
    rating: Mapped[int] = mapped_column(Integer)
    parties: Mapped[int] = mapped_column(Integer, default=0)
    # When the last rated partie finished (not the wall clock: a rebuild gives the same row).
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_partie_id: Mapped[int | None] = mapped_column(ForeignKey("parties.id", ondelete="SET NULL"), nullable=True)


class RatingEvent(Base):
    """One member's place in one finished partie, and what it did to his rating.

    Every finished partie that is not an exhibition has a row per member seat (the
    standings count them); ``rated`` is false for a partie of house rules (or one without
    places), whose rating columns are then empty.
    """

    __tablename__ = "rating_events"
    __table_args__ = (
        UniqueConstraint("partie_id", "member_id", name="uq_rating_events_partie_member"),
        Index("ix_rating_events_game_time", "game", "finished_at", "member_id", "place"),
        Index("ix_rating_events_game_member", "game", "member_id", "place", "finished_at"),
        Index("ix_rating_events_member", "member_id", "game", "finished_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    partie_id: Mapped[int] = mapped_column(ForeignKey("parties.id", ondelete="CASCADE"))
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(16))
    # 1-based, shared places allowed; None if the partie's result names none.
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime)
