"""The frames a table sends: a versioned event as one seat may see it, and the whole state.

An event frame is built once as JSON text per (version, seat, deadline) and shared by
every connection of that seat (the views inside are cached JSON too); the REST event
list decodes the same text, so there is one builder.

An event carries the seat's view as its changes since the version before (issue 28: the
whole view on every event was most of the bytes; a preferans papir alone grows to tens
of kilobytes): ``view_changes``, the top-level keys of the view whose value changed, each
with its whole new value, and ``view_removed``, the keys gone (only when some are). The
reader's view of ``version - 1`` with these keys replaced (and those removed) is the
view of ``version``; :func:`apply_view_changes` does it. An event after a version the
table no longer has in memory carries the whole ``view`` instead. A reader without the
view of ``version - 1`` (a gap, or a state frame without a view) asks for the state.
"""

from __future__ import annotations

from typing import Any

import orjson

from app.db.models import Partie
from app.parties.lookup import bot_seats, seats_info
from app.tables.cache import Snapshot, deadline_after, to_json
from app.tables.shapes import StateFrame, TimeoutNote
from app.parties.engines import game_of


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def event_text(game: str, snap: Snapshot, seat: int | None, timer: int | None, bots: set[int]) -> str:
    """One versioned event as ``seat`` may see it, as JSON text (built once, then shared)."""
    deadline = _iso(deadline_after(snap, timer, bots))

    def build() -> str:
        parts = ['{"type":"event","version":', str(snap.version)]
        if snap.action is not None:
            actor, word = snap.action
            shown = game_of(game).public_word(word, actor == seat)
            action: dict[str, Any] = {"seat": actor, "word": shown}
            if snap.source == "timer":
                action["timer"] = True  # the player's time ran out: the computer said it
            parts += [',"action":', to_json(action)]
        changes = snap.view_changes_for(seat)
        if changes is None:
            parts += [',"view":', snap.view_json_for(seat)]
        else:
            changed, removed = changes
            parts += [',"view_changes":', changed]
            if removed:
                parts += [',"view_removed":', to_json(removed)]
        parts += [
            ',"legal":', to_json(snap.legal_for(seat)),
            ',"to_act":', to_json(snap.to_act),
            ',"may_speak":', to_json(snap.may_speak),
            ',"deal_index":', to_json(snap.deal_index),
            ',"finished":', to_json(snap.finished),
            ',"deadline":', to_json(deadline),
            "}",
        ]
        return "".join(parts)

    return snap.frame_text((seat, deadline), build)


def apply_view_changes(view: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any] | None:
    """The view an event frame leads to from ``view`` (the reader's view of the version
    before): a new dict, ``view`` is left as it is. None when the frame carries changes
    and there is no view to apply them to (the reader must ask for the state)."""
    if "view" in frame:
        return frame["view"]
    if view is None or "view_changes" not in frame:
        return None
    out = {**view, **frame["view_changes"]}
    for key in frame.get("view_removed", ()):
        out.pop(key, None)
    return out


def event_frame(game: str, snap: Snapshot, seat: int | None, timer: int | None, bots: set[int]) -> dict[str, Any]:
    """:func:`event_text` as a dict (the REST event list)."""
    return orjson.loads(event_text(game, snap, seat, timer, bots))


def state_frame(partie: Partie, snap: Snapshot | None, seat: int | None) -> StateFrame:
    """The whole picture for ``seat``: sent on connect and whenever a client must resync."""
    frame: StateFrame = {
        "type": "state",
        "partie": partie.id,
        "game": partie.game,
        "status": partie.status,
        "settings": partie.settings,
        "timer": partie.timer_seconds,
        "seat": seat,
        "seats": seats_info(partie),
        "seats_version": partie.seats_version,
        "version": partie.version,
    }
    if snap is not None:
        frame["version"] = snap.version
        frame["view"] = snap.view_for(seat)
        frame["legal"] = snap.legal_for(seat)
        frame["to_act"] = snap.to_act
        frame["may_speak"] = snap.may_speak
        frame["deal_index"] = snap.deal_index
        frame["finished"] = snap.finished
        frame["deadline"] = _iso(deadline_after(snap, partie.timer_seconds, bot_seats(partie)))
        frame["timeout"] = timeout_note(partie.game, snap, seat)
    return frame


def timeout_note(game: str, snap: Snapshot, seat: int | None) -> TimeoutNote | None:
    """The standing "time ran out" note as ``seat`` may see it: the seat whose time ran
    out, the word the computer said for it, the version it was said at, the deal after it."""
    if snap.timeout is None:
        return None
    actor, word, version = snap.timeout
    return {"seat": actor, "word": game_of(game).public_word(word, actor == seat), "version": version}
