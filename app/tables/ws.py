"""``/ws/parties/{id}``: a live table over WebSocket.

Server frames (every one carries ``version``, the partie version it reflects):

- ``state``: the whole picture for this seat (on connect, or to resync);
- ``event``: one applied action (``action`` seat/word as this seat may know it) with the
  seat's view after it as its changes since the version before (``view_changes``,
  ``view_removed``; the whole ``view`` when the version before is no longer kept:
  app/tables/frames.py), its ``legal`` words, the turn (``to_act``) and the seats that
  may speak out of turn (``may_speak``); versions come one by one, without gaps;
- ``ack`` / ``error``: the answer to the client's ``action`` (by its ``id``);
- ``seats`` (away, computer takeover; a slow partie's clocks as ``slow``; at a tournament
  table ``round_time_up``, as in the state: its round's deadline passed and the computer
  players finish the partie), ``chat``, ``pong``;
- ``watchers``: the names of the members watching the table (spectators) whenever one
  comes or goes (the ``state`` frame, and the ``seats`` frame of a reconnection, carry
  them as ``watchers`` too).

An event whose word the computer said for a player whose time ran out marks its
``action`` with ``"timer": true``; the state frame's ``timeout`` is that note while it
stands (seat, word, version), until the seat speaks again or the deal changes.

Client frames: ``{"type": "action", "word", "version", "id"}``, ``{"type": "chat",
"text"}``, ``{"type": "resync"}``, ``{"type": "ping"}``. Connect with ``?since=V`` (the
client has the view of version V) to get the events after version V (or a ``state``
frame when they are too old); a client without the view of the version before an event
sends ``resync``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from starlette.websockets import WebSocketState

from app.club import Club
from app.errors import ClubError
from app.games.records import brief
from app.members.service import CurrentMember, authenticate, touch_member
from app.realtime import notices
from app.tables import chat, presence, ratelimit, reads, service
from app.tables.cache import to_json
from app.members.cookies import session_token
from app.deps import MAX_ID

log = logging.getLogger("klub.ws")
router = APIRouter()

MAX_FRAME = 16 * 1024
CLOSE_POLICY = 1008
CLOSE_SESSION_ENDED = 4401
CLOSE_NOT_FOUND = 4404
SESSION_RECHECK_SECONDS = 60


class TableConnection:
    def __init__(self, ws: WebSocket, club: Club, partie_id: int, member: CurrentMember, seat: int | None):
        self.ws = ws
        self.club = club
        self.partie_id = partie_id
        self.member = member
        self.seat = seat
        self.sent_version = -1
        self.status: str | None = None
        self.token: str | None = None
        self.send_lock = asyncio.Lock()
        self.bucket = ratelimit.TokenBucket(ratelimit.SOCKET_RATE_PER_SECOND, ratelimit.SOCKET_RATE_BURST)
        self.limits: ratelimit.MemberLimits | None = None  # shared by the member's sockets

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send_text(to_json(frame))

    async def send_state(self) -> None:
        async with self.send_lock:
            state = await run_in_threadpool(reads.table_state, self.club, self.partie_id, self.member)
            self.seat, self.status = state["seat"], state["status"]
            await self.send(self.with_watchers(state))
            self.sent_version = state["version"]

    async def start(self, since: str | None) -> None:
        """The first frames: the events after ``since`` when the client has a version, else the state."""
        state = await run_in_threadpool(reads.table_state, self.club, self.partie_id, self.member)
        self.seat, self.status = state["seat"], state["status"]
        if since is not None and since.isdigit() and int(since) <= state["version"]:
            self.sent_version = int(since)
            await self.catch_up()
            async with self.send_lock:  # who is away (or watches) may have changed while the client was gone
                seats = {"type": "seats", "version": self.sent_version, "seats": state["seats"]}
                await self.send(self.with_watchers(seats))
            return
        async with self.send_lock:
            await self.send(self.with_watchers(state))
            self.sent_version = state["version"]

    def with_watchers(self, frame: dict[str, Any]) -> dict[str, Any]:
        """The frame with the spectators' names (this connection's member counted once he is one)."""
        names = self.club.viewers.spectators(self.partie_id)
        if self.seat is None and self.member.name not in names:
            names = sorted([*names, self.member.name], key=str.casefold)
        frame["watchers"] = names
        return frame

    async def catch_up(self, known_version: int | None = None) -> None:
        """Send every event after the last one this client got (or a state to resync).

        ``known_version``: a version known to exist; when the cache already has it the
        frames are built from memory, without a thread or the database. Event frames come
        as text serialized once per (version, seat) and shared by the seat's connections.
        """
        async with self.send_lock:
            frames, state = None, None
            if known_version is not None:
                args = (self.club, self.partie_id, self.seat, self.sent_version, known_version)
                frames = reads.cached_event_texts_since(*args, blocking=False)
                if frames is None:  # the table is busy (a word being committed): wait for it in a thread
                    frames = await run_in_threadpool(reads.cached_event_texts_since, *args)
            if frames is None:
                frames, state = await run_in_threadpool(
                    reads.event_texts_since, self.club, self.partie_id, self.seat, self.sent_version
                )
            if state is not None:
                await self.send(state)
                self.sent_version, self.status = state["version"], state["status"]
            for version, finished, text in frames:
                if version > self.sent_version:
                    await self.ws.send_text(text)
                    self.sent_version = version
                    if finished:
                        self.status = "finished"

    async def error(self, code: str, message: str, **extra: Any) -> None:
        async with self.send_lock:
            await self.send({"type": "error", "code": code, "message": message, "version": self.sent_version, **extra})

    # -- client frames -------------------------------------------------------------

    async def handle(self, data: str | bytes) -> None:
        if not self.bucket.allow() or (self.limits is not None and not self.limits.allow(self.member.id)):
            await self.error("rate_limited", "too many frames; slow down")
            return
        if frame_size(data) > MAX_FRAME:
            await self.error("frame_too_large", f"a frame has at most {MAX_FRAME} bytes")
            return
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        try:
            # orjson: nesting past 1,024 levels, NaN and lone surrogates are a JSONDecodeError
            # (json.loads raised RecursionError on deep nesting, which ended the socket).
            msg = orjson.loads(text)
        except (ValueError, RecursionError) as e:
            await self.error("bad_json", f"a frame is one JSON object ({brief(str(e), 120, quote=False)})")
            return
        if not isinstance(msg, dict):
            await self.error("bad_frame", "a frame is one JSON object")
            return
        kind = msg.get("type")
        if kind == "action":
            await self.on_action(msg)
        elif kind == "chat":
            await self.on_chat(msg)
        elif kind == "resync":
            await self.send_state()
        elif kind == "ping":
            await run_in_threadpool(touch_member, self.club.db, self.member.id)
            async with self.send_lock:
                await self.send({"type": "pong", "version": self.sent_version})
        else:
            await self.error("unknown_type", "type is action, chat, resync or ping")

    async def on_action(self, msg: dict[str, Any]) -> None:
        action_id = msg.get("id")
        word, version = msg.get("word"), msg.get("version")
        if action_id is not None and not service.action_id_ok(action_id):
            await self.error("bad_frame", "id is a string of 1 to 64 characters, none of them a control character")
            return
        if not isinstance(word, str) or not isinstance(version, int) or isinstance(version, bool):
            await self.error("bad_frame", "an action has a word (string) and a version (integer)", id=action_id)
            return
        try:
            applied = await self.submit(word, version, action_id)
        except ClubError as e:
            if e.code == "stale_version":
                # The client decided on an old state: bring it up to date first.
                await self.catch_up()
            await self.error(e.code, e.message, id=action_id, **{k: v for k, v in e.extra.items() if k != "current"})
            return
        await self.catch_up(applied.version)
        async with self.send_lock:
            await self.send({"type": "ack", "id": action_id, "version": applied.version, "duplicate": applied.duplicate})

    async def submit(self, word: str, version: int, action_id: str | None) -> service.Applied:
        club = self.club
        seat = service.cached_seat(club, self.partie_id, self.member.id)
        if seat is not None and club.writer is not None:
            # Straight to the word writer: no worker thread in between.
            word_ = service.Word(self.partie_id, seat, word, version, action_id, self.member.id, "member")
            return await club.writer.submit_async(word_)
        return await run_in_threadpool(service.submit, club, self.partie_id, self.member, word, version, action_id)

    async def on_chat(self, msg: dict[str, Any]) -> None:
        try:
            await run_in_threadpool(chat.post, self.club, self.member, self.partie_id, msg.get("text"))
        except ClubError as e:
            await self.error(e.code, e.message)

    # -- notices from the hub --------------------------------------------------------

    async def on_notice(self, channel: str, notice: dict[str, Any]) -> bool:
        """Handle one notice; False when the connection must close."""
        kind = notice.get("kind")
        if channel == "sessions":
            if self.member.session_id in notice.get("sessions", ()):
                await self.error("session_ended", "your session has ended; log in again")
                await self.ws.close(code=CLOSE_SESSION_ENDED)
                return False
            return True
        if kind == "advance":
            if notice.get("version", 0) > self.sent_version:
                await self.catch_up(notice.get("version"))
        elif kind == "seats":
            summary = await run_in_threadpool(reads.table_state, self.club, self.partie_id, self.member)
            if summary["status"] != self.status:
                await self.send_state()  # the partie started, ended or was withdrawn
                return True
            frame = {"type": "seats", "version": self.sent_version, "seats": summary["seats"]}
            if "slow" in summary:  # a slow partie's clocks changed with the seats (app/parties/slow.py)
                frame["slow"] = summary["slow"]
            if "round_time_up" in summary:  # a tournament round's deadline passed (app/tables/reads.py)
                frame["round_time_up"] = summary["round_time_up"]
            async with self.send_lock:
                await self.send(frame)
        elif kind == "chat":
            async with self.send_lock:
                await self.send({"type": "chat", "version": self.sent_version, "message": notice.get("message")})
        elif kind == "watchers":
            # The member who came has the names in his first frames; the one who went is gone.
            if notice.get("member") != self.member.id:
                await self.send_watchers()
        return True

    async def send_watchers(self) -> None:
        names = self.club.viewers.spectators(self.partie_id)
        async with self.send_lock:
            await self.send({"type": "watchers", "version": self.sent_version, "watchers": names})


def frame_size(data: str | bytes) -> int:
    """A frame's size in bytes as it came over the wire (UTF-8), before anything is parsed."""
    if isinstance(data, bytes) or len(data) > MAX_FRAME or len(data) * 4 <= MAX_FRAME:
        return len(data)  # bytes; or surely over / surely under the cap whatever the characters
    return len(data.encode("utf-8", "surrogatepass"))


