"""What the Club's WebSockets share (the table's, app/tables/ws.py, and the notices',
app/web/notices_ws.py): the handshake, the frame cap, the session's recheck, and running a
socket's coroutines until one of them ends."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from starlette.websockets import WebSocketState

from app.db.outage import unavailable
from app.errors import ClubError
from app.members.cookies import session_token
from app.members.service import CurrentMember, authenticate

if TYPE_CHECKING:
    from app.club import Club

log = logging.getLogger("klub.ws")

MAX_FRAME = 16 * 1024
CLOSE_POLICY = 1008
CLOSE_TRY_AGAIN = 1013  # the database is out of reach: the client reconnects (app/db/outage.py)
CLOSE_SESSION_ENDED = 4401
CLOSE_NOT_FOUND = 4404
SESSION_RECHECK_SECONDS = 60


def frame_size(data: str | bytes) -> int:
    """A frame's size in bytes as it came over the wire (UTF-8), before anything is parsed."""
    if isinstance(data, bytes) or len(data) > MAX_FRAME or len(data) * 4 <= MAX_FRAME:
        return len(data)  # bytes; or surely over / surely under the cap whatever the characters
    return len(data.encode("utf-8", "surrogatepass"))


def connected(ws: WebSocket) -> bool:
    return ws.client_state == WebSocketState.CONNECTED and ws.application_state == WebSocketState.CONNECTED


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
    except Exception as e:
        if not unavailable(e):
            raise
        await websocket.close(code=CLOSE_TRY_AGAIN)  # the session cannot be read now: knock again
        return None
    await websocket.accept()
    return member, token


async def recheck_session(club: Club, token: str | None, ended: Callable[[], Awaitable[None]]) -> None:
    """Every SESSION_RECHECK_SECONDS, check the socket's session; ``ended()`` once it is gone.
    Logout and disabling arrive as notices; this also ends sockets whose session expired.
    A database out of reach ends nothing: the session is checked again at the next turn."""
    while True:
        await asyncio.sleep(SESSION_RECHECK_SECONDS)
        try:
            await run_in_threadpool(authenticate, club.db, club.settings, token)
        except ClubError:
            await ended()
            return
        except Exception as e:
            if not unavailable(e):
                raise
            log.warning("a socket's session could not be checked: %r", e)


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
