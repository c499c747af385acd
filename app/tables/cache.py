"""Engines kept in memory per partie, caught up from the action log on demand.

Each :class:`LiveTable` remembers the last few versions as :class:`Snapshot` s (the
view and legal words of every seat and of a spectator) so a connection that missed a
few notices, or a client that reconnects, gets exactly the events it missed.

A snapshot keeps each view as JSON text, made once when the version is reached: that is
the copy that must not change when the engine moves on, and it is what the sockets send,
so an event frame is serialized once per (version, seat) and shared by every connection
of that seat (:meth:`Snapshot.frame_text`). The text is kept key by key (each top-level
key of the view and its value's JSON), so an event carries only the keys whose text
changed since the version before (:meth:`Snapshot.view_changes_for`, issue 28).
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Action, Partie
from app.games.base import may_speak
from app.parties.clocks import clock_of
from app.parties.engines import new_engine

def to_json(value: Any) -> str:
    """Compact JSON (UTF-8 characters as they are), as the sockets send it.

    orjson: the views of every seat are encoded at every version, and the standard
    encoder was a tenth of the server's time under load (docs/performance.md).
    """
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


_MEMBER_PREFIX: dict[str, str] = {}  # a view's key -> '"key":', made once per key


def view_parts(view: dict[str, Any], made: dict[tuple[str, int], str] | None = None) -> dict[str, str]:
    """A view as its top-level keys, each with its member of the JSON object as text
    (``"key":value``).

    ``made`` keeps the members made for other views of the same moment, by key and the
    value's identity: a part every seat shows as one object (the engine's sheet or papir,
    ``app.games.base.once_per_version``) is serialized once. The views must all be alive
    while ``made`` is used (an identity is unique only among live objects)."""
    dumps, option = orjson.dumps, orjson.OPT_NON_STR_KEYS
    if made is None:
        made = {}
    parts = {}
    for key, value in view.items():
        text = made.get((key, id(value)))
        if text is None:
            prefix = _MEMBER_PREFIX.get(key)
            if prefix is None:
                prefix = _MEMBER_PREFIX[key] = dumps(key).decode() + ":"
            text = made[(key, id(value))] = prefix + dumps(value, option=option).decode()
        parts[key] = text
    return parts


def _object_json(parts: dict[str, str]) -> str:
    return "{" + ",".join(parts.values()) + "}"


@dataclass(frozen=True)
class Snapshot:
    version: int
    action: tuple[int, str] | None  # the (seat, word) that led here; None at the start
    # One per seat, then the spectator's: each top-level key of the view and its member of
    # the view's JSON text (view_parts), never changed.
    views: tuple[dict[str, str], ...]
    legal: list[list[str]]
    to_act: list[int]  # the turn: the seats the game waits for
    may_speak: list[int]  # the seats with words out of turn (offers, otpis), not awaited
    deal_index: int
    finished: bool
    at: datetime | None  # when this version was reached (for deadlines)
    # Who said the word that led here: member, bot or timer (a person's time ran out).
    source: str | None = None
    # The table's standing "time ran out" note, (seat, word, version) of the last word the
    # timer said, until that seat says a word of its own or the deal changes.
    timeout: tuple[int, str, int] | None = None
    # Event frames already serialized, by (seat, what else they depend on): see frame_text.
    frames: dict = field(default_factory=dict, compare=False, repr=False)
    # The views of the version just before (``version - 1``), when the table had them: what
    # an event's view changes are taken against. None: the event carries the whole view.
    before: tuple[dict[str, str], ...] | None = field(default=None, compare=False, repr=False)

    def _parts(self, views: tuple[dict[str, str], ...], seat: int | None) -> dict[str, str]:
        return views[-1] if seat is None else views[seat]

    def view_json_for(self, seat: int | None) -> str:
        return _object_json(self._parts(self.views, seat))

    def view_changes_for(self, seat: int | None) -> tuple[str, list[str]] | None:
        """The seat's view against the version before: (the changed keys as a JSON object,
        the keys gone), or None when there is no version before to take them against."""
        if self.before is None:
            return None
        old, new = self._parts(self.before, seat), self._parts(self.views, seat)
        changed = [v for k, v in new.items() if old.get(k) != v]
        return "{" + ",".join(changed) + "}", [k for k in old if k not in new]

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """A fresh copy of the seat's view (the caller may keep or change it)."""
        return orjson.loads(self.view_json_for(seat))

    def legal_for(self, seat: int | None) -> list[str]:
        return [] if seat is None else self.legal[seat]

    def frame_text(self, key: Any, build) -> str:
        """The frame text for ``key``, built once (``build()``) and shared afterwards."""
        text = self.frames.get(key)
        if text is None:
            text = self.frames[key] = build()
        return text


