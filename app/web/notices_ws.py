"""``/ws/notices``: what concerns a member, pushed to every page he has open.

Frames of the server:

- ``unread``: ``count`` (app/parties/unread.py), ``invitations`` and ``turns`` (partie
  ids); on connect, and whenever a notice may have changed them;
- ``notice``: something to tell the member (``kind``: invited, accepted, declined,
  joined, started, turn, ended, round, reminder, evening; a turn only while it counts: not at a
  table he sits at), with ``partie``, ``game``, ``game_name`` (in the page's language),
  ``by`` (who did it, when someone did), ``rematch_of`` (an invitation to a revanš),
  ``left`` (a reminder: the seconds left), a league's evening (``league``, ``evening``,
  ``tournament``, ``name``, ``starts_at``, ``minutes``) and the new ``count``,
  ``invitations`` and ``turns``;
- ``lobby`` (with ``?lobby=1`` only, as the lobby page connects): the proposals or tables
  changed, read the lobby again;
- ``tournament`` (with ``?tournament=ID``, as a tournament's page connects): its rounds,
  players or standings changed, read the page again;
- ``pong``, ``error`` (``code``, ``message``).

The client may send ``{"type": "ping"}``. The handshake is checked as a table socket's
(``Origin`` = ``KLUB_SITE_ORIGIN``, a live session); a member has at most
:data:`MAX_SOCKETS` of these; an ended session closes them with 4401.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, cast

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from app.club import Club
from app.games.registry import descriptors
from app.members.service import CurrentMember, touch_member
from app.parties.unread import UnreadCount, unread
from app.realtime.notices import LOBBY_CHANNEL, TOLD, TOURNAMENT_PREFIX, member_channel
from app.tables import ratelimit
from app.tables.ws import CLOSE_SESSION_ENDED, MAX_FRAME, accept_member, frame_size, recheck_session, run_until_one_ends
from app.web.i18n import COOKIE, DEFAULT_LANG, LANGUAGES
from app.web.notices_shapes import NoticeAbout, NoticeErrorFrame, NoticeFrame, NoticesFrame, PlainFrame, UnreadFrame

log = logging.getLogger("klub.notices")
router = APIRouter()

MAX_SOCKETS = 16  # per member and instance: one per open page


def _limits(app: Any) -> ratelimit.MemberLimits:
    limits = getattr(app.state, "notice_limits", None)
    if limits is None:
        limits = app.state.notice_limits = ratelimit.MemberLimits(max_connections=MAX_SOCKETS)
    return limits


class NoticeConnection:
    def __init__(self, ws: WebSocket, club: Club, member: CurrentMember, lang: str):
        self.ws = ws
        self.club = club
        self.member = member
        self.lang = lang
        self.bucket = ratelimit.TokenBucket(ratelimit.SOCKET_RATE_PER_SECOND, ratelimit.SOCKET_RATE_BURST)
        self.counted: UnreadCount | None = None  # the count last sent

    async def send(self, frame: NoticesFrame) -> None:
        await self.ws.send_text(json.dumps(frame, ensure_ascii=False))

    async def count(self) -> UnreadCount:
        self.counted = counted = await run_in_threadpool(unread, self.club, self.member.id)
        return counted

    async def send_unread(self) -> None:
        await self.send(UnreadFrame(type="unread", **await self.count()))

    async def on_notices(self, batch: list[tuple[str, dict[str, Any]]]) -> bool:
        """A batch of notices (all that waited); False when the socket must close."""
        mine, lobby, tournament = [], False, False
        for channel, notice in batch:
            if channel == "sessions":
                if self.member.session_id in notice.get("sessions", ()):
                    await self.send(NoticeErrorFrame(type="error", code="session_ended",
                                                     message="your session has ended; log in again"))
                    await self.ws.close(code=CLOSE_SESSION_ENDED)
                    return False
            elif channel == LOBBY_CHANNEL:
                lobby = True
            elif channel.startswith(TOURNAMENT_PREFIX):
                tournament = True
            else:
                mine.append(notice)
        if mine and self.changes_nothing(mine):
            mine = []
        if mine:
            before = self.counted
            known = self.count_without_reading(mine)
            counted = known if known is not None else await self.count()
            self.counted = counted
            # A turn at a table he sits at is not told (nor counted): the table shows it.
            told = [n for n in mine if n.get("kind") in TOLD
                    and not (n.get("kind") == "turn" and n.get("partie") not in counted["turns"])]
            for notice in told:
                await self.send(NoticeFrame(type="notice", **self.described(notice), **counted))
            if not told and (known is None or counted != before):
                await self.send(UnreadFrame(type="unread", **counted))
        if lobby:
            await self.send(PlainFrame(type="lobby"))
        if tournament:
            await self.send(PlainFrame(type="tournament"))
        return True

    def changes_nothing(self, notices: list[dict[str, Any]]) -> bool:
        """Turns begun or ended at tables he sits at now (on this instance): his count leaves
        those tables out (app/parties/unread.py), so it stays as it was and nothing is told.
        Most words of a partie are such: counting them again read the database each time."""
        if any(n.get("kind") not in ("turn", "moved") for n in notices):
            return False
        here = self.club.viewers.seated_at(self.member.id)
        return all(n.get("partie") in here for n in notices)

    def count_without_reading(self, notices: list[dict[str, Any]]) -> UnreadCount | None:
        """The count after notices that say themselves how it changes, from the last one
        (None: read it), so that a round's hundreds of tables starting and opening at once
        do not each count again: he opened (or closed) his seat's table on this instance
        (``present``: a turn there is not counted while he sits at it), or a round of his
        tournament began (``round``, whose ``turn`` says whether his seat is to act first).
        As app/parties/unread.py would read it."""
        if self.counted is None or any(n.get("kind") not in ("present", "round") for n in notices):
            return None
        if any(n.get("kind") == "round" and not isinstance(n.get("turn"), bool) for n in notices):
            return None  # an older instance's notice: read it
        here = self.club.viewers.seated_at(self.member.id)
        if any(n.get("kind") == "present" and n.get("partie") not in here for n in notices):
            return None  # he left a table (or sits at it through another instance)
        started = [n["partie"] for n in notices if n.get("kind") == "round" and n["turn"]]
        turns = [p for p in dict.fromkeys([*self.counted["turns"], *started]) if p not in here]
        return UnreadCount(count=len(self.counted["invitations"]) + len(turns),
                           invitations=self.counted["invitations"], turns=sorted(turns))

    def described(self, notice: dict[str, Any]) -> NoticeAbout:
        names = {g.code: g.name(self.lang) for g in descriptors()}
        keys = ("kind", "partie", "game", "by", "rematch_of", "tournament", "round", "name", "left", "league",
                "evening", "starts_at", "minutes")
        out = cast(NoticeAbout, {k: notice[k] for k in keys if k in notice})
        out["game_name"] = names.get(notice.get("game", ""), notice.get("game"))
        return out

    async def handle(self, data: str | bytes) -> None:
        if not self.bucket.allow():
            await self.send(NoticeErrorFrame(type="error", code="rate_limited", message="too many frames; slow down"))
            return
        if frame_size(data) > MAX_FRAME:
            await self.send(NoticeErrorFrame(type="error", code="frame_too_large",
                                             message=f"a frame has at most {MAX_FRAME} bytes"))
            return
        try:
            msg = orjson.loads(data)
        except (ValueError, RecursionError):
            msg = None
        if isinstance(msg, dict) and msg.get("type") == "ping":
            await run_in_threadpool(touch_member, self.club.db, self.member.id)
            await self.send(PlainFrame(type="pong"))
        else:
            await self.send(NoticeErrorFrame(type="error", code="unknown_type", message="the only frame is a ping"))


@router.websocket("/ws/notices")
async def notices_socket(websocket: WebSocket):
    club: Club = websocket.app.state.club
    opened = await accept_member(websocket, club)
    if opened is None:
        return
    member, token = opened
    limits = _limits(websocket.app)
    if not limits.open(member.id):
        message = f"at most {MAX_SOCKETS} pages per member listen for notices; close another one"
        await websocket.send_text(json.dumps({"type": "error", "code": "too_many_connections", "message": message}))
        await websocket.close(code=ratelimit.CLOSE_TOO_MANY, reason="too many connections")
        return
    lang = websocket.cookies.get(COOKIE)
    conn = NoticeConnection(websocket, club, member, lang if lang in LANGUAGES else DEFAULT_LANG)
    channels = [member_channel(member.id), "sessions"]
    if websocket.query_params.get("lobby") == "1":
        channels.append(LOBBY_CHANNEL)
    watched = websocket.query_params.get("tournament", "")
    if watched.isascii() and watched.isdigit() and len(watched) < 19:
        channels.append(f"{TOURNAMENT_PREFIX}{int(watched)}")
    queue: asyncio.Queue = asyncio.Queue()
    for channel in channels:  # before the first count: nothing after it is missed
        club.hub.subscribe(channel, queue)
    try:
        await conn.send_unread()
        await _serve(conn, queue, token)
    except (WebSocketDisconnect, RuntimeError):
        pass  # the page went away (before its first frame, or while one was sent)
    finally:
        limits.close(member.id)
        for channel in channels:
            club.hub.unsubscribe(channel, queue)


async def _serve(conn: NoticeConnection, queue: asyncio.Queue, token: str | None) -> None:
    async def read() -> None:
        while True:
            message = await conn.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            await conn.handle(text if text is not None else message.get("bytes") or "")

    async def write() -> None:
        while True:
            batch = [await queue.get()]
            while not queue.empty():  # a burst of notices: one count for all of them
                batch.append(queue.get_nowait())
            if not await conn.on_notices(batch):
                return

    async def session_ended() -> None:
        await conn.send(NoticeErrorFrame(type="error", code="session_ended", message="your session has ended; log in again"))
        await conn.ws.close(code=CLOSE_SESSION_ENDED)

    await run_until_one_ends([read(), write(), recheck_session(conn.club, token, session_ended)], "notices")