def _connected(ws: WebSocket) -> bool:
    return ws.client_state == WebSocketState.CONNECTED and ws.application_state == WebSocketState.CONNECTED


def _presence_key(partie_id: int, member_id: int) -> tuple[int, int]:
    return partie_id, member_id


async def accept_member(websocket: WebSocket, club: Club) -> tuple[CurrentMember, str | None] | None:
    """The handshake of a member's socket: the Club's Origin and a live session, else the
    socket is closed before accept (the handshake gets 403) and None returned."""
    if websocket.headers.get("origin") != club.settings.site_origin:
        await websocket.close(code=CLOSE_POLICY)
        return None
    token = session_token(websocket, club.settings)
    try:
        member = await run_in_threadpool(authenticate, club.db, club.settings, token)
    except ClubError:
        await websocket.close(code=CLOSE_POLICY)
        return None
    await websocket.accept()
    return member, token


@router.websocket("/ws/parties/{partie_id}")
async def table_socket(websocket: WebSocket, partie_id: int):
    club: Club = websocket.app.state.club
    counts: dict[tuple[int, int], int] = websocket.app.state.table_connections
    opened = await accept_member(websocket, club)
    if opened is None:
        return
    member, token = opened
    if not -MAX_ID - 1 <= partie_id <= MAX_ID:  # beyond the database's integers: nothing is there
        await websocket.send_text(json.dumps({"type": "error", "code": "not_found", "message": "there is nothing with this id"}))
        await websocket.close(code=CLOSE_NOT_FOUND)
        return
    limits = ratelimit.limits_of(websocket.app)
    if not limits.open(member.id):
        message = f"at most {limits.max_connections} table connections per member; close another one"
        await websocket.send_text(json.dumps({"type": "error", "code": "too_many_connections", "message": message}))
        await websocket.close(code=ratelimit.CLOSE_TOO_MANY, reason="too many connections")
        return
    conn = TableConnection(websocket, club, partie_id, member, None)
    conn.token, conn.limits = token, limits
    queue = club.hub.subscribe(f"partie:{partie_id}")
    club.hub.subscribe("sessions", queue)
    key = _presence_key(partie_id, member.id)
    viewing = False
    try:
        try:
            await conn.start(websocket.query_params.get("since"))
        except ClubError as e:
            await conn.error(e.code, e.message)
            await websocket.close(code=CLOSE_NOT_FOUND if e.status == 404 else CLOSE_POLICY)
            return
        except WebSocketDisconnect:
            return  # the client left before its first frames were sent: nothing to clean but the below
        if conn.seat is not None:
            counts[key] = counts.get(key, 0) + 1
            await run_in_threadpool(presence.mark_connected, club, partie_id, member.id, True)
        viewing = True
        _came(club, partie_id, member, conn.seat is not None)
        await _serve(conn, queue)
    finally:
        if viewing:
            _went(club, partie_id, member.id, conn.seat is not None)
        limits.close(member.id)
        club.hub.unsubscribe(f"partie:{partie_id}", queue)
        club.hub.unsubscribe("sessions", queue)
        if conn.seat is not None and key in counts:
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]
                try:
                    await run_in_threadpool(presence.mark_connected, club, partie_id, member.id, False)
                except Exception:
                    log.exception("could not mark partie %s member %s away", partie_id, member.id)


