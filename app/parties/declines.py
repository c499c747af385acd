"""A declined invitation may say why (issue 39): the invited member's (or bot's) own
words, kept on his seat (``partie_seats.decline_reason``) and shown with it
(``seats[].decline_reason``) to the proposer and the other players, as a bot's lichess
decline carries its reason."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sqlalchemy import select

from app.db.models import PartieSeat
from app.errors import Invalid

if TYPE_CHECKING:
    from app.club import Club

MAX_REASON = 200
# One line of text: no control characters (line breaks, NUL, ...) and no lone surrogates.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def check_reason(reason: str | None) -> str | None:
    """The reason as kept (stripped; None when empty), or 422 ``invalid_reason``."""
    if reason is None:
        return None
    if not isinstance(reason, str) or len(reason.strip()) > MAX_REASON or CONTROL.search(reason):
        raise Invalid(f"a decline's reason is one line of at most {MAX_REASON} characters", code="invalid_reason")
    return reason.strip() or None


def give_reason(club: Club, member_id: int, partie_id: int, reason: str | None) -> None:
    """Keep the reason on the member's invited seat before he declines (a seat that is not
    his invitation is left alone: the answer itself refuses it)."""
    with club.db.write() as s:
        row = s.scalar(select(PartieSeat).where(PartieSeat.partie_id == partie_id, PartieSeat.member_id == member_id,
                                                PartieSeat.answer == "invited"))
        if row is not None:
            row.decline_reason = reason
