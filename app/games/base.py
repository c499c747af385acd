"""The protocol every game engine follows, and its typed errors.

A partie engine is pure data + moves: no I/O, no clock, no framework. Its state is a
function of (settings, the dealt hands, the action log); with a seed the hands are a
function of (seed, deal index) too, so (settings, seed, action log) is the whole state.

Driving an engine:

- ``Partie.new(settings, seed=...)`` deals every deal from the seed by itself;
  ``Partie.new(settings)`` waits for ``start_deal(hands, pile)`` (replay of a record):
  ``pile`` holds the cards the deal sets aside, the record's ``pile_key`` of that deal
  (preferans ``talon``, three-player Lora ``kitty``, Lórum 101 ``stock``; None: none).
- ``n_seats`` is the partie's number of seats; the settings may decide it
  (``seats_for(settings)`` answers before a partie exists).
  ``Partie.normalize_settings(settings)`` is the full settings dict the rules allow, or
  :class:`SettingsError`.
- ``legal_actions(seat)`` lists the words that seat may say now (record notation);
  ``apply(seat, word)`` performs one, or raises :class:`IllegalAction` and changes nothing.
- ``seats_to_act()`` is the turn: the seats the game waits for (a card, a bid, the answer
  to an open offer). A seat outside it may still have legal words, but only the game's
  ``optional_words`` (offers, otpis, fall offers), which the game never waits for: such a
  seat *may speak* (:func:`may_speak`). Every table frame carries both lists, ``to_act``
  (the turn) and ``may_speak``; a page's "your turn" signal follows ``to_act`` only.
- ``timeout_word(seat)`` is the word said for a seat whose decision timer ran out: the
  game's safe word when one is legal now (its ``timeout_words``, in order: e.g. preferans
  ``dalje`` in the auction, ``ne pratim``, ``moze``, ``odbijam``), else None and the
  computer player chooses (docs/rulings.md, "Timed-out decisions").
- ``view(seat)`` is what that seat may see (``None``: a spectator, public only). Every
  game's view has the same top keys: ``game``, ``version``, ``seat``, ``finished``,
  ``deal_index``, ``legal_actions`` (``[]`` for a spectator) and ``result`` (the running
  score in the shape of ``result()``).
- ``result()`` is the score sheet in the ``result`` shape of ``klub-record/1``;
  ``to_record()`` exports the whole partie.
- ``version`` counts the actions applied, so a client can say which state it decided on.
- ``deadline_word`` (a class constant, None in a game without one) is the word the server
  says for any seat when a tournament round's deadline passes (preferans ``rok``, rulings
  P13); ``accepts_deadline()`` says whether this partie takes it now. It is never among
  ``legal_actions``: no player says it, but it is in the action log, so the state stays a
  function of (settings, seed, action log).

Optional capabilities are declared by the game's descriptor (:mod:`app.games.descriptor`)
and typed here: :class:`KeepsPapir` (a paper of its own beside ``result()``) and
:class:`ShowsDeals` (an ended deal is shown face up to everyone).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol, Self, runtime_checkable


class GameError(Exception):
    """Base of every error an engine raises."""


class IllegalAction(GameError):
    """A word that may not be said now by that seat. The state is unchanged."""


class NotYourTurn(IllegalAction):
    """The seat has nothing to say at this moment."""


class SettingsError(GameError):
    """Table settings the rules do not allow."""


# A live table's decision timer (rulings P4): off, or 15 to 300 seconds a decision.
TIMER_RANGE = (15, 300)


def is_live_timer(timer: object) -> bool:
    """Whole seconds (not a bool) within :data:`TIMER_RANGE`."""
    return isinstance(timer, int) and not isinstance(timer, bool) and TIMER_RANGE[0] <= timer <= TIMER_RANGE[1]


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
    n_seats: int
    # Words the game never waits for (offers, otpis): random play says them only now and then.
    optional_words: ClassVar[frozenset[str]]
    deadline_word: ClassVar[str | None]

    settings: dict[str, Any]
    version: int

    @classmethod
    def new(cls, settings: Mapping[str, Any] | None = None, seed: int | str | None = None) -> Self: ...

    @classmethod
    def normalize_settings(cls, settings: object) -> dict[str, Any]: ...

    @property
    def finished(self) -> bool: ...

    @property
    def deal_index(self) -> int: ...

    @property
    def needs_deal(self) -> bool: ...

    @classmethod
    def seats_for(cls, settings: Mapping[str, Any]) -> int: ...

    @property
    def pile_key(self) -> str | None:
        """The record key of the cards the next deal sets aside, None when it sets none."""

    def start_deal(self, hands: object, pile: object = None) -> None:
        """Deal a record's hands and pile (checked here: :class:`DealError` for anything else)."""

    def seats_to_act(self) -> list[int]: ...

    def legal_actions(self, seat: int) -> list[str]: ...

    def timeout_word(self, seat: int) -> str | None: ...

    def apply(self, seat: int, word: str) -> None: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...

    def result(self) -> dict[str, Any]: ...

    def to_record(self, players: list[str]) -> dict[str, Any]: ...

    def accepts_deadline(self) -> bool: ...


