"""An independent referee for Lora (the Club's and the house rules) and Lórum (with extras).

Written only from the rule texts (``/work/shared/rules``: rulings.md L1-L4 and V1-V17,
lora.sr.md, lora-variants.fa.md, lorum-hu.ru.md) and the record format; it shares no code
with the engine under test. ``referee_result(record)`` replays a ``klub-record/1`` record,
checks every action on the way and returns the ``result`` the record format defines, or
raises ``RefereeError`` (deal index, action index, reason) for an impossible record.
"""

from __future__ import annotations

from typing import Any

from .errors import RefereeError
from .lora import lora_result
from .lorum import lorum_result

__all__ = ["RefereeError", "referee_result"]


def referee_result(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a Lora or Lórum record and return its ``result``."""
    game = record.get("game") if isinstance(record, dict) else None
    if game == "lora":
        return lora_result(record)
    if game == "lorum":
        return lorum_result(record)
    raise RefereeError(f"the referee knows Lora and Lórum, not {game!r}")
