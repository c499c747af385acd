"""The shapes of the frames a table socket sends (app/tables/ws.py has the protocol), as
mypy checks them where they are built: every frame carries ``type`` and ``version``."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from app.parties.lookup import SeatInfo


class TimeoutNote(TypedDict):
    """The standing "time ran out" note: the seat, the word said for it, its version."""

    seat: int
    word: str
    version: int


class StateFrame(TypedDict):
    """The whole picture for one seat (a spectator's: ``seat`` None)."""

    type: Literal["state"]
    partie: int
    game: str
    status: str
    settings: dict[str, Any] | None
    timer: int | None
    seat: int | None
    seats: list[SeatInfo]
    seats_version: int  # the seats' own version: a seats frame of a lower one is older
    version: int
    # a started partie's table
    view: NotRequired[dict[str, Any] | None]
    legal: NotRequired[list[str]]
    to_act: NotRequired[list[int]]
    may_speak: NotRequired[list[int]]
    deal_index: NotRequired[int]
    finished: NotRequired[bool]
    deadline: NotRequired[str | None]
    timeout: NotRequired[TimeoutNote | None]
    slow: NotRequired[dict[str, Any] | None]  # a slow partie's clocks (app/parties/slow_frames.py)
    round_time_up: NotRequired[bool]  # a tournament table past its round's deadline
    watchers: NotRequired[list[str]]


class SeatsFrame(TypedDict):
    type: Literal["seats"]
    version: int
    seats: list[SeatInfo]
    seats_version: int
    slow: NotRequired[dict[str, Any] | None]
    round_time_up: NotRequired[bool]
    watchers: NotRequired[list[str]]


class AckFrame(TypedDict):
    type: Literal["ack"]
    id: str | None
    version: int
    duplicate: bool


class ErrorFrame(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    version: int
    id: NotRequired[str | None]  # the word it answers
    retry_after: NotRequired[int]  # unavailable: send it again after that long


class PongFrame(TypedDict):
    type: Literal["pong"]
    version: int


class ChatFrame(TypedDict):
    type: Literal["chat"]
    version: int
    message: dict[str, Any] | None


class WatchersFrame(TypedDict):
    type: Literal["watchers"]
    version: int
    watchers: list[str]


Frame = StateFrame | SeatsFrame | AckFrame | ErrorFrame | PongFrame | ChatFrame | WatchersFrame
