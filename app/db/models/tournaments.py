"""The tournaments' tables (app/tournaments/): a tournament, its players, its rounds."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.models.base import Base
from app.db.models.members import Member
from app.db.types import UTCDateTime, utcnow


class Tournament(Base):
    """A tournament (turnir, app/tournaments/): rounds (kola) of parties with the same deals
    at every table of a round (rulings T1-T9).

    status: registration -> running -> finished; ``paused`` stops new rounds from starting.
    """

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(16))
    # The rounds' engine settings (the game's round settings added when a round starts).
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    format: Mapped[str] = mapped_column(String(16))  # duplikat or svajcarski
    rounds: Mapped[int] = mapped_column(Integer)
    # Hands per round, in a game whose round counts hands (its TournamentRules.round_hands;
    # hands_step); None: the game's default, or its whole schedule.
    hands: Mapped[int | None] = mapped_column(Integer, nullable=True)
    start_at: Mapped[datetime] = mapped_column(UTCDateTime)
    timer_seconds: Mapped[int] = mapped_column(Integer)
    round_minutes: Mapped[int] = mapped_column(Integer)  # a round's deadline after its start (T3)
    pause_minutes: Mapped[int] = mapped_column(Integer, default=2)  # between rounds
    robot_field: Mapped[bool] = mapped_column(Boolean, default=False)  # T4
    # Bot accounts (app/bots/) with the bot:tournament scope may register.
    bots_allowed: Mapped[bool] = mapped_column(Boolean, default=False)
    place_points: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)  # T5; None: the game's
    seeding: Mapped[str] = mapped_column(String(16), default="random")  # round 1: random or rating (T6)
    # T2: never shown before the last round ends; its SHA-256 is shown from the start.
    secret: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="registration", index=True)
    current_round: Mapped[int] = mapped_column(Integer, default=0)  # 0: not started
    # When the next round starts (None: after the running one ends, or no more rounds).
    next_round_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    organizer_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # The final standings, kept once the last round ends.
    standings: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True, deferred=True)

    players: Mapped[list[TournamentPlayer]] = relationship(
        # registration order; on a tie (one instant) by member id, the same on every database
        order_by="[TournamentPlayer.joined_at, TournamentPlayer.member_id]", lazy="selectin",
        cascade="all, delete-orphan"
    )


class TournamentPlayer(Base):
    __tablename__ = "tournament_players"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), primary_key=True, index=True)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # The first round he could play (1, or a later one for a late join, T7).
    joined_round: Mapped[int] = mapped_column(Integer, default=1)
    # Withdrawn (or removed by the organizer) before this round: he plays no more rounds.
    left_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    removed: Mapped[bool] = mapped_column(Boolean, default=False)

    member: Mapped[Member] = relationship(lazy="joined")


class TournamentRound(Base):
    """One round, inserted when it starts: the unique key keeps two instances from
    starting the same round twice."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deadline_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    # The deadline was applied: every seat still playing went to the computer player.
    overdue: Mapped[bool] = mapped_column(Boolean, default=False)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Once ended: each table's boards, places and totals (app/tournaments/results.py).
    results: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True, deferred=True)
