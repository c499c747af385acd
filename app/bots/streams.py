"""The bot API's streams: NDJSON, one JSON object a line (docs/bots.md).

``GET /api/bot/stream``, the bot's events: ``hello``; then the bot's tables and
invitations as they stand (``partie_started``, ``invitation``); then as they happen:
``invitation``, ``invitation_withdrawn``, ``proposal_answered``, ``partie_started``,
``partie_ended``, ``tournament_round``. They come from the member notices of the bot's
account (app/realtime/notices.py, the hub's ``member:<id>``), each read again from the
database, so a lost or doubled notice never makes a wrong line.

``GET /api/bot/parties/{id}/stream``, one table as the bot's seat sees it: first the
``state`` (game, settings, seat, view, legal words, version), or with ``?since=V`` the
events after version V; then one ``event`` line per version, with the bot's new view
and legal words. The lines are the table socket's own frames (app/tables/frames.py,
built once per version and seat), so a bot sees exactly what a member at its seat
would, and never another seat's card. Then ``seats`` and ``chat`` (a bot writes with
``bot:chat``, app/bots/play.py); an ``end`` line when the partie is over or the bot left
it (``status`` ``left``), and the stream closes.

Both send ``{"type": "keepalive"}`` when nothing else was sent for
``bot_keepalive_seconds``, and end with an ``error`` line when the token is revoked or
expires (checked at every revocation notice and every minute).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import orjson
from fastapi.concurrency import run_in_threadpool

from app.bots import accounts
from app.bots.accounts import CurrentBot
from app.bots.shapes import (
    EndLine,
    ErrorLine,
    EventLine,
    HelloLine,
    PartieLine,
    ProposalAnsweredLine,
    TableLine,
    TournamentRoundLine,
)
from app.errors import ClubError
from app.parties import proposals
from app.realtime import notices
from app.tables import reads
from app.tables.shapes import ChatFrame, SeatsFrame, StateFrame

if TYPE_CHECKING:
    from app.club import Club

RECHECK_SECONDS = 60
DONE = ("finished", "abandoned", "withdrawn", "left")
# The member notices that may change what the event stream tells.
EVENT_KINDS = frozenset({"invited", "withdrawn", "started", "answered", "ended", "round",
                         "accepted", "declined", "joined"})
KEEPALIVE = b'{"type":"keepalive"}\n'


def bot_channel(bot_id: int) -> str:
    """The hub channel of a bot's own notices (its tokens revoked): ``bot:<id>``."""
    return f"bot:{bot_id}"


def line(obj: EventLine | TableLine) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS) + b"\n"


class _Stream:
    """A stream's hub subscriptions are made when its lines begin (and dropped when they
    end), never before: a response that is never sent leaves nothing subscribed."""

    def __init__(self, club: Club, bot: CurrentBot, token: str, channels: list[str]):
        self.club = club
        self.bot = bot
        self.token = token
        self.channels = channels
        self.queue: asyncio.Queue = asyncio.Queue()
        self.keepalive = club.settings.bot_keepalive_seconds
        self.last_sent = time.monotonic()
        self.checked = time.monotonic()

    async def next_notice(self) -> tuple[str, dict[str, Any]] | None:
        """The next notice, or None when a keep-alive is due."""
        wait = self.keepalive - (time.monotonic() - self.last_sent)
        if wait <= 0:
            return None
        try:  # not asyncio.wait_for: on 3.11 it may lose a cancellation (app/clock.py wait_woken)
            async with asyncio.timeout(wait):
                return await self.queue.get()
        except TimeoutError:
            return None

    def subscribe(self) -> None:
        for channel in self.channels:
            self.club.hub.subscribe(channel, self.queue)

    def unsubscribe(self) -> None:
        for channel in self.channels:
            self.club.hub.unsubscribe(channel, self.queue)

    def sent(self, data: bytes) -> bytes:
        self.last_sent = time.monotonic()
        return data

    async def token_ended(self, force: bool = False) -> bytes | None:
        """An ``error`` line when the token no longer works (checked every minute, or now)."""
        if not force and time.monotonic() - self.checked < RECHECK_SECONDS:
            return None
        self.checked = time.monotonic()
        try:
            await run_in_threadpool(accounts.authenticate, self.club.db, self.token)
        except ClubError as e:
            return line(ErrorLine(type="error", code=e.code, message=e.message))
        return None

    async def upkeep(self, item: tuple[str, dict[str, Any]] | None) -> tuple[bytes | None, bool] | None:
        """What a quiet interval (``item`` None) or a revoked token means for the stream: the
        line to send (a keep-alive, the token's error, or none) and whether the stream ends.
        None for any other notice: the stream's own to describe."""
        if item is None:
            ended = await self.token_ended()
            return (ended, True) if ended is not None else (self.sent(KEEPALIVE), False)
        if item[1].get("kind") == "token_revoked":
            ended = await self.token_ended(force=True)
            return ended, ended is not None
        return None


