"""The problems' tables (app/problems/, issue 41): problems mined from finished deals,
the parties mined, the members' answers, ratings and flags."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base
from app.db.types import UTCDateTime, utcnow


class Problem(Base):
    """A decision of a finished deal where one word is clearly best with every hand open:
    the position, the question, every choice's value; rated by Glicko-2 as the members
    answer it (app/problems/glicko.py)."""

    __tablename__ = "problems"
    __table_args__ = (
        UniqueConstraint("partie_id", "deal_index", "step", name="uq_problems_partie_deal_step"),
        Index("ix_problems_pick", "hidden", "game", "theme", "rating"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    partie_id: Mapped[int] = mapped_column(ForeignKey("parties.id", ondelete="CASCADE"))
    deal_index: Mapped[int] = mapped_column(Integer)
    step: Mapped[int] = mapped_column(Integer)  # the replay's step of the word (1: the deal's first)
    game: Mapped[str] = mapped_column(String(16))
    theme: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    best: Mapped[str] = mapped_column(String(64))
    played: Mapped[str] = mapped_column(String(64))
    unit: Mapped[str] = mapped_column(String(16))
    lost: Mapped[float] = mapped_column(Float)  # what the word played lost against the best
    margin: Mapped[float] = mapped_column(Float)  # the best's lead over the second best
    # {"question", "theme_name", "values", "legal", "position", "line", "players", "settings"}
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    flags: Mapped[int] = mapped_column(Integer, default=0)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ProblemSource(Base):
    """A finished partie whose deals have been mined (each one once)."""

    __tablename__ = "problem_sources"

    partie_id: Mapped[int] = mapped_column(ForeignKey("parties.id", ondelete="CASCADE"), primary_key=True)
    problems: Mapped[int] = mapped_column(Integer, default=0)
    mined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ProblemRating(Base):
    """A member's Glicko-2 rating as a solver, with his streak of best answers."""

    __tablename__ = "problem_ratings"

    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ProblemAttempt(Base):
    """A member's answer to a problem: the first one counts, once."""

    __tablename__ = "problem_attempts"
    __table_args__ = (Index("ix_problem_attempts_member_time", "member_id", "created_at"),)

    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), primary_key=True)
    problem_id: Mapped[int] = mapped_column(ForeignKey("problems.id", ondelete="CASCADE"), primary_key=True)
    word: Mapped[str] = mapped_column(String(64))
    correct: Mapped[bool] = mapped_column(Boolean)
    rating_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ProblemFlag(Base):
    """A member's flag on a problem (once per member), for the admins."""

    __tablename__ = "problem_flags"

    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), primary_key=True)
    problem_id: Mapped[int] = mapped_column(ForeignKey("problems.id", ondelete="CASCADE"), primary_key=True)
    reason: Mapped[str] = mapped_column(String(500), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
