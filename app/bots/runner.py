"""Computer seats and timed-out decisions, played by a pool of worker threads.

``poke(partie_id)`` asks for one look at a table: if a computer seat is to act (or a
person's time ran out) the worker asks the bot for one word and applies it exactly as a
person's word is applied (same version check), then looks again. Each table has at most
one look pending or running, and each look plays one word, so a long partie of
computer players takes turns with the others instead of holding a worker. A look that
fails on a database out of reach is tried again a moment later (app/db/outage.py): no
table waits for a computer player that gave up while the database was away.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from app.ai import Bot, RandomBot, make_bot
from app.db.outage import RETRY_AFTER_SECONDS, unavailable
from app.errors import ClubError
from app.parties import slow_vacation
from app.parties.clocks import clock_of
from app.parties.lookup import get_partie, open_table
from app.tables.service import apply_word

if TYPE_CHECKING:
    from app.club import Club

log = logging.getLogger("klub.bots")


class BotRunner:
    def __init__(self, club: Club, workers: int = 4, delay: float = 0.0):
        self.club = club
        self.delay = delay
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="klub-bot")
        self._lock = threading.Lock()
        self._pending: set[int] = set()
        self._dirty: set[int] = set()
        self._bots: dict[tuple[int, int], Bot] = {}
        self._timers: list[tuple[float, int]] = []
        self._wake = threading.Condition(self._lock)
        self._closed = False
        self._timer_thread = threading.Thread(target=self._timer_loop, name="klub-bot-timer", daemon=True)
        self._timer_thread.start()

    def poke(self, partie_id: int) -> None:
        with self._lock:
            if self._closed:
                return
            if partie_id in self._pending:
                self._dirty.add(partie_id)
                return
            self._pending.add(partie_id)
            if self.delay > 0:
                heapq.heappush(self._timers, (time.monotonic() + self.delay, partie_id))
                self._wake.notify()
                return
        self._pool.submit(self._look, partie_id)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._wake.notify()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def idle(self) -> bool:
        with self._lock:
            return not self._pending

    def _timer_loop(self) -> None:
        with self._lock:
            while not self._closed:
                if not self._timers:
                    self._wake.wait()
                    continue
                due, partie_id = self._timers[0]
                wait = due - time.monotonic()
                if wait > 0:
                    self._wake.wait(wait)
                    continue
                heapq.heappop(self._timers)
                try:
                    self._pool.submit(self._look, partie_id)
                except RuntimeError:  # shutting down
                    return

    def _look(self, partie_id: int) -> None:
        acted = False
        try:
            acted = self.play_one(partie_id)
        except Exception as e:
            if unavailable(e):
                log.warning("computer player at partie %s waits for the database: %r", partie_id, e)
                self._look_later(partie_id)
                return
            log.exception("computer player failed at partie %s", partie_id)
        with self._lock:
            self._pending.discard(partie_id)
            again = acted or partie_id in self._dirty
            self._dirty.discard(partie_id)
        if again:
            self.poke(partie_id)

    def _look_later(self, partie_id: int) -> None:
        """Look again in RETRY_AFTER_SECONDS (the table stays pending meanwhile)."""
        with self._lock:
            if self._closed:
                self._pending.discard(partie_id)
                return
            self._dirty.discard(partie_id)
            heapq.heappush(self._timers, (time.monotonic() + RETRY_AFTER_SECONDS, partie_id))
            self._wake.notify()

    def bot_for(self, partie_id: int, seat: int, name: str | None, game: str) -> Bot:
        key = (partie_id, seat)
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = make_bot(name, game, seed=f"{partie_id}:{seat}")
        return bot

    def play_one(self, partie_id: int) -> bool:
        """One word for a computer seat or a timed-out person, if one is due; True if said.

        A timed-out word is applied with the source ``timer``: the table tells everyone
        that the computer said it in the player's name (app/tables/frames.py)."""
        club = self.club
        with club.db.read() as s:
            partie = get_partie(s, partie_id)
            if partie.status != "running":
                self._forget(partie_id)
                return False
            table = open_table(club, s, partie)
            now = club.clock.now()
            seats = {row.seat: row for row in partie.seats}
            timed_out, overdue = clock_of(partie.timer_seconds).due(partie, now)
            with table.lock:
                engine = table.engine
                version = table.version
                due = [
                    seat
                    for seat in (engine.seats_to_act() if not engine.finished else [])
                    if seats[seat].played_by_bot or timed_out or seat in overdue
                ]
                if not due:
                    return False
                seat = due[0]
                row = seats[seat]
                view = engine.view(seat)
                legal = list(engine.legal_actions(seat))
                # A person's time ran out: the game's safe word when it has one (dalje,
                # ne pratim, moze, ne kladim, odbijam), else the computer player's choice.
                word = None if row.played_by_bot else engine.timeout_word(seat)
        if seat in overdue:
            # A slow clock ran out: his vacation hours first; the safe word once none is left.
            outcome = slow_vacation.spend_vacation(club, partie_id, seat, version)
            if outcome != slow_vacation.EXHAUSTED:
                return outcome == slow_vacation.SPENT
        if word is None:
            word = self._bot_word(partie_id, version, seat, row.bot, partie.game, view, legal)
        source = "bot" if row.played_by_bot else "timer"
        try:
            apply_word(club, partie_id, seat, word, version, None, None, source)
        except ClubError as e:
            if e.code in ("stale_version", "not_due"):
                return True  # someone acted first (or gave him time); look again
            log.warning("computer player at partie %s seat %s said %r: %s", partie_id, seat, word, e.message)
            return False
        if seat in overdue:  # a slow seat's count of timed-out words changed: the table shows it
            club.notify_partie(partie_id, {"kind": "seats"})
        return True

    def _bot_word(self, partie_id: int, version: int, seat: int, name: str | None, game: str,
                  view: dict, legal: list[str]) -> str:
        bot = self.bot_for(partie_id, seat, name or self.club.settings.default_bot, game)
        try:
            word = bot.choose(view, legal)
        except Exception:
            log.exception("computer player %r failed at partie %s seat %s", name, partie_id, seat)
            word = None
        if word not in legal:
            # A broken or confused computer player must not stall the table.
            word = RandomBot(f"{partie_id}:{version}").choose(view, legal)
        return word

    def _forget(self, partie_id: int) -> None:
        for key in [k for k in self._bots if k[0] == partie_id]:
            self._bots.pop(key, None)
