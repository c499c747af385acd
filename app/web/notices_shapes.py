"""The shapes of the frames the notices socket sends (app/web/notices_ws.py), as mypy
checks them where they are built."""

from __future__ import annotations

from typing import Literal, TypedDict

from app.parties.unread import UnreadCount


class UnreadFrame(UnreadCount):
    """The member's count of what waits for him: invitations and turns at other tables."""

    type: Literal["unread"]


class NoticeAbout(TypedDict, total=False):
    """What a notice is about, as much as its kind says (app/realtime/notices.py)."""

    kind: str
    partie: int
    game: str
    game_name: str | None
    by: str
    rematch_of: int
    tournament: int
    round: int
    name: str
    left: str
    league: int
    evening: int
    starts_at: str
    minutes: int


class NoticeFrame(NoticeAbout, UnreadCount):
    type: Literal["notice"]


class PlainFrame(TypedDict):
    """Something to read again (``lobby``, ``tournament``), or the answer to a ping."""

    type: Literal["lobby", "tournament", "pong"]


class NoticeErrorFrame(TypedDict):
    type: Literal["error"]
    code: str
    message: str


NoticesFrame = UnreadFrame | NoticeFrame | PlainFrame | NoticeErrorFrame
