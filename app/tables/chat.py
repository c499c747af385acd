"""Chat at a table: the players write, everyone watching reads; stored with the partie.

A bot account's message is marked (``bot``, ``bot_owner``); a member may mute a bot's
chat (``chat_mutes``): its messages are left out of every chat he reads, the history and
his table sockets' ``chat`` frames alike."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select

from app.db.models import ChatMessage, ChatMute, Member
from app.errors import Forbidden, Invalid, NotFound
from app.members.service import CurrentMember
from app.parties.lookup import get_partie, seat_of
from app.parties.visibility import check_may_watch

if TYPE_CHECKING:
    from app.club import Club


def message_dict(msg: ChatMessage, author: Member) -> dict[str, Any]:
    out = {"id": msg.id, "from": author.name, "text": msg.text, "at": msg.created_at.isoformat()}
    if author.role == BOT_ROLE:  # a bot account: marked, with its owner (app/bots/)
        out["bot"] = True
        out["bot_owner"] = author.bot_owner_name
    return out


BOT_ROLE = "bot"


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
        out = message_dict(msg, s.get(Member, member.id))
        version = partie.version
    club.notify_partie(partie_id, {"kind": "chat", "message": out, "version": version, "author": member.id,
                                   "bot": bool(out.get("bot"))})
    return out


def history(club: Club, partie_id: int, member_id: int | None, limit: int = 200) -> list[dict[str, Any]]:
    with club.db.read() as s:
        check_may_watch(s, get_partie(s, partie_id), member_id)
        stmt = select(ChatMessage).where(ChatMessage.partie_id == partie_id)
        if member_id is not None:
            stmt = stmt.where(ChatMessage.member_id.not_in(select(ChatMute.muted_id).where(ChatMute.member_id == member_id)))
        rows = s.scalars(stmt.order_by(ChatMessage.id.desc()).limit(limit)).all()
        return [message_dict(m, m.member) for m in reversed(rows)]


def is_muted(club: Club, member_id: int, author_id: int) -> bool:
    """Whether the member muted this author's chat (a table socket asks for a bot's message)."""
    with club.db.read() as s:
        return s.get(ChatMute, (member_id, author_id)) is not None


def _bot_named(s, name: str) -> Member:
    bot = s.scalar(select(Member).where(Member.name_key == str(name).lower()))
    if bot is None or bot.role != BOT_ROLE:
        raise NotFound(f"there is no bot named {name!r} (only a bot's chat may be muted)", code="no_such_bot")
    return bot


def set_muted(club: Club, member: CurrentMember, name: str, muted: bool) -> dict[str, Any]:
    """Mute (or unmute) a bot's chat for the member: at once, in every table's chat."""
    with club.db.write() as s:
        bot = _bot_named(s, name)
        known = s.get(ChatMute, (member.id, bot.id))
        if muted and known is None:
            s.add(ChatMute(member_id=member.id, muted_id=bot.id, created_at=club.clock.now()))
        elif not muted and known is not None:
            s.execute(delete(ChatMute).where(ChatMute.member_id == member.id, ChatMute.muted_id == bot.id))
        return {"bot": bot.name, "muted": muted}


def muted_bots(club: Club, member: CurrentMember) -> list[str]:
    with club.db.read() as s:
        return list(s.scalars(select(Member.name).join(ChatMute, ChatMute.muted_id == Member.id)
                              .where(ChatMute.member_id == member.id).order_by(Member.name_key)))
