"""The running Club: settings, database, table cache, notice hub and computer players.

One instance per server process, built by :func:`app.web.main.create_app` and handed to
the service functions; nothing in here is global, so tests can run several side by side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.analysis.workers import WorkerPool
from app.bots.limits import BotLimits
from app.clock import Clock
from app.config import Settings
from app.db import Database
from app.parties.events import FinishedNotices, LeftHooks
from app.realtime import Hub
from app.tables.cache import TableCache
from app.tables.viewers import Viewers

if TYPE_CHECKING:
    from app.bots.runner import BotRunner
    from app.push.worker import PushService
    from app.tables.writer import WordWriter


@dataclass
class Club:
    settings: Settings
    db: Database
    hub: Hub
    tables: TableCache
    bots: BotRunner | None = None  # set by the web app's lifespan
    # SQLite: one thread writes the words (app.tables.service.start_word_writer).
    writer: WordWriter | None = None
    # Subscribers to the end of a partie (ratings, statistics): app/parties/events.py.
    finished: FinishedNotices = field(default_factory=FinishedNotices)
    # Hooks on a member leaving a running partie for good (a tournament withdraws him).
    left: LeftHooks = field(default_factory=LeftHooks)
    # The replay's analyses, computed in worker processes (app/analysis/).
    analyses: WorkerPool = field(default_factory=WorkerPool)
    # Who has which table open (players and spectators): app/tables/viewers.py.
    viewers: Viewers = field(default_factory=Viewers)
    # Push notices to the members' devices (app/push/), set by the web app.
    push: PushService | None = None
    # The bot API's limits (app/bots/limits.py), on Redis when the Club has it.
    bot_limits: BotLimits | None = None

    @classmethod
    def from_settings(cls, settings: Settings, clock: Clock | None = None) -> Club:
        return cls(
            settings=settings,
            db=Database(settings.database_url, clock, settings.db_pool_size),
            hub=Hub(settings.redis_url),
            tables=TableCache(history=settings.event_history),
            analyses=WorkerPool(settings.analysis_workers),
            bot_limits=BotLimits(settings),
        )

    @property
    def clock(self) -> Clock:
        """The Club's "now" (app/clock.py): the database's clock."""
        return self.db.clock

    def poke_bots(self, partie_id: int) -> None:
        if self.bots is not None:
            self.bots.poke(partie_id)

    def notify_partie(self, partie_id: int, notice: dict) -> None:
        self.hub.publish(f"partie:{partie_id}", notice)

    def notify_sessions_ended(self, session_ids: list[str]) -> None:
        if session_ids:
            self.hub.publish("sessions", {"kind": "ended", "sessions": session_ids})