def _came(club: Club, partie_id: int, member: CurrentMember, seated: bool) -> None:
    """A socket opened at the table: a new spectator is told to the table; a player now
    sitting at his table has his unread count read again (his turn there is not unread)."""
    if club.viewers.open(partie_id, member.id, member.name, seated):
        _tell_viewers(club, partie_id, member.id, seated)


def _went(club: Club, partie_id: int, member_id: int, seated: bool) -> None:
    if club.viewers.close(partie_id, member_id):
        _tell_viewers(club, partie_id, member_id, seated)


def _tell_viewers(club: Club, partie_id: int, member_id: int, seated: bool) -> None:
    if seated:
        notices.tell(club.hub, [member_id], "present", partie=partie_id)
    else:
        club.notify_partie(partie_id, {"kind": "watchers", "member": member_id})


async def _serve(conn: TableConnection, queue: asyncio.Queue) -> None:
    async def read() -> None:
        while True:
            message = await conn.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            try:
                await conn.handle(text if text is not None else message.get("bytes") or "")
            except WebSocketDisconnect:
                raise
            except Exception:
                if not _connected(conn.ws):
                    raise  # the socket is gone: nothing to answer
                # A frame the server failed on is answered like any bad frame, and the
                # socket stays open (it used to end without a close frame: 1006).
                log.exception("table socket: a frame of member %s failed", conn.member.id)
                await conn.error("internal", "the server could not handle this frame")

    async def write() -> None:
        while True:
            channel, notice = await queue.get()
            if not await conn.on_notice(channel, notice):
                return

    async def session_ended() -> None:
        await conn.error("session_ended", "your session has ended; log in again")
        await conn.ws.close(code=CLOSE_SESSION_ENDED)

    await run_until_one_ends([read(), write(), recheck_session(conn.club, conn.token, session_ended)], "table")


async def recheck_session(club: Club, token: str | None, ended: Callable[[], Awaitable[None]]) -> None:
    """Every SESSION_RECHECK_SECONDS, check the socket's session; ``ended()`` once it is gone.
    Logout and disabling arrive as notices; this also ends sockets whose session expired."""
    while True:
        await asyncio.sleep(SESSION_RECHECK_SECONDS)
        try:
            await run_in_threadpool(authenticate, club.db, club.settings, token)
        except ClubError:
            await ended()
            return


async def run_until_one_ends(coroutines: list[Coroutine[Any, Any, None]], label: str) -> None:
    """A socket's coroutines (reader, writer, session check) until the first of them ends;
    the others are cancelled."""
    tasks = [asyncio.create_task(c) for c in coroutines]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            exc = task.exception()
            if exc is not None and not isinstance(exc, (WebSocketDisconnect, RuntimeError)):
                log.warning("%s socket ended: %r", label, exc)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
