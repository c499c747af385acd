"""The protocol every game engine follows, and its typed errors.

A partie engine is pure data + moves: no I/O, no clock, no framework. Its state is a
function of (settings, the dealt hands, the action log); with a seed the hands are a
function of (seed, deal index) too, so (settings, seed, action log) is the whole state.

Driving an engine:

- ``Partie.new(settings, seed=...)`` deals every deal from the seed by itself;
  ``Partie.new(settings)`` waits for ``start_deal(...)`` (replay of a record).
- ``legal_actions(seat)`` lists the words that seat may say now (record notation);
  ``apply(seat, word)`` performs one, or raises :class:`IllegalAction` and changes nothing.
- ``view(seat)`` is what that seat may see (``None``: a spectator, public only); a
  seat's view carries its ``legal_actions`` too.
- ``result()`` is the score sheet in the ``result`` shape of ``klub-record/1``;
  ``to_record()`` exports the whole partie.
- ``version`` counts the actions applied, so a client can say which state it decided on.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, runtime_checkable


class GameError(Exception):
    """Base of every error an engine raises."""


class IllegalAction(GameError):
    """A word that may not be said now by that seat. The state is unchanged."""


class NotYourTurn(IllegalAction):
    """The seat has nothing to say at this moment."""


class SettingsError(GameError):
    """Table settings the rules do not allow."""


class DealError(GameError):
    """Hands that are not a deal of the whole deck, or a deal at the wrong moment."""


class RecordError(GameError):
    """An impossible partie record; names the deal and action where it fails."""

    def __init__(self, reason: str, deal_index: int | None = None, action_index: int | None = None):
        self.reason = reason
        self.deal_index = deal_index
        self.action_index = action_index
        where = []
        if deal_index is not None:
            where.append(f"deal {deal_index}")
        if action_index is not None:
            where.append(f"action {action_index}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


@runtime_checkable
class PartieEngine(Protocol):
    game: ClassVar[str]
    n_seats: ClassVar[int]

    settings: dict[str, Any]
    version: int

    @property
    def finished(self) -> bool: ...

    @property
    def deal_index(self) -> int: ...

    @property
    def needs_deal(self) -> bool: ...

    def start_deal(self, hands: list[list[str]], talon: list[str] | None = None) -> None: ...

    def seats_to_act(self) -> list[int]: ...

    def legal_actions(self, seat: int) -> list[str]: ...

    def apply(self, seat: int, word: str) -> None: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...

    def result(self) -> dict[str, Any]: ...

    def to_record(self, players: list[str]) -> dict[str, Any]: ...
