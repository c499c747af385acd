"""The shapes of the bot API's stream lines (app/bots/streams.py, docs/bots.md), as mypy
checks them where they are built. A table stream's ``state`` and ``event`` lines are the
table socket's own frames (:mod:`app.tables.shapes`)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from app.tables.shapes import ChatFrame, SeatsFrame, StateFrame


class HelloLine(TypedDict):
    """The event stream's first line: who the bot is, what it may do, its limits."""

    type: Literal["hello"]
    bot: str
    owner: str
    scopes: list[str]
    limits: dict[str, Any]


class PartieLine(TypedDict):
    """A partie that concerns the bot, as the lobby summarizes it (``partie``)."""

    type: Literal["partie_started", "partie_ended", "invitation", "invitation_withdrawn"]
    partie: dict[str, Any]


class ProposalAnsweredLine(TypedDict):
    type: Literal["proposal_answered"]
    answer: str  # accepted, declined or joined
    by: Any
    partie: dict[str, Any]


class TournamentRoundLine(TypedDict):
    type: Literal["tournament_round"]
    tournament: Any
    round: Any
    name: Any
    partie: dict[str, Any]


class ErrorLine(TypedDict):
    """The stream ends: the token was revoked or expired, or another stream took over."""

    type: Literal["error"]
    code: str
    message: str


class EndLine(TypedDict):
    """A table stream's last line: the partie is over, or the bot left it."""

    type: Literal["end"]
    version: int
    status: str


EventLine = HelloLine | PartieLine | ProposalAnsweredLine | TournamentRoundLine | ErrorLine
TableLine = StateFrame | SeatsFrame | ChatFrame | EndLine | ErrorLine
