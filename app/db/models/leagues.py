"""The leagues' tables (app/leagues/): a season of weekly evenings, its members, their
skips, and each evening (an ordinary tournament, created ahead of time by the calendar)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Date, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base
from app.db.types import UTCDateTime, utcnow


class League(Base):
    """A league (liga): a season of ``evenings`` evenings, every week on ``weekday`` at
    ``start_time`` in ``zone`` from ``first_date`` (``skipped_dates`` left out), each a
    tournament of ``rounds`` rounds; the season's score: ``scoring`` (``places``: league
    points by the evening's place on ``scale``; ``percentage``: the evening's duplikat
    percentage), the best ``best_of`` evenings count; ``final_top``: a final evening for
    the top M (None: none); ``bots_allowed``: bot accounts may play its evenings (their
    own table, never ranked with the members); ``moves``: the evenings an organizer moved
    by hand (``{"3": "2026-04-10T18:00:00+00:00"}``, app/leagues/calendar.py).

    status: active <-> paused; active -> finished (its last evening over) or closed.
    """

    __tablename__ = "leagues"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(16))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    format: Mapped[str] = mapped_column(String(16))  # duplikat or svajcarski
    rounds: Mapped[int] = mapped_column(Integer)  # per evening
    hands: Mapped[int | None] = mapped_column(Integer, nullable=True)  # hands per round, in a game whose round counts hands (Tournament.hands)
    timer_seconds: Mapped[int] = mapped_column(Integer)
    round_minutes: Mapped[int] = mapped_column(Integer)
    pause_minutes: Mapped[int] = mapped_column(Integer)
    weekday: Mapped[int] = mapped_column(Integer)  # 0 Monday .. 6 Sunday
    start_time: Mapped[str] = mapped_column(String(5))  # "HH:MM", wall time in ``zone``
    zone: Mapped[str] = mapped_column(String(64))
    first_date: Mapped[date] = mapped_column(Date)
    evenings: Mapped[int] = mapped_column(Integer)
    skipped_dates: Mapped[list[str]] = mapped_column(JSON, default=list)  # ISO dates
    open_hours: Mapped[int] = mapped_column(Integer)  # an evening is created (registration opens) this long before
    scoring: Mapped[str] = mapped_column(String(16))  # places or percentage
    scale: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)  # places: points by place
    best_of: Mapped[int] = mapped_column(Integer)  # K of N
    final_top: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bots_allowed: Mapped[bool] = mapped_column(Boolean, default=False)
    moves: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)  # evening number -> its start (UTC, ISO)
    status: Mapped[str] = mapped_column(String(16), default="active", index=True)
    organizer_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class LeagueMember(Base):
    """A member registered for the season: entered into every evening from ``from_evening``
    (a mid-season join starts then) until he leaves (``until_evening``: the first evening
    he is no longer entered in)."""

    __tablename__ = "league_members"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), primary_key=True, index=True)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    from_evening: Mapped[int] = mapped_column(Integer, default=1)
    until_evening: Mapped[int | None] = mapped_column(Integer, nullable=True)


class LeagueSkip(Base):
    """A season member skips evening ``evening_no``, told in advance: he is not entered."""

    __tablename__ = "league_skips"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), primary_key=True)
    evening_no: Mapped[int] = mapped_column(Integer, primary_key=True)


class LeagueEvening(Base):
    """An evening, inserted when the calendar creates its tournament: the primary key
    keeps two instances from creating the same evening twice."""

    __tablename__ = "league_evenings"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    evening_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), unique=True)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class LeagueOrganizer(Base):
    """A member an admin named to run one league (pause, resume, move an evening, close)."""

    __tablename__ = "league_organizers"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), primary_key=True, index=True)


class LeagueReminder(Base):
    """The reminder of an evening sent to a member: the primary key keeps two instances
    from sending it twice (app/leagues/reminders.py)."""

    __tablename__ = "league_reminders"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    evening_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), primary_key=True)
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
