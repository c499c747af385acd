"""The parties' tables: a partie, its seats, its words, its chat; imported records and the
analyses of finished deals.

The append-only ``actions`` log (one row per applied word, numbered per partie) is the
source of truth of every table; ``parties.version`` is the number of its rows, and the
state is the replay of ``parties.seed`` + the log.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.models.base import Base
from app.db.models.members import Member
from app.db.types import UTCDateTime, utcnow


class Partie(Base):
    __tablename__ = "parties"

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    # Engine settings only (what goes into the record); the timer is a table option.
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    timer_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # A slow partie (timer_seconds >= 3600, app/parties/slow.py): each player's time bank at
    # the start, and whether weekends (Saturday and Sunday) stop the clocks: those of the
    # proposer's time zone (``weekend_zone``, an IANA name; None: UTC, the parties before it).
    bank_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    weekends_off: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    weekend_zone: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # proposed -> running -> finished; or proposed -> withdrawn; or running -> abandoned
    # (ended early by its last member, app/parties/leaving.py).
    status: Mapped[str] = mapped_column(String(16), default="proposed", index=True)
    exhibition: Mapped[bool] = mapped_column(Boolean, default=False)
    proposer_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    # Never leaves the server: every deal of the partie is shuffled from it.
    seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    # Counts the seats' changes that a notice tells with the seats themselves (a player's
    # socket opened or closed: app/tables/presence.py), so that a table socket shows the
    # seats a notice carries only when they are newer than the ones it shows.
    seats_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    # The latest score sheet, for archive lists (the engine keeps the live one).
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, deferred=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # A table of a tournament round (app/tournaments/): its round and table number
    # (0: the robot field's table, hidden until the round ends).
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournaments.id", ondelete="SET NULL"), nullable=True, index=True
    )
    tournament_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table_no: Mapped[int | None] = mapped_column(Integer, nullable=True)

    seats: Mapped[list[PartieSeat]] = relationship(
        order_by="PartieSeat.seat", lazy="selectin", cascade="all, delete-orphan"
    )
    proposer: Mapped[Member] = relationship(lazy="select")


class PartieSeat(Base):
    __tablename__ = "partie_seats"

    partie_id: Mapped[int] = mapped_column(ForeignKey("parties.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    # member (named or joined), open (any member may join), bot (computer player).
    kind: Mapped[str] = mapped_column(String(16))
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"), nullable=True, index=True)
    # invited, accepted, declined (member seats); open seats and bots are "accepted"-free.
    answer: Mapped[str | None] = mapped_column(String(16), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    away: Mapped[bool] = mapped_column(Boolean, default=False)
    # The member left and the others agreed: a computer player plays the rest.
    taken_over: Mapped[bool] = mapped_column(Boolean, default=False)
    # Seats that agreed to hand this seat to a computer player.
    takeover_votes: Mapped[list[int]] = mapped_column(JSON, default=list)
    # -- the clock of a slow partie (app/parties/slow.py); empty in a live one --
    # What is left of the seat's time bank (seconds), charged when a decision ends.
    bank_left: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The current decision: when it became his (None: not his turn), from when his clock
    # counts again (the start, or when a holiday was switched), and the seconds counted
    # before that; the vacation hours it took; when his time runs out (decision time, bank
    # and those hours) and when the reminder is due (80% of the decision time).
    turn_since: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    clock_from: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    used_seconds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    vacation_hours: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    remind_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    reminded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # When the member last looked at the table (his table socket opened or closed, his view read).
    seen_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # The words the timer said for him in this partie (three: the others may vote his seat
    # to a computer player), and whether he may take his seat back (it was voted away).
    timeouts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    reclaimable: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Why the invited member (or bot) declined, in his words (issue 39; None: no reason given).
    decline_reason: Mapped[str | None] = mapped_column(String(200), nullable=True)

    member: Mapped[Member | None] = relationship(lazy="joined")

    @property
    def played_by_bot(self) -> bool:
        return self.kind == "bot" or self.taken_over


class Action(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("partie_id", "client_action_id", name="uq_actions_client_action"),)

    partie_id: Mapped[int] = mapped_column(ForeignKey("parties.id", ondelete="CASCADE"), primary_key=True)
    # 1-based; the partie's version right after this action.
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    word: Mapped[str] = mapped_column(String(64))
    client_action_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"), nullable=True)
    # member, bot, timer
    source: Mapped[str] = mapped_column(String(16), default="member")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ChatMessage(Base):
    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_partie", "partie_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    partie_id: Mapped[int] = mapped_column(ForeignKey("parties.id", ondelete="CASCADE"))
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    member: Mapped[Member] = relationship(lazy="joined")


class ChatMute(Base):
    """A member does not read a bot account's chat (issue 39): its messages are left out
    of every table's chat he reads, over REST and on the table's socket."""

    __tablename__ = "chat_mutes"

    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), primary_key=True)
    muted_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ImportedRecord(Base):
    """A ``klub-record/1`` a member uploaded to view; validated by replay on import."""

    __tablename__ = "imported_records"

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    game: Mapped[str] = mapped_column(String(16))
    players: Mapped[list[str]] = mapped_column(JSON)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class DealAnalysis(Base):
    """The replay's analysis of one deal of a finished partie (app/analysis/), computed
    once on demand and kept: a finished partie's record no longer changes."""

    __tablename__ = "deal_analyses"

    partie_id: Mapped[int] = mapped_column(ForeignKey("parties.id", ondelete="CASCADE"), primary_key=True)
    deal_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    # {"game", "deal", "players", "rows": [...], "lost": [...]} (app.analysis.deal.analyse_deal)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