def may_speak(to_act: list[int], legal: list[list[str]]) -> list[int]:
    """The seats that may say something out of turn: legal words (``legal[seat]``), but
    not in ``to_act``, the turn the game waits for."""
    return [s for s, words in enumerate(legal) if words and s not in to_act]


class KeepsPapir(Protocol):
    def papir(self) -> dict[str, Any]: ...


class ShowsDeals(Protocol):
    def shown_deal(self, deal_index: int) -> dict[str, Any]: ...


def once_per_version(name: str) -> Callable[[Any], Any]:
    """The engine's method ``name`` computed once per state (its ``version`` and number of
    deals): every seat's view of a version carries the same public part (the sheet, the
    papir), so it is built once, and the table's snapshot serializes the one object once
    (app/tables/cache.py). The value is shared by the views: no caller may change it."""
    return once_per(name, lambda engine: (engine.version, len(engine.deals)))


def once_per(name: str, key: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The engine's method ``name`` computed again only when ``key(engine)`` changes (e.g.
    the sheet, which only a deal's end changes): the same object is shown until then, and
    the table serializes it once for all those versions (app/tables/cache.py). Shared: no
    caller may change it."""
    slot = f"_{name}_once"

    def once(self: Any) -> Any:
        at = key(self)
        kept = self.__dict__.get(slot)
        if kept is None or kept[0] != at:
            kept = self.__dict__[slot] = (at, getattr(self, name)())
        return kept[1]

    once.__doc__ = f"``{name}()``, kept until its key changes (shared: not to be changed)."
    return once


class EngineBase:
    """What every engine builds the same way: ``new`` from normalized settings."""

    optional_words: ClassVar[frozenset[str]] = frozenset()
    # The safe words of a timed-out decision, the first legal one is said (none: the
    # computer player chooses).
    timeout_words: ClassVar[tuple[str, ...]] = ()
    n_seats: int
    pile_key: str | None = None
    # The word a round's deadline says (base docstring); None: the game has no deadline word.
    deadline_word: ClassVar[str | None] = None
    # The game's rule for its settings: the full dict, or SettingsError naming what is wrong.
    settings_rule: ClassVar[Callable[[object], dict[str, Any]]]

    @classmethod
    def normalize_settings(cls, settings: object) -> dict[str, Any]:
        return cls.settings_rule(settings)

    @classmethod
    def new(cls, settings: Mapping[str, Any] | None = None, seed: int | str | None = None) -> Self:
        return cls(cls.normalize_settings(settings), seed)  # type: ignore[call-arg]

    @classmethod
    def seats_for(cls, settings: Mapping[str, Any]) -> int:
        """The seats of a partie with these (normalized) settings."""
        return cls.n_seats

    def accepts_deadline(self) -> bool:
        """Does the partie take its ``deadline_word`` now? Never without one."""
        return False

    def timeout_word(self, seat: int) -> str | None:
        """The safe word said for ``seat`` when its time runs out, or None (the computer
        player chooses): the first of ``timeout_words`` that is legal now."""
        if not self.timeout_words:
            return None
        legal = self.legal_actions(seat)  # type: ignore[attr-defined]
        return next((w for w in self.timeout_words if w in legal), None)
