"""A partie's clock: how its decisions are timed, chosen once from its timer.

- :data:`LIVE` (no timer, or 15-300 seconds a decision): one deadline for the table, kept
  in the partie's row; a player who leaves the table is away, and the others may hand
  his seat to a computer player at once.
- :data:`SLOW` (an hour or more a decision, :mod:`app.parties.slow`): every player's own
  clock in his seat's row (decision time, bank, vacation, holidays, weekends), reminders
  and push notices of his turn; a seat is handed over only after
  :data:`~app.parties.slow.TIMEOUTS_FOR_VOTE` timed-out decisions, and its player may take
  it back.

The tables, the computer players' runner, the proposals and the push notices ask the
partie's clock (:func:`clock_of`) instead of asking whether it is slow.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from app.db.models import Partie, PartieSeat
from app.errors import Conflict
from app.parties import slow
from app.parties.engines import new_engine
from app.parties.slow_clocks import after_word, check_due, resettle, start_clocks
from app.parties.slow_frames import slow_frame

if TYPE_CHECKING:
    from app.club import Club


class LiveClock:
    slow = False
    reclaimable = False  # a seat handed to a computer player stays with it

    def table_deadline(self, to_act: list[int], finished: bool, at: datetime | None, timer_seconds: int | None,
                       bot_seats: set[int]) -> datetime | None:
        """When the seats to act run out of time: with the timer on and a person to act."""
        if not timer_seconds or finished or at is None:
            return None
        if not any(seat not in bot_seats for seat in to_act):
            return None
        return at + timedelta(seconds=timer_seconds)

    def check_cap(self, club: Club, s: Session, member_id: int, name: str) -> None:
        """Refuse a seat beyond the member's cap of such parties (live: none)."""

    def start(self, partie: Partie, now: datetime) -> None:
        """The partie begins (the players' clocks start with it)."""

    def before_word(self, conn: Any, partie_id: int, seat: int, now: datetime, source: str,
                    flush: Callable[[], None]) -> None:
        """Before the engine moves: may this word be said now (the timer's only when due)?
        ``flush`` writes what the word path holds back, before a statement of the clock's own."""

    def after_word(self, conn: Any, partie_id: int, seat: int, source: str, to_act: list[int], finished: bool,
                   now: datetime, timer_seconds: int | None, bot_seats: set[int],
                   flush: Callable[[], None]) -> datetime | None:
        """In the word's transaction: the partie's next deadline (``flush``: as before)."""
        return self.table_deadline(to_act, finished, now, timer_seconds, bot_seats)

    def due(self, partie: Partie, now: datetime) -> tuple[bool, set[int]]:
        """(has the table's timer run out, the seats whose own clocks have)."""
        return partie.deadline_at is not None and partie.deadline_at <= now, set()

    def frame(self, s: Session, partie: Partie, now: datetime) -> dict[str, Any] | None:
        """What a table's state frame adds (None: nothing)."""
        return None

    # A change of presence (a player's socket opened or closed) is told to the table's
    # sockets as itself (the seat, away or not, the seats' version), which they apply to
    # the seats they show; False: they read the seats (app/tables/presence.py).
    tells_presence = True

    def looked(self, now: datetime) -> dict[str, Any]:
        """The seat's columns that say its player was at the table now (his socket opened
        or closed)."""
        return {}

    def resettle(self, club: Club, s: Session, partie: Partie) -> None:
        """The clocks after a seat changed hands (a takeover, a return, a member who left)."""

    def check_takeover(self, target: PartieSeat) -> None:
        """May the others hand ``target``'s seat to a computer player now?"""
        if not target.away:
            raise Conflict("that player is at the table", code="not_away")


class SlowClock(LiveClock):
    slow = True
    reclaimable = True  # its player may take it back

    def table_deadline(self, to_act: list[int], finished: bool, at: datetime | None, timer_seconds: int | None,
                       bot_seats: set[int]) -> datetime | None:
        return None  # the seats' clocks have the deadlines

    def check_cap(self, club: Club, s: Session, member_id: int, name: str) -> None:
        slow.check_cap(club, s, member_id, name)

    def start(self, partie: Partie, now: datetime) -> None:
        to_act = list(new_engine(partie.game, partie.settings or {}, partie.seed).seats_to_act())
        start_clocks(Session.object_session(partie), partie, to_act, now)  # type: ignore[arg-type]

    def before_word(self, conn: Any, partie_id: int, seat: int, now: datetime, source: str,
                    flush: Callable[[], None]) -> None:
        if source == "timer":
            flush()
            check_due(conn, partie_id, seat, now)  # checked before the engine moves

    def after_word(self, conn: Any, partie_id: int, seat: int, source: str, to_act: list[int], finished: bool,
                   now: datetime, timer_seconds: int | None, bot_seats: set[int],
                   flush: Callable[[], None]) -> datetime | None:
        flush()
        return after_word(conn, partie_id, to_act, now, seat, source)

    def due(self, partie: Partie, now: datetime) -> tuple[bool, set[int]]:
        return False, {row.seat for row in partie.seats if row.deadline_at is not None and row.deadline_at <= now}

    def frame(self, s: Session, partie: Partie, now: datetime) -> dict[str, Any] | None:
        return slow_frame(s, partie, now)

    tells_presence = False  # a slow partie's seats come with its clocks

    def looked(self, now: datetime) -> dict[str, Any]:
        return {"seen_at": now}  # he looked at the table (the reminder asks)

    def resettle(self, club: Club, s: Session, partie: Partie) -> None:
        resettle(club, s, partie)

    def check_takeover(self, target: PartieSeat) -> None:
        if target.timeouts < slow.TIMEOUTS_FOR_VOTE:
            raise Conflict(f"in a slow partie a seat is handed to a computer player after {slow.TIMEOUTS_FOR_VOTE} "
                           f"timed-out decisions; this one has {target.timeouts}", code="not_timed_out")


LIVE = LiveClock()
SLOW = SlowClock()


def clock_of(timer_seconds: int | None) -> LiveClock:
    """The clock of a partie with this decision timer."""
    return SLOW if slow.is_slow(timer_seconds) else LIVE