class LiveTable:
    def __init__(self, partie_id: int, game: str, settings: dict, seed: str, history: int):
        self.partie_id = partie_id
        self.game = game
        self.engine = new_engine(game, settings, seed)
        self.n_seats: int = self.engine.n_seats
        self.version = 0
        self.lock = threading.RLock()
        self.history: deque[Snapshot] = deque(maxlen=history)
        self.broken = False
        # Copied from the partie row at every load, so events can be built without the database.
        self.timer: int | None = None
        self.bot_seats: set[int] = set()
        self.member_seats: dict[int, int] = {}
        # The members every view of the last snapshot shared, with their JSON: (key, id) -> (value, text).
        self._shared: dict[tuple[str, int], tuple[Any, str]] = {}

    def snapshot(self, action: tuple[int, str] | None, at: datetime | None, source: str | None = None) -> Snapshot:
        engine = self.engine
        finished = engine.finished
        before = self.history[-1] if self.history and self.history[-1].version == self.version - 1 else None
        to_act = [] if finished else list(engine.seats_to_act())
        views = [engine.view(s) for s in range(self.n_seats)]
        spectator = engine.view(None)
        # Every seat's words, not only the awaited ones: a game may let a player say
        # some words out of turn (offers, otpis). A seat's view carries them already
        # (app/games/base.py).
        legal = [[] if finished else list(v["legal_actions"]) for v in views]
        shown = [*views, spectator]
        # What every view shares (the engine's sheet, kept as one object until a deal ends)
        # is serialized once for all the versions that show it: its text is kept with the
        # object itself, so the identity cannot be another object's meanwhile.
        made = {ident: text for ident, (_, text) in self._shared.items()}
        parts = tuple(view_parts(v, made) for v in shown)
        first = shown[0]
        self._shared = {
            (key, id(value)): (value, made[(key, id(value))])
            for key, value in first.items()
            if isinstance(value, (dict, list)) and all(other.get(key) is value for other in shown[1:])
        }
        snap = Snapshot(
            version=self.version,
            action=action,
            # Serialized now: the snapshot must not change when the engine moves on.
            views=parts,
            legal=legal,
            to_act=to_act,
            may_speak=may_speak(to_act, legal),
            deal_index=engine.deal_index,
            finished=finished,
            at=at,
            source=source,
            timeout=standing_timeout(before, action, source, self.version, engine.deal_index),
            before=before.views if before is not None else None,
        )
        self.history.append(snap)
        return snap

    def apply(self, seat: int, word: str, at: datetime | None, source: str | None = None) -> Snapshot:
        self.apply_quietly(seat, word)
        return self.snapshot((seat, word), at, source)

    def apply_quietly(self, seat: int, word: str) -> None:
        """Apply without a snapshot: the caller takes one (or drops the table) before unlocking."""
        self.engine.apply(seat, word)
        self.version += 1

    def catch_up(self, session: Session) -> None:
        """Apply the logged actions this cache has not seen yet."""
        rows = session.execute(
            select(Action.seq, Action.seat, Action.word, Action.created_at, Action.source)
            .where(Action.partie_id == self.partie_id, Action.seq > self.version)
            .order_by(Action.seq)
        ).all()
        # Only the last few versions are kept as snapshots: replay the rest without views.
        quiet = len(rows) - (self.history.maxlen or len(rows))
        for i, (seq, seat, word, at, source) in enumerate(rows):
            if seq != self.version + 1:
                raise RuntimeError(f"partie {self.partie_id}: action log jumps from {self.version} to {seq}")
            if i < quiet:
                self.apply_quietly(seat, word)
                self.history.clear()
            else:
                self.apply(seat, word, at, source)

    @property
    def latest(self) -> Snapshot:
        return self.history[-1]

    def events_since(self, since: int) -> list[Snapshot] | None:
        """The snapshots after ``since``, or None when they are no longer kept (resync)."""
        if since == self.version:
            return []
        if since > self.version or not self.history or self.history[0].version > since + 1:
            return None
        return [snap for snap in self.history if snap.version > since]


class TableCache:
    def __init__(self, history: int = 64, capacity: int = 2000):
        self.history = history
        self.capacity = capacity
        self._tables: OrderedDict[int, LiveTable] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, session: Session, partie: Partie) -> LiveTable:
        """The cached table of a started partie, caught up to the database (lock it to use it)."""
        while True:
            table = self._get_or_add(partie)
            with table.lock:
                if table.broken:  # dropped while we waited for it (its words were not committed)
                    continue
                self._refresh(session, partie, table)
            return table

    def _get_or_add(self, partie: Partie) -> LiveTable:
        with self._lock:
            table = self._tables.get(partie.id)
            if table is not None and table.broken:
                table = None
            if table is None:
                table = LiveTable(partie.id, partie.game, partie.settings or {}, partie.seed, self.history)
                self._tables[partie.id] = table
            self._tables.move_to_end(partie.id)
            while len(self._tables) > self.capacity:
                self._tables.popitem(last=False)
        return table

    @staticmethod
    def _refresh(session: Session, partie: Partie, table: LiveTable) -> None:
        table.timer = partie.timer_seconds
        table.bot_seats = {row.seat for row in partie.seats if row.played_by_bot}
        table.member_seats = {row.member_id: row.seat for row in partie.seats if row.member_id is not None}
        if not table.history:
            table.snapshot(None, partie.started_at)
        if table.version < partie.version:
            table.catch_up(session)

    def peek(self, partie_id: int) -> LiveTable | None:
        with self._lock:
            table = self._tables.get(partie_id)
        return None if table is None or table.broken else table

    def invalidate(self, partie_id: int) -> None:
        with self._lock:
            table = self._tables.pop(partie_id, None)
        if table is not None:
            table.broken = True


def standing_timeout(
    before: Snapshot | None, action: tuple[int, str] | None, source: str | None, version: int, deal_index: int
) -> tuple[int, str, int] | None:
    """The "time ran out" note after a word: set by a word of the timer, kept until the
    same seat says another word or a new deal begins (docs/rulings.md)."""
    if action is None:
        return None
    if source == "timer":
        return action[0], action[1], version
    note = before.timeout if before is not None else None
    if note is None or action[0] == note[0] or deal_index != before.deal_index:
        return None
    return note


def deadline_after(snapshot: Snapshot, timer_seconds: int | None, bot_seats: set[int]) -> datetime | None:
    """The table's deadline after this snapshot, by the partie's clock (a slow partie's are its seats')."""
    return clock_of(timer_seconds).table_deadline(snapshot.to_act, snapshot.finished, snapshot.at, timer_seconds,
                                                  bot_seats)
