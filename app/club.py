"""The running Club: settings, database, table cache, notice hub and computer players.

One instance per server process, built by :func:`app.web.main.create_app` and handed to
the service functions; nothing in here is global, so tests can run several side by side.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.config import Settings
from app.db import Database
from app.realtime import Hub
from app.tables.cache import TableCache
from app.tables.writer import WordWriter


@dataclass
class Club:
    settings: Settings
    db: Database
    hub: Hub
    tables: TableCache
    bots: "BotRunner | None" = None  # noqa: F821 (set by the web app's lifespan)
    writer: WordWriter | None = None  # SQLite: one thread writes the words (app/tables/writer.py)

    @classmethod
    def from_settings(cls, settings: Settings) -> "Club":
        club = cls(
            settings=settings,
            db=Database(settings.database_url),
            hub=Hub(settings.redis_url),
            tables=TableCache(history=settings.event_history),
        )
        if club.db.is_sqlite:
            club.writer = WordWriter(club)
        return club

    def poke_bots(self, partie_id: int) -> None:
        if self.bots is not None:
            self.bots.poke(partie_id)

    def notify_partie(self, partie_id: int, notice: dict) -> None:
        self.hub.publish(f"partie:{partie_id}", notice)

    def notify_sessions_ended(self, session_ids: list[str]) -> None:
        if session_ids:
            self.hub.publish("sessions", {"kind": "ended", "sessions": session_ids})