class EventStream(_Stream):
    """``GET /api/bot/stream``: the bot's invitations and tables."""

    def __init__(self, club: Club, bot: CurrentBot, token: str, holder: int = 0):
        super().__init__(club, bot, token, [notices.member_channel(bot.id), bot_channel(bot.id)])
        self.holder = holder  # which stream of the bot holds its lease (app/bots/limits.py)
        self.invited: set[int] = set()
        self.started: set[int] = set()
        self.ended: set[int] = set()

    def opening(self) -> list[EventLine]:
        """The first lines: who the bot is, then its tables and invitations as they stand."""
        club, bot = self.club, self.bot
        lobby = proposals.lobby(club, bot.member)
        out: list[EventLine] = [HelloLine(
            type="hello", bot=bot.name, owner=bot.owner, scopes=sorted(bot.scopes),
            limits=club.bot_limits.describe() if club.bot_limits else {},
        )]
        for summary in lobby["playing"]:
            self.started.add(summary["id"])
            out.append(PartieLine(type="partie_started", partie=summary))
        for summary in lobby["invitations"]:
            self.invited.add(summary["id"])
            out.append(PartieLine(type="invitation", partie=summary))
        return out

    def describe(self, kind: str, notice: dict[str, Any]) -> list[EventLine]:
        """The lines one member notice makes, from the partie as it is now."""
        partie_id = notice.get("partie")
        if not isinstance(partie_id, int):
            return []
        try:
            summary = proposals.get_summary(self.club, partie_id, self.bot.member)
        except ClubError:
            return []
        out: list[EventLine] = []
        status, seat = summary["status"], summary["my_seat"]
        if kind == "round":
            out.append(TournamentRoundLine(type="tournament_round", tournament=notice.get("tournament"),
                                           round=notice.get("round"), name=notice.get("name"), partie=summary))
        if status == "proposed":
            answer = summary["seats"][seat]["answer"] if seat is not None else None
            if answer == "invited" and partie_id not in self.invited:
                self.invited.add(partie_id)
                out.append(PartieLine(type="invitation", partie=summary))
            if kind in ("accepted", "declined", "joined") and summary["proposer"] == self.bot.name:
                out.append(ProposalAnsweredLine(type="proposal_answered", answer=kind, by=notice.get("by"),
                                                partie=summary))
        if kind == "withdrawn" or status == "withdrawn":
            if partie_id in self.invited and (seat is None or status == "withdrawn"):
                self.invited.discard(partie_id)
                out.append(PartieLine(type="invitation_withdrawn", partie=summary))
        if seat is not None and status in ("running", "finished", "abandoned") and partie_id not in self.started:
            self.started.add(partie_id)
            out.append(PartieLine(type="partie_started", partie=summary))
        if seat is not None and status in ("finished", "abandoned") and partie_id not in self.ended:
            self.ended.add(partie_id)
            out.append(PartieLine(type="partie_ended", partie=summary))
        return out

    async def lines(self) -> AsyncIterator[bytes]:
        """The stream's lines; the bot's lease (taken by :func:`open_events`) is given back at the end."""
        limits = self.club.bot_limits
        renewed = time.monotonic()
        try:
            self.subscribe()  # before the opening lines are read: no notice falls in between
            for obj in await run_in_threadpool(self.opening):
                yield self.sent(line(obj))
            while True:
                item = await self.next_notice()
                if limits is not None and time.monotonic() - renewed >= self.keepalive:
                    renewed = time.monotonic()
                    if not await run_in_threadpool(limits.renew_stream, self.bot.id, self.holder):
                        yield line(ErrorLine(type="error", code="stream_replaced",
                                             message="this stream lost its lease and another event stream of this "
                                                     "bot took over"))
                        return
                if (upkeep := await self.upkeep(item)) is not None:
                    said, ends = upkeep
                    if said is not None:
                        yield said
                    if ends:
                        return
                    continue
                assert item is not None  # upkeep answers a quiet interval
                channel, notice = item
                kind = notice.get("kind")
                if kind not in EVENT_KINDS:
                    continue
                for obj in await run_in_threadpool(self.describe, kind, notice):
                    yield self.sent(line(obj))
        finally:
            # Synchronous: a cancelled stream (the client went) cannot await any more.
            self.unsubscribe()
            if limits is not None:
                limits.close_stream(self.bot.id, self.holder)


async def open_events(club: Club, bot: CurrentBot, token: str) -> AsyncIterator[bytes]:
    """Take the bot's one event stream (429 ``stream_open`` otherwise); its lines.

    A response that is never sent (the client left at once) keeps the lease until it
    expires (``bot_stream_lease_seconds``)."""
    limits = club.bot_limits
    holder = 0
    if limits is not None:
        holder = await run_in_threadpool(limits.open_stream, bot.id)
    return EventStream(club, bot, token, holder).lines()


