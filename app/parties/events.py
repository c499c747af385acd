"""What happens when a partie ends: a notice after the commit, for whoever subscribes; and
when a member leaves a running partie for good: hooks inside that transaction.

The word path only publishes (:func:`app.tables.service.apply_words`, after the commit
of the word that ended the partie); subscribers (ratings, statistics) run one after
another on a thread of their own, so they never slow a table down and one subscriber's
error does not stop the others. The instance that applied the word publishes once; a
subscriber that must not miss an ending (a crash between the commit and the notice)
can always rebuild from the archive.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from app.db.models import Partie

log = logging.getLogger("klub.parties")


@dataclass(frozen=True)
class PartieFinished:
    partie_id: int
    game: str
    result: dict[str, Any]


Subscriber = Callable[[PartieFinished], None]


class FinishedNotices:
    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._last: Future | None = None

    def subscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            self._subscribers.append(subscriber)

    def publish(self, notice: PartieFinished) -> None:
        with self._lock:
            if not self._subscribers:
                return
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="klub-finished")
            self._last = self._executor.submit(self._deliver, list(self._subscribers), notice)

    @staticmethod
    def _deliver(subscribers: list[Subscriber], notice: PartieFinished) -> None:
        for subscriber in subscribers:
            try:
                subscriber(notice)
            except Exception:
                log.exception("a subscriber of finished parties failed on partie %s", notice.partie_id)

    def drain(self, timeout: float | None = None) -> None:
        """Wait until every notice published so far has been delivered."""
        with self._lock:
            last = self._last
        if last is not None:
            last.result(timeout)

    def close(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)


@dataclass(frozen=True)
class SeatLeft:
    """A member left a running partie for good (app/parties/leaving.py): his seat is the
    computer player's in ``session``'s transaction, not yet committed."""

    session: Session
    partie: Partie
    member_id: int


# A hook writes what follows from it in the same transaction (it commits with the seat or
# not at all) and may return what to do once it has committed (a notice).
LeftHook = Callable[[SeatLeft], Callable[[], None] | None]


class LeftHooks:
    """Who must know that a member left his seat (a tournament withdraws him, T10): run
    inside the leaving transaction, in the order subscribed; an error fails the leaving."""

    def __init__(self) -> None:
        self._hooks: list[LeftHook] = []

    def subscribe(self, hook: LeftHook) -> None:
        self._hooks.append(hook)

    def during(self, notice: SeatLeft) -> list[Callable[[], None]]:
        """Run every hook; what they ask to do after the commit."""
        return [after for hook in list(self._hooks) if (after := hook(notice)) is not None]
