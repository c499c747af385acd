"""Chat at a table: the players write, everyone watching reads; stored with the partie."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from app.db.models import ChatMessage
from app.errors import Forbidden, Invalid
from app.members.service import CurrentMember
from app.parties.lookup import get_partie, seat_of
from app.parties.visibility import check_may_watch

if TYPE_CHECKING:
    from app.club import Club


def message_dict(msg: ChatMessage, name: str) -> dict[str, Any]:
    return {"id": msg.id, "from": name, "text": msg.text, "at": msg.created_at.isoformat()}


# Control characters (Unicode Cc: NUL, escape, line breaks, DEL, C1) and lone surrogates:
# a chat message is one line of text (the page's input is one line).
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def post(club: Club, member: CurrentMember, partie_id: int, text: str) -> dict[str, Any]:
    text = (text or "").strip() if isinstance(text, str) else ""
    limit = club.settings.chat_max_length
    if not text or len(text) > limit:
        raise Invalid(f"a chat message has 1 to {limit} characters", code="invalid_chat")
    if CONTROL.search(text):
        raise Invalid("a chat message has no control characters (NUL, line breaks, ...)", code="invalid_chat")
    with club.db.write() as s:
        partie = get_partie(s, partie_id)
        if seat_of(partie, member.id) is None:
            raise Forbidden("only the players write in this table's chat", code="not_a_player")
        msg = ChatMessage(partie_id=partie_id, member_id=member.id, text=text)
        s.add(msg)
        s.flush()
        out = message_dict(msg, member.name)
        version = partie.version
    club.notify_partie(partie_id, {"kind": "chat", "message": out, "version": version})
    return out


def history(club: Club, partie_id: int, member_id: int | None, limit: int = 200) -> list[dict[str, Any]]:
    with club.db.read() as s:
        check_may_watch(s, get_partie(s, partie_id), member_id)
        rows = s.scalars(
            select(ChatMessage).where(ChatMessage.partie_id == partie_id).order_by(ChatMessage.id.desc()).limit(limit)
        ).all()
        return [message_dict(m, m.member.name) for m in reversed(rows)]