class PartieStream(_Stream):
    """``GET /api/bot/parties/{id}/stream``: one table as the bot's seat sees it."""

    def __init__(self, club: Club, bot: CurrentBot, token: str, partie_id: int, state: StateFrame):
        super().__init__(club, bot, token, [f"partie:{partie_id}", bot_channel(bot.id)])
        assert state["seat"] is not None, "a table stream is a seat's"
        self.partie_id = partie_id
        self.seat: int = state["seat"]
        self.status: str = state["status"]
        self.sent_version = -1

    async def catch_up(self, known: int | None = None) -> AsyncIterator[bytes]:
        """The event lines after the last one sent (or a state line to resync): the table
        socket's frames, from memory when the cache has them (app/tables/ws.py)."""
        club, pid = self.club, self.partie_id
        cached, state = None, None
        if known is not None:
            args = (club, pid, self.seat, self.sent_version, known)
            cached = reads.cached_event_texts_since(*args, blocking=False)
            if cached is None:
                cached = await run_in_threadpool(reads.cached_event_texts_since, *args)
        if cached is not None:
            frames = cached
        else:
            frames, state = await run_in_threadpool(reads.event_texts_since, club, pid, self.seat, self.sent_version)
        if state is not None:
            self.sent_version, self.status = state["version"], state["status"]
            yield self.sent(line(state))
        for version, finished, text in frames:
            if version > self.sent_version:
                self.sent_version = version
                if finished:
                    self.status = "finished"
                yield self.sent(text.encode() + b"\n")

    def end_line(self) -> bytes:
        return line(EndLine(type="end", version=self.sent_version, status=self.status))

    async def lines(self, state: StateFrame, since: int | None) -> AsyncIterator[bytes]:
        try:
            self.subscribe()
            if since is not None and 0 <= since <= state["version"] and state["status"] not in ("proposed", "withdrawn"):
                self.sent_version = since
            else:
                self.sent_version = state["version"]
                yield self.sent(line(state))
            if self.status == "proposed":  # it may have started before the subscription
                now = await run_in_threadpool(reads.table_state, self.club, self.partie_id, self.bot.member)
                if now["status"] != self.status:
                    self.status, self.sent_version = now["status"], now["version"]
                    yield self.sent(line(now))
            if self.status in ("running", "finished"):
                # The events after the state read (or after ``since``): a word said before
                # the subscription is not missed.
                async for data in self.catch_up():
                    yield data
            mine = state["seats"][self.seat]
            if self.status == "running" and mine["taken_over"] and not mine["reclaimable"]:
                self.status = "left"  # the bot left this partie: nothing more for it to say
            while self.status not in DONE:
                item = await self.next_notice()
                if (upkeep := await self.upkeep(item)) is not None:
                    said, ends = upkeep
                    if said is not None:
                        yield said
                    if ends:
                        return
                    continue
                assert item is not None  # upkeep answers a quiet interval
                channel, notice = item
                kind = notice.get("kind")
                if kind == "advance":
                    if notice.get("version", 0) > self.sent_version:
                        async for data in self.catch_up(notice.get("version")):
                            yield data
                elif kind == "resync" and self.status in ("running", "finished"):  # notices lost (app/realtime/hub.py)
                    async for data in self.catch_up():
                        yield data
                elif kind == "seats":
                    now = await run_in_threadpool(reads.table_state, self.club, self.partie_id, self.bot.member)
                    if now["status"] != self.status:
                        self.status, self.sent_version = now["status"], now["version"]
                        yield self.sent(line(now))  # started, ended early or withdrawn: the whole picture
                    else:
                        yield self.sent(line(SeatsFrame(type="seats", version=self.sent_version, seats=now["seats"],
                                                          seats_version=now["seats_version"])))
                        mine = now["seats"][self.seat]
                        if mine.get("taken_over") and not mine.get("reclaimable"):
                            self.status = "left"  # the bot left it (POST .../leave): the computer plays on
                            break
                elif kind == "chat":
                    yield self.sent(line(ChatFrame(type="chat", version=self.sent_version, message=notice.get("message"))))
            yield self.end_line()
        finally:
            self.unsubscribe()


async def open_partie(club: Club, bot: CurrentBot, token: str, partie_id: int, since: int | None) -> AsyncIterator[bytes]:
    """The table's stream for the bot's seat (403 ``not_a_player`` when it has none)."""
    state = await run_in_threadpool(reads.table_state, club, partie_id, bot.member)
    if state["seat"] is None:
        raise ClubError("your bot does not play at this table", code="not_a_player", status=403)
    return PartieStream(club, bot, token, partie_id, state).lines(state, since)
