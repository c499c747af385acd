"""Partie records (``klub-record/1``): reading, validating by replay, exporting.

The replay drives the very engine the server and the computer players use, so a record
is accepted exactly when the rules accept every word of it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.games.base import DealError, GameError, RecordError
from app.games.cards import CardError
from app.games.registry import engine_class

FORMAT = "klub-record/1"


def brief(value: Any, limit: int = 80, quote: bool = True) -> str:
    """``repr(value)`` (or the text itself) cut to ``limit`` characters, for messages about
    a record's values: an imported record may hold a name of 100 KB."""
    text = repr(value) if quote else str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _cut(error: Exception) -> str:
    """An engine's message, which may quote the record's values, cut to a sane length."""
    return brief(str(error), 400, quote=False)


def load_record(path: str | Path) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not JSON: {e}") from None
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    return record


PILE_KEYS = ("talon", "kitty", "stock")


def deal_pile(partie: Any, deal: dict[str, Any]) -> object:
    """The cards a record's deal sets aside, under the key the engine expects for it
    (``partie.pile_key``); :class:`DealError` for a pile the deal may not have."""
    key = partie.pile_key
    for other in PILE_KEYS:
        if other != key and other in deal:
            raise DealError(f"this deal has no {other}")
    return deal.get(key) if key else None


def replay(record: dict[str, Any]):
    """Replay a record through its engine; the engine at the end, or :class:`RecordError`."""
    if record.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {brief(record.get('format'))}")
    try:
        cls = engine_class(record.get("game"))
    except GameError as e:
        raise RecordError(_cut(e)) from None
    settings = record.get("settings", {})
    try:
        partie = cls.new(settings)
    except GameError as e:
        raise RecordError(f"settings: {_cut(e)}") from None
    n_seats = partie.n_seats  # the settings may say (Libyan Lora has 3 or 4)
    players = record.get("players")
    if not isinstance(players, list) or len(players) != n_seats:
        raise RecordError(f"{cls.game} with these settings has {n_seats} players, the record lists {brief(players)}")
    for seat, name in enumerate(players):
        if not isinstance(name, str):
            raise RecordError(f"players are names (strings); player {seat} is {brief(name)}")
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RecordError("'deals' must be a list")
    for d, deal in enumerate(deals):
        if not isinstance(deal, dict):
            raise RecordError("a deal must be an object with hands and actions", d)
        if partie.finished:
            raise RecordError("the partie had already ended before this deal", d)
        if not partie.needs_deal:
            raise RecordError(
                "this deal starts before the previous one ended", d - 1, len(deals[d - 1].get("actions", []))
            )
        try:
            partie.start_deal(deal.get("hands"), deal_pile(partie, deal))
        except (GameError, CardError) as e:
            raise RecordError(f"hands: {_cut(e)}", d) from None
        actions = deal.get("actions")
        if not isinstance(actions, list):
            raise RecordError("'actions' must be a list", d)
        for a, action in enumerate(actions):
            if (
                not isinstance(action, list)
                or len(action) != 2
                or not isinstance(action[0], int)
                or isinstance(action[0], bool)
                or not isinstance(action[1], str)
            ):
                raise RecordError(f"an action is [seat, word], got {brief(action)}", d, a)
            seat, word = action
            if not 0 <= seat < n_seats:
                raise RecordError(f"there is no seat {brief(seat)}", d, a)
            try:
                partie.apply(seat, word)
            except GameError as e:
                raise RecordError(f"seat {seat} {brief(word)}: {_cut(e)}", d, a) from None
    return partie


def replayed_record(record: dict[str, Any]) -> dict[str, Any]:
    """The record as given, with ``result`` computed by the replay."""
    partie = replay(record)
    out = dict(record)
    out["result"] = partie.result()
    return out
