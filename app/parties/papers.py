"""The papir of a finished partie, for statistics: its lines, replayed once per process.

A game whose engine keeps a papir (descriptor ``keeps_papir``) writes a line per hand;
``Partie.result`` keeps only the sums, so the lines come from replaying the action log
from the seed (tens of milliseconds a partie). A finished partie never changes, so the
lines are remembered (least recently used first out) by database, partie and seed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from app.db.models import Action, Partie
from app.parties.engines import game_of, new_engine

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from app.club import Club

CAPACITY = 4096

_lines: OrderedDict[tuple[str, int, str], list[dict[str, Any]]] = OrderedDict()
_lock = threading.Lock()


def papir_lines(club: Club, session: Session, partie: Partie) -> list[dict[str, Any]] | None:
    """The papir's lines of a finished partie (None: its game keeps no papir)."""
    game = game_of(partie.game)
    if not game.keeps_papir or partie.status != "finished" or partie.seed is None:
        return None
    key = (club.settings.database_url, partie.id, partie.seed)
    with _lock:
        found = _lines.get(key)
        if found is not None:
            _lines.move_to_end(key)
            return found
    engine = new_engine(partie.game, partie.settings or {}, partie.seed)
    for seat, word in session.execute(
        select(Action.seat, Action.word).where(Action.partie_id == partie.id).order_by(Action.seq)
    ):
        engine.apply(seat, word)
    papir = game.papir(engine) or {}
    lines = [dict(line) for line in papir.get("lines", [])]
    with _lock:
        _lines[key] = lines
        while len(_lines) > CAPACITY:
            _lines.popitem(last=False)
    return lines
