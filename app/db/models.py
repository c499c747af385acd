"""The Club's tables.

The append-only ``actions`` log (one row per applied word, numbered per partie) is the
source of truth of every table; ``parties.version`` is the number of its rows, and the
state is the replay of ``parties.seed`` + the log.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON, Boolean, Float, ForeignKey, Index, Integer, MetaData, String, Text, UniqueConstraint, false, select,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, aliased, column_property, mapped_column, relationship

from app.db.types import UTCDateTime, utcnow

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


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


class ImportedRecord(Base):
    """A ``klub-record/1`` a member uploaded to view; validated by replay on import."""

    __tablename__ = "imported_records"

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    game: Mapped[str] = mapped_column(String(16))
    players: Mapped[list[str]] = mapped_column(JSON)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class LoginFailure(Base):
    """A failed login, kept for the throttle window: one row per account and per address."""

    __tablename__ = "login_failures"
    __table_args__ = (Index("ix_login_failures_key", "key", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # "account:<name_key>" or "address:<client address>"
    key: Mapped[str] = mapped_column(String(160))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


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


class DealAnalysis(Base):
    """The replay's analysis of one deal of a finished partie (app/analysis/), computed
    once on demand and kept: a finished partie's record no longer changes."""

    __tablename__ = "deal_analyses"

    partie_id: Mapped[int] = mapped_column(ForeignKey("parties.id", ondelete="CASCADE"), primary_key=True)
    deal_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    # {"game", "deal", "players", "rows": [...], "lost": [...]} (app.analysis.deal.analyse_deal)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


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
    # Preferans: hands per round (P13); None where the game plays its whole schedule.
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
# A bot account's owner's name, read with the account (seats, lists, standings name both):
# a correlated subquery, so no relationship has to be loaded after its session closed.
_BotOwner = aliased(Member)
Member.bot_owner_name = column_property(  # type: ignore[attr-defined]
    select(_BotOwner.name).where(_BotOwner.id == Member.bot_owner_id).correlate_except(_BotOwner).scalar_subquery()
)
