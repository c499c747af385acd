"""``/ws/parties/{id}``: a live table over WebSocket.

Server frames (every one carries ``version``, the partie version it reflects):

- ``state``: the whole picture for this seat (on connect, or to resync);
- ``event``: one applied action (``action`` seat/word as this seat may know it) with the
  seat's view after it as its changes since the version before (``view_changes``,
  ``view_removed``; the whole ``view`` when the version before is no longer kept:
  app/tables/frames.py), its ``legal`` words, the turn (``to_act``) and the seats that
  may speak out of turn (``may_speak``); versions come one by one, without gaps;
- ``ack`` / ``error``: the answer to the client's ``action`` (by its ``id``: every answer to
  a word names it, a refused frame's too when it had one); ``error`` ``unavailable`` (with
  ``retry_after``, seconds): the database was out of reach and the word was not taken, or
  its outcome is unknown: send it again, with the same ``id``, after that long;
- ``seats`` (away, computer takeover, with ``seats_version``, the seats' own version, as in
  the state; a slow partie's clocks as ``slow``; at a tournament
  table ``round_time_up``, as in the state: its round's deadline passed and the computer
  players finish the partie), ``chat``;
- ``pong``: its ``version`` is the table's, as the database has it when the ping came (the
  last sent while the database is out of reach); the events up to it were sent before the
  pong, so a client behind it lost some and resyncs;
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

Notices lost (Redis away: app/realtime/hub.py) are made good from the log: the hub tells
the connection to ``resync`` and it sends the events after the last version it sent (and
the seats, if they changed); a ping compares the connection with the database too. A
database out of reach keeps the socket open: a read that failed is tried again after
``RETRY_AFTER_SECONDS`` (app/db/outage.py); a socket that cannot start is closed with
1013 (try again), and the client reconnects. The connection itself (the frames it sends
and answers): app/tables/connection.py; the handshake and what the notices socket shares:
app/tables/sockets.py.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from app.db.outage import unavailable
from app.errors import ClubError
from app.members.service import CurrentMember
from app.realtime import notices
from app.tables import presence, ratelimit
from app.tables.connection import TableConnection
from app.tables.sockets import (  # noqa: F401 (the notices socket imports them from here)
    CLOSE_NOT_FOUND, CLOSE_POLICY, CLOSE_SESSION_ENDED, CLOSE_TRY_AGAIN, MAX_FRAME, accept_member, connected,
    frame_size, recheck_session, run_until_one_ends,
)
from app.deps import MAX_ID

if TYPE_CHECKING:
    from app.club import Club

log = logging.getLogger("klub.ws")
router = APIRouter()


def _presence_key(partie_id: int, member_id: int) -> tuple[int, int]:
    return partie_id, member_id


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
    queue = conn.queue = club.hub.subscribe(f"partie:{partie_id}")
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
        except Exception as e:
            if not unavailable(e):
                raise
            await conn.failed(e)
            await websocket.close(code=CLOSE_TRY_AGAIN)  # the client reconnects
            return
        if conn.seat is not None:
            counts[key] = counts.get(key, 0) + 1
            change = await run_in_threadpool(presence.mark_connected, club, partie_id, member.id, True)
            if change is not None:  # the seats his arrival left (newer than his first frame's)
                await conn.on_seats([change._asdict()])
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
            except Exception as e:
                if not connected(conn.ws):
                    raise  # the socket is gone: nothing to answer
                # A frame the server failed on is answered like any bad frame, and the
                # socket stays open (it used to end without a close frame: 1006).
                if unavailable(e):
                    conn.retry_later()  # a state asked for is sent once the database answers
                await conn.failed(e)

    async def write() -> None:
        while True:
            batch = [await queue.get()]
            while not queue.empty():
                batch.append(queue.get_nowait())
            for channel, notice in _one_seats_read(batch):
                try:
                    if not await conn.on_notice(channel, notice):
                        return
                except Exception as e:
                    if not unavailable(e) or not connected(conn.ws):
                        raise
                    log.warning("table socket: a notice waits for the database (%r)", e)
                    conn.retry_later()

    async def session_ended() -> None:
        await conn.error("session_ended", "your session has ended; log in again")
        await conn.ws.close(code=CLOSE_SESSION_ENDED)

    await run_until_one_ends([read(), write(), recheck_session(conn.club, conn.token, session_ended)], "table")


def _one_seats_read(batch: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """The notices that waited, with one ``seats`` notice for all of theirs, in the last
    one's place: every change of presence they tell when each tells its own (the socket
    applies them in order, app/tables/connection.py), else a read of the seats (a read
    after all of them were published sees every change, in whatever order they came)."""
    seats = [i for i, (_, notice) in enumerate(batch) if notice.get("kind") == "seats"]
    if not seats:
        return batch
    told = [batch[i][1].get("presence") for i in seats]
    last = seats[-1]
    one = {"kind": "seats"}
    if all(presence is not None for presence in told):
        one["presence"] = [change for presence in told for change in presence]
    others = set(seats[:-1])
    return [(channel, one) if i == last else (channel, notice) for i, (channel, notice) in enumerate(batch)
            if i not in others]
