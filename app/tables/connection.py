"""A table socket's connection (app/tables/ws.py has the protocol): the frames it sends,
the client's frames it answers, and the hub's notices it turns into frames.

Every frame carries ``version``, the last version this connection sent. The events come
from the table cache when it has them, else from the log (app/tables/reads.py). A read or
a word that fails on the database is answered ``unavailable`` (a word's answer with its
``id``) and the socket stays open; what the failure left unsent follows once the database
answers again (``retry_later``: a ``retry`` notice in the connection's own queue).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, TypeVar, cast

import orjson
from fastapi import WebSocket
from fastapi.concurrency import run_in_threadpool

from app.db import outage
from app.db.outage import unavailable
from app.errors import ClubError
from app.games.records import brief
from app.members.service import CurrentMember
from app.tables import chat, ratelimit, reads, service
from app.tables.words import Applied, Word, action_id_ok
from app.tables.cache import to_json
from app.parties.lookup import SeatInfo
from app.tables.shapes import ErrorFrame, Frame, SeatsFrame, StateFrame
from app.tables.sockets import CLOSE_SESSION_ENDED, MAX_FRAME, connected, frame_size

if TYPE_CHECKING:
    from app.club import Club

log = logging.getLogger("klub.ws")
FrameWithWatchers = TypeVar("FrameWithWatchers", StateFrame, SeatsFrame)


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
        self.queue: asyncio.Queue | None = None  # its notices (the hub's): a retry is queued there
        self.seats_sent: Any = None  # what the last seats (or state) frame said of the seats
        self.seats_version = -1  # ... and their version (Partie.seats_version)
        self.retry_due = False  # a look after the database failed is queued
        self.owed_state = False  # ... and it is to send a state (the client asked for one)

    async def send(self, frame: Frame) -> None:
        await self.ws.send_text(to_json(frame))

    async def send_state(self) -> None:
        async with self.send_lock:
            state = await run_in_threadpool(reads.table_state, self.club, self.partie_id, self.member)
            self.seat, self.status = state["seat"], state["status"]
            await self.send(self.with_watchers(state))
            self.sent_version, self.seats_sent = state["version"], _seats_of(state)
            self.seats_version = state["seats_version"]

    async def start(self, since: str | None) -> None:
        """The first frames: the events after ``since`` when the client has a version, else the state."""
        state = await run_in_threadpool(reads.table_state, self.club, self.partie_id, self.member)
        self.seat, self.status, self.seats_sent = state["seat"], state["status"], _seats_of(state)
        self.seats_version = state["seats_version"]
        if since is not None and since.isdigit() and int(since) <= state["version"]:
            self.sent_version = int(since)
            await self.catch_up()
            async with self.send_lock:  # who is away (or watches) may have changed while the client was gone
                seats: SeatsFrame = {"type": "seats", "version": self.sent_version, "seats": state["seats"],
                                     "seats_version": state["seats_version"]}
                await self.send(self.with_watchers(seats))
            return
        async with self.send_lock:
            await self.send(self.with_watchers(state))
            self.sent_version = state["version"]

    def with_watchers(self, frame: FrameWithWatchers) -> FrameWithWatchers:
        """The frame with the spectators' names (this connection's member counted once he is one)."""
        names: list[str] = self.club.viewers.spectators(self.partie_id)
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
            cached, state = None, None
            if known_version is not None:
                args = (self.club, self.partie_id, self.seat, self.sent_version, known_version)
                cached = reads.cached_event_texts_since(*args, blocking=False)
                if cached is None:  # the table is busy (a word being committed): wait for it in a thread
                    cached = await run_in_threadpool(reads.cached_event_texts_since, *args)
            if cached is not None:
                frames = cached
            else:
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
            # ``extra``: the word's id, and what a refusal tells besides (ClubError.extra)
            await self.send(cast(ErrorFrame, {"type": "error", "code": code, "message": message,
                                              "version": self.sent_version, **extra}))

    async def failed(self, error: Exception, **extra: Any) -> None:
        """Answer a frame the server failed on (``extra``: the word's ``id``): ``unavailable``
        while the database is out of reach (try again), else ``internal``."""
        if unavailable(error):
            log.warning("table socket: the database is out of reach (%r)", error)
            await self.error("unavailable", outage.MESSAGE, retry_after=outage.RETRY_AFTER_SECONDS, **extra)
        else:
            log.error("table socket: a frame of member %s failed", self.member.id, exc_info=error)
            await self.error("internal", "the server could not handle this frame", **extra)

    def retry_later(self) -> None:
        """After a read that failed on the database: look again in a moment (a state, when the
        client asked for one), through the notice queue, as a notice is handled."""
        if not self.retry_due and self.queue is not None:
            self.retry_due = True
            item = (f"partie:{self.partie_id}", {"kind": "retry"})
            asyncio.get_running_loop().call_later(outage.RETRY_AFTER_SECONDS, self.queue.put_nowait, item)

    async def resync(self) -> None:
        """Notices may have been lost: the events after the last version sent, and the seats
        if they changed (a state if the partie's status did)."""
        if self.status in ("running", "finished"):
            await self.catch_up()
        await self.send_seats(only_changed=True)

    async def caught_up(self, known_version: int | None = None) -> None:
        """:meth:`catch_up`, or when the database is out of reach, a retry in a moment."""
        try:
            await self.catch_up(known_version)
        except Exception as e:
            if not unavailable(e) or not connected(self.ws):
                raise
            self.retry_later()

    # -- client frames -------------------------------------------------------------

    async def handle(self, data: str | bytes) -> None:
        if not self.bucket.allow() or (self.limits is not None and not self.limits.allow(self.member.id)):
            await self.error("rate_limited", "too many frames; slow down", **_named(data))
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
            self.owed_state = True  # until it is sent: a retry sends it (the client waits for it)
            await self.send_state()
            self.owed_state = False
        elif kind == "ping":
            await self.on_ping()
        else:
            await self.error("unknown_type", "type is action, chat, resync or ping")

    async def on_action(self, msg: dict[str, Any]) -> None:
        action_id = msg.get("id")
        word, version = msg.get("word"), msg.get("version")
        if action_id is not None and not action_id_ok(action_id):
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
                await self.caught_up()
            await self.error(e.code, e.message, id=action_id, **{k: v for k, v in e.extra.items() if k != "current"})
            return
        except Exception as e:  # the database out of reach: the word was not taken (or may have been)
            if not connected(self.ws):
                raise
            await self.failed(e, id=action_id)
            return
        await self.caught_up(applied.version)  # the word stands: its ack goes out whatever the reads do
        async with self.send_lock:
            await self.send({"type": "ack", "id": action_id, "version": applied.version, "duplicate": applied.duplicate})

    async def submit(self, word: str, version: int, action_id: str | None) -> Applied:
        club = self.club
        seat = service.cached_seat(club, self.partie_id, self.member.id)
        if seat is not None and club.writer is not None:
            # Straight to the word writer: no worker thread in between.
            word_ = Word(self.partie_id, seat, word, version, action_id, self.member.id, "member")
            return await club.writer.submit_async(word_)
        return await run_in_threadpool(service.submit, club, self.partie_id, self.member, word, version, action_id)

    async def on_ping(self) -> None:
        """A pong with the table's version (app/tables/reads.py ``pinged``); a connection
        behind the database catches up first (a notice lost while Redis was away)."""
        try:
            found = await run_in_threadpool(reads.pinged, self.club, self.partie_id, self.member.id)
        except Exception as e:
            if not unavailable(e):
                raise
            found = None  # the database is out of reach: the pong all the same
        version = self.sent_version
        if found is not None:
            version, status = found
            if status != self.status:
                await self.send_state()  # started, ended or withdrawn meanwhile
            elif version > self.sent_version:
                await self.caught_up()
        async with self.send_lock:
            await self.send({"type": "pong", "version": max(version, self.sent_version)})

    async def on_chat(self, msg: dict[str, Any]) -> None:
        text = msg.get("text")
        try:  # a text that is not a string is refused as an empty one
            await run_in_threadpool(chat.post, self.club, self.member, self.partie_id, text if isinstance(text, str) else "")
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
            await self.on_seats(notice.get("presence"))
        elif kind == "resync":  # the hub may have lost notices (app/realtime/hub.py)
            await self.resync()
        elif kind == "retry":  # a read failed on the database a moment ago (retry_later)
            self.retry_due = False
            if self.owed_state:
                await self.send_state()
                self.owed_state = False
            else:
                await self.resync()
        elif kind == "chat":
            if notice.get("bot") and await run_in_threadpool(chat.is_muted, self.club, self.member.id,
                                                             notice.get("author", 0)):
                return True  # he muted this bot's chat (app/tables/chat.py)
            async with self.send_lock:
                await self.send({"type": "chat", "version": self.sent_version, "message": notice.get("message")})
        elif kind == "watchers":
            # The member who came has the names in his first frames; the one who went is gone.
            if notice.get("member") != self.member.id:
                await self.send_watchers()
        return True

    async def send_seats(self, only_changed: bool = False) -> None:
        summary = await run_in_threadpool(reads.table_state, self.club, self.partie_id, self.member)
        if summary["status"] != self.status:
            await self.send_state()  # the partie started, ended or was withdrawn
            return
        seats = _seats_of(summary)
        if only_changed and seats == self.seats_sent:
            return
        frame: SeatsFrame = {"type": "seats", "version": self.sent_version, "seats": summary["seats"],
                             "seats_version": summary["seats_version"]}
        if "slow" in summary:  # a slow partie's clocks changed with the seats (app/parties/slow.py)
            frame["slow"] = summary["slow"]
        if "round_time_up" in summary:  # a tournament round's deadline passed (app/tables/reads.py)
            frame["round_time_up"] = summary["round_time_up"]
        async with self.send_lock:
            await self.send(frame)
            self.seats_sent, self.seats_version = seats, summary["seats_version"]

    async def on_seats(self, presence: list[dict[str, Any]] | None) -> None:
        """The seats changed: the changes of presence told (app/tables/presence.py) applied
        in their versions' order to the seats shown, without a read; the seats read when a
        change was not told (``presence`` None), when one is missing (told by another
        instance, still on its way: the read has it) or when the table is not running."""
        if presence is None or self.status != "running" or not self.seats_sent:
            await self.send_seats()
            return
        seats, version = self.seats_sent[0], self.seats_version
        for change in sorted(presence, key=lambda c: c["seats_version"]):
            if change["seats_version"] <= version:
                continue  # shown already (his own arrival, or a read that came after it)
            if change["seats_version"] != version + 1:
                await self.send_seats()
                return
            seats, version = with_presence(seats, change["seat"], change["away"]), version + 1
        if version > self.seats_version:
            await self.show_seats(seats, version)

    async def show_seats(self, seats: list[SeatInfo], version: int) -> None:
        """Seats changes of presence made, at their ``version`` (newer than those shown)."""
        frame: SeatsFrame = {"type": "seats", "version": self.sent_version, "seats": seats, "seats_version": version}
        round_time_up = self.seats_sent[2] if self.seats_sent else None
        if round_time_up is not None:
            frame["round_time_up"] = round_time_up
        async with self.send_lock:
            await self.send(frame)
            self.seats_sent, self.seats_version = (seats, None, round_time_up), version

    async def send_watchers(self) -> None:
        names = self.club.viewers.spectators(self.partie_id)
        async with self.send_lock:
            await self.send({"type": "watchers", "version": self.sent_version, "watchers": names})


def with_presence(seats: list[SeatInfo], seat: int, away: bool) -> list[SeatInfo]:
    """The seats after a change of presence: ``seat``'s player is away, or back (which ends
    the votes to hand his seat to a computer player)."""
    def changed(info: SeatInfo) -> SeatInfo:
        return {**info, "away": away, **({} if away else {"takeover_votes": []})}  # type: ignore[typeddict-item]

    return [changed(info) if info["seat"] == seat else info for info in seats]


def _seats_of(frame: StateFrame | SeatsFrame) -> tuple:
    """What a state or seats frame says of the seats (to tell whether they changed)."""
    return frame.get("seats"), frame.get("slow"), frame.get("round_time_up")


def _named(data: str | bytes) -> dict[str, Any]:
    """``{"id": ...}`` of a frame within the cap that is an action with a good id, else nothing:
    a refused word is answered by its id too."""
    if frame_size(data) > MAX_FRAME:
        return {}
    try:
        msg = orjson.loads(data)
    except (ValueError, RecursionError):
        return {}
    action_id = msg.get("id") if isinstance(msg, dict) and msg.get("type") == "action" else None
    return {"id": action_id} if action_id_ok(action_id) else {}
