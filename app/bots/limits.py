"""The bot API's limits, on the ``limits`` package's shared store (docs/bots.md).

The store is Redis when the Club runs with Redis (``KLUB_REDIS_URL``: every instance
counts in the same place), else this process's memory (the embedded default, one
instance). Refusals are :class:`TooMany` (429 with ``Retry-After``):

- ``words_rate_limited``: more than ``bot_words_per_second`` words a second with one token
  (a moving window);
- ``parties_per_day``: more than ``bot_parties_per_day`` new parties a day for one bot
  (proposed, accepted or joined; a moving window of 24 hours);
- ``chat_rate_limited``: more than ``bot_chat_per_minute`` chat messages a minute for one
  bot (a moving window; a refused message is not written);
- ``too_many_tables``: a bot sits at ``bot_max_tables`` tables already (running, or
  proposals it accepted): counted in the database, which every instance shares;
- ``stream_open``: the bot's event stream is open already (one per bot): the open one
  goes on, the new one is refused. The stream holds a lease in the store
  (``bot_stream_lease_seconds``), renewed with every keep-alive and given back when it
  closes, so a stream of a crashed instance frees its bot after one lease at most (a
  stream whose lease lapsed and was taken ends with ``stream_replaced``).

The windows run on the wall clock (the store's), not the Club's clock.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItemPerDay, RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from app.config import Settings
from app.errors import ClubError

NAMESPACE = "klub-bot"
# A refusal whose end the store cannot tell (a table freed when a partie ends).
TABLES_RETRY_AFTER = 60
# How long the number of a bot's last event stream is kept (which stream holds the lease).
HOLDER_SECONDS = 30 * 24 * 3600


class TooMany(ClubError):
    status, code = 429, "rate_limited"

    def __init__(self, message: str, code: str, retry_after: float):
        super().__init__(message, code=code, retry_after=max(1, math.ceil(retry_after)))


class BotLimits:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.uri = settings.redis_url or "memory://"
        self.storage = storage_from_string(self.uri)
        self.window = MovingWindowRateLimiter(self.storage)
        self.words = RateLimitItemPerSecond(settings.bot_words_per_second, namespace=NAMESPACE)
        self.parties = RateLimitItemPerDay(settings.bot_parties_per_day, namespace=NAMESPACE)
        self.chats = RateLimitItemPerMinute(settings.bot_chat_per_minute, namespace=NAMESPACE)
        self.max_tables = settings.bot_max_tables
        # whole seconds: Redis expires keys by them
        self.lease_seconds = max(1, math.ceil(settings.bot_stream_lease_seconds))

    def describe(self) -> dict:
        """The limits as the bot API states them (``GET /api/bot/account``)."""
        return {
            "event_streams": 1,
            "tables": self.max_tables,
            "words_per_second": self.settings.bot_words_per_second,
            "parties_per_day": self.settings.bot_parties_per_day,
            "keepalive_seconds": self.settings.bot_keepalive_seconds,
            "chat_per_minute": self.settings.bot_chat_per_minute,
        }

    def _retry(self, item, *keys: str) -> float:
        reset = self.window.get_window_stats(item, *keys).reset_time
        return reset - time.time()

    def word(self, token_id: int) -> None:
        """Count one word of a token, or :class:`TooMany` (nothing counted)."""
        key = str(token_id)
        if not self.window.hit(self.words, "words", key):
            raise TooMany(f"at most {self.settings.bot_words_per_second} words a second per token",
                          "words_rate_limited", self._retry(self.words, "words", key))

    def check_chat(self, bot_id: int) -> None:
        """Whether the bot may write one more chat message now, or :class:`TooMany`."""
        key = str(bot_id)
        if not self.window.test(self.chats, "chat", key):
            raise TooMany(f"at most {self.settings.bot_chat_per_minute} chat messages a minute per bot",
                          "chat_rate_limited", self._retry(self.chats, "chat", key))

    def count_chat(self, bot_id: int) -> None:
        self.window.hit(self.chats, "chat", str(bot_id))

    def check_new_partie(self, bot_id: int) -> None:
        key = str(bot_id)
        if not self.window.test(self.parties, "parties", key):
            raise TooMany(f"at most {self.settings.bot_parties_per_day} new parties a day per bot",
                          "parties_per_day", self._retry(self.parties, "parties", key))

    def count_new_partie(self, bot_id: int) -> None:
        self.window.hit(self.parties, "parties", str(bot_id))

    def check_tables(self, in_use: int) -> None:
        if in_use >= self.max_tables:
            raise TooMany(f"a bot sits at {self.max_tables} tables at most at once", "too_many_tables",
                          TABLES_RETRY_AFTER)

    # -- the event stream's lease ------------------------------------------------------

    def _stream_key(self, bot_id: int) -> str:
        return f"{NAMESPACE}/stream/{bot_id}"

    def _holder_key(self, bot_id: int) -> str:
        return f"{NAMESPACE}/stream-holder/{bot_id}"

    def open_stream(self, bot_id: int) -> int:
        """Take the bot's one event stream, or :class:`TooMany` ``stream_open``: the open
        stream keeps it. Returns the stream's number (which stream holds the lease)."""
        key = self._stream_key(bot_id)
        if self.storage.incr(key, self.lease_seconds) != 1:
            left = self.storage.get_expiry(key) - time.time()
            raise TooMany("this bot's event stream is open already (one per bot)", "stream_open",
                          min(max(left, 1), self.settings.bot_keepalive_seconds))
        return self.storage.incr(self._holder_key(bot_id), HOLDER_SECONDS)

    def renew_stream(self, bot_id: int, holder: int) -> bool:
        """Renew the lease of stream ``holder``; False when its lease lapsed (its server
        stalled past it) and a newer stream took it: this one ends."""
        if self.storage.get(self._holder_key(bot_id)) != holder:
            return False
        key = self._stream_key(bot_id)
        self.storage.clear(key)
        return self.storage.incr(key, self.lease_seconds) == 1

    def stream_is_open(self, bot_id: int) -> bool:
        """Whether the bot holds its event stream now (it is online)."""
        return self.storage.get(self._stream_key(bot_id)) > 0

    def close_stream(self, bot_id: int, holder: int) -> None:
        if self.storage.get(self._holder_key(bot_id)) == holder:  # a newer stream's lease is not ours
            self.storage.clear(self._stream_key(bot_id))
