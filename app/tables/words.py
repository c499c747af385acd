"""A word said at a table and its answer: what the word path (app/tables/service.py)
takes and gives back, the client's action ids, and the engine's reason for a refusal."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from app.errors import Conflict
from app.games.base import GameError


@dataclass(frozen=True)
class Word:
    """A word to apply: who says it, at which version, with which client action id."""

    partie_id: int
    seat: int
    word: str
    version: int
    action_id: str | None
    member_id: int | None
    source: str  # member, bot or timer


@dataclass(frozen=True)
class Applied:
    version: int
    seat: int
    word: str
    duplicate: bool  # a resend of an action id that was already applied


class StaleVersion(Conflict):
    code = "stale_version"


# The source of a round's deadline word (app/tournaments/rounds.py): the server's, never in
# a seat's legal words; the game's engine alone accepts or refuses it.
DEADLINE = "deadline"


# A client's action id: 1 to 64 characters, no control character (it is stored and looked
# up, and PostgreSQL's text holds no NUL).
ACTION_ID_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]{1,64}$"
_ACTION_ID = re.compile(ACTION_ID_PATTERN)


def action_id_ok(action_id: object) -> bool:
    return isinstance(action_id, str) and _ACTION_ID.match(action_id) is not None


def illegal_reason(engine: Any, seat: int, word: str) -> str:
    """The engine's own reason for refusing ``word``, asked of a copy (the error path only)."""
    try:
        copy.deepcopy(engine).apply(seat, word)
    except GameError as e:
        return str(e)
    return "the rules do not allow it now"
