"""Reading one deal's actions in order, with errors that name the deal and the action."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import DealUnfinished, RefereeError


class ActionStream:
    """The ``[seat, word]`` actions of one deal, consumed one by one by the replay."""

    def __init__(self, deal_index: int, actions: Any, n_seats: int) -> None:
        if not isinstance(actions, list):
            raise RefereeError("'actions' is not a list", deal_index)
        self.deal_index = deal_index
        self.n_seats = n_seats
        self._actions: Sequence[Any] = actions
        self.position = 0

    def error(self, reason: str, at: int | None = None) -> RefereeError:
        """An error about the action at ``at`` (default: the one just read)."""
        index = self.position - 1 if at is None else at
        return RefereeError(reason, self.deal_index, max(index, 0))

    def peek(self) -> tuple[int, str]:
        """The next action, not consumed; DealUnfinished when there is none."""
        if self.position >= len(self._actions):
            raise DealUnfinished()
        return self._parse(self.position)

    def take(self, seat: int) -> str:
        """Consume the next action, which must be said by ``seat``; returns its word."""
        actual, word = self.peek()
        self.position += 1
        if actual != seat:
            raise self.error(f"seat {actual} acts out of turn ({word!r}); seat {seat} is to act")
        return word

    def finish(self) -> None:
        """The deal has ended: no action may follow."""
        if self.position < len(self._actions):
            raise self.error("an action after the deal ended", at=self.position)

    def _parse(self, index: int) -> tuple[int, str]:
        """Check the shape of action ``index``: ``[seat, word]`` with a valid seat."""
        action = self._actions[index]
        if not (isinstance(action, list) and len(action) == 2):
            raise RefereeError(f"action is not a [seat, word] pair: {action!r}", self.deal_index, index)
        seat, word = action
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n_seats:
            raise RefereeError(f"not a seat: {seat!r}", self.deal_index, index)
        if not isinstance(word, str):
            raise RefereeError(f"not a word: {word!r}", self.deal_index, index)
        return seat, word
