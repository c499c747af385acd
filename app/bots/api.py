"""The bot API, ``/api/bot/...``: a bot account acts with a token of its owner
(``Authorization: Bearer kbt_...``). docs/bots.md has the whole protocol and a session."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from app.bots import accounts, online, play, reads, streams
from app.bots.accounts import CurrentBot
from app.deps import ClubDep
from app.errors import Invalid
from app.parties import proposals
from app.parties.router import DeclineIn, JoinIn, ProposalIn
from app.ratings.standings import PAGE_SIZE, PERIODS
from app.tables.router import ActionIn

router = APIRouter(prefix="/api/bot", tags=["bot API"])

NDJSON = "application/x-ndjson"
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
BEARER = {401: {"description": "no token, or a revoked, unknown or expired one (WWW-Authenticate: Bearer)"},
          403: {"description": "the token lacks the scope, or the bot (or its owner) is disabled"}}
LIMITED = {429: {"description": "a limit of the bot API (docs/bots.md); see Retry-After"}}


def _token(request: Request) -> str | None:
    return accounts.bearer_token(request.headers.get("authorization"))


def current_bot(request: Request, club: ClubDep) -> CurrentBot:
    return accounts.authenticate(club.db, _token(request))


BotDep = Annotated[CurrentBot, Depends(current_bot)]


def _ndjson(lines) -> StreamingResponse:
    return StreamingResponse(lines, media_type=NDJSON, headers=STREAM_HEADERS)


@router.get("/account", summary="Who the token's bot is: its name, owner, the token's scopes and expiry, the limits",
            responses=BEARER)
def account(bot: BotDep, club: ClubDep) -> dict[str, Any]:
    return {"name": bot.name, "owner": bot.owner, "scopes": sorted(bot.scopes),
            "limits": play.limits_of(club).describe()}


@router.get("/online", summary="The bots online (their event stream open): each with its owner, games and rating",
            responses=BEARER)
def bots_online(bot: BotDep, club: ClubDep):
    return {"bots": online.online(club)}


@router.get("/stream", summary="The bot's events (NDJSON): invitations, parties started and ended, tournament rounds",
            responses={**BEARER, 429: {"description": "the bot's event stream is open already (one per bot); see Retry-After"}},
            response_class=StreamingResponse)
async def event_stream(request: Request, bot: BotDep, club: ClubDep):
    bot.require(play.PLAY)
    return _ndjson(await streams.open_events(club, bot, _token(request) or ""))


@router.get("/parties", summary="My invitations, my proposals, proposals I accepted and my running tables",
            responses=BEARER)
def my_parties(bot: BotDep, club: ClubDep):
    return play.my_parties(club, bot)


@router.get("/open-seats", summary="Proposals with a bot-open seat (any bot may take it: POST .../join)",
            responses=BEARER)
def open_seats(bot: BotDep, club: ClubDep):
    return {"parties": play.open_seats(club, bot)}


@router.post("/parties", status_code=201, summary="Propose a partie (scope bot:challenge); the bot sits at seat 0",
             responses={**BEARER, **LIMITED})
def propose(body: ProposalIn, bot: BotDep, club: ClubDep):
    if body.exhibition:
        raise Invalid("a bot plays its parties; it proposes no exhibition", code="invalid_seats")
    return play.propose(club, bot, body.game, body.settings, body.timer, [s.spec() for s in body.seats])


@router.get("/parties/{partie_id}", summary="A partie or proposal: game, settings, seats, status, my seat",
            responses=BEARER)
def get_partie(partie_id: int, bot: BotDep, club: ClubDep):
    bot.require(play.PLAY)
    return proposals.get_summary(club, partie_id, bot.member)


@router.post("/parties/{partie_id}/accept", summary="Accept an invitation", responses={**BEARER, **LIMITED})
def accept(partie_id: int, bot: BotDep, club: ClubDep):
    return play.answer(club, bot, partie_id, True)


@router.post("/parties/{partie_id}/decline", summary="Decline an invitation, with a reason the proposer reads",
             responses=BEARER)
def decline(partie_id: int, bot: BotDep, club: ClubDep, body: DeclineIn = Body(default=DeclineIn())):
    return play.answer(club, bot, partie_id, False, body.reason)


@router.post("/parties/{partie_id}/join", summary="Take a bot-open seat", responses={**BEARER, **LIMITED})
def join(partie_id: int, bot: BotDep, club: ClubDep, body: JoinIn = Body(default=JoinIn())):
    return play.join(club, bot, partie_id, body.seat)


@router.post("/parties/{partie_id}/withdraw", summary="Withdraw my proposal (scope bot:challenge)", responses=BEARER)
def withdraw(partie_id: int, bot: BotDep, club: ClubDep):
    return play.withdraw(club, bot, partie_id)


@router.get("/parties/{partie_id}/stream",
            summary="One table as my seat sees it (NDJSON): the state (or the events after ?since=V), then an event "
                    "line per version with my view and legal words; an end line when it is over",
            responses={**BEARER, 404: {"description": "no such partie"}}, response_class=StreamingResponse)
async def partie_stream(partie_id: int, request: Request, bot: BotDep, club: ClubDep,
                        since: int | None = Query(default=None, ge=0, le=2**31,
                                                  description="the last version I have: the events after it")):
    bot.require(play.PLAY)
    return _ndjson(await streams.open_partie(club, bot, _token(request) or "", partie_id, since))


@router.post(
    "/parties/{partie_id}/actions",
    summary="Say a word for my seat (as members do: the version it was decided on, an action id for resends)",
    responses={**BEARER, **LIMITED, 409: {"description": "stale version; error.current is my seat's current state"},
               422: {"description": "an illegal word; error.message says why, error.legal lists the legal words"}},
)
def post_action(partie_id: int, body: ActionIn, bot: BotDep, club: ClubDep):
    applied = play.say(club, bot, partie_id, body.word, body.version, body.action_id)
    return {"applied": {"version": applied.version, "word": applied.word, "duplicate": applied.duplicate}}


@router.post(
    "/parties/{partie_id}/leave",
    summary="Leave a running partie for good: the Club's computer player plays my seat from now on "
            "(at a tournament table the bot withdraws from the tournament)",
    responses={**BEARER, 404: {"description": "no such partie"},
               409: {"description": "the partie is not running (not_running), or I left it already (already_left)"}},
)
def leave(partie_id: int, bot: BotDep, club: ClubDep):
    out = play.leave(club, bot, partie_id)
    return {**out, "my_seat": next((s["seat"] for s in out["seats"] if s["name"] == bot.name), None)}


READS = {**BEARER, 404: {"description": "no such partie"},
         403: {"description": "not a partie of this bot (not_a_player), or the token has neither bot:play nor "
                              "bot:read (missing_scope)"}}


@router.get("/archive", summary="My parties, newest first (scope bot:play or bot:read)", responses=BEARER)
def my_archive(bot: BotDep, club: ClubDep,
               status: Literal["finished", "unfinished", "all"] = "finished",
               game: str | None = Query(default=None, max_length=32, description="only this game"),
               limit: int = Query(default=100, ge=1, le=500)):
    return {"parties": reads.my_archive(club, bot, status, game, limit)}


@router.get("/parties/{partie_id}/score-sheet", summary="The score sheet of my partie (scope bot:play or bot:read)",
            responses=READS)
def score_sheet(partie_id: int, bot: BotDep, club: ClubDep):
    return reads.score_sheet(club, bot, partie_id)


@router.get("/parties/{partie_id}/record",
            summary="The klub-record/1 of my partie (while it runs, its last deal keeps only my hand)", responses=READS)
def record(partie_id: int, bot: BotDep, club: ClubDep):
    return reads.record(club, bot, partie_id)


@router.get("/standings", summary="The bots' standings: each bot with its owner (scope bot:play or bot:read)",
            responses=BEARER)
def bot_standings(bot: BotDep, club: ClubDep,
                  game: str = Query("", max_length=32, description="the game's code (default: the first)"),
                  period: str = Query("all", max_length=16, description="which parties count: " + ", ".join(PERIODS)),
                  page: int = Query(1, ge=1, le=100_000, description=f"{PAGE_SIZE} bots a page, by rating")):
    return reads.bot_standings(club, bot, game, period, page)


@router.get("/parties/{partie_id}/chat", summary="The table's chat", responses=BEARER)
def get_chat(partie_id: int, bot: BotDep, club: ClubDep):
    return {"messages": play.chat_history(club, bot, partie_id)}


class ChatIn(BaseModel):
    text: str = Field(max_length=2000, description="one line of text (the Club's chat length at most)")


@router.post("/parties/{partie_id}/chat", status_code=201,
             summary="Write in the chat of my table (scope bot:chat; rate-limited; marked as a bot's message)",
             responses={**BEARER, 429: {"description": "more chat messages a minute than a bot may write; see Retry-After"},
                        422: {"description": "an empty or too long message, or one with control characters"}})
def post_chat(partie_id: int, body: ChatIn, bot: BotDep, club: ClubDep):
    return play.post_chat(club, bot, partie_id, body.text)


@router.post("/tournaments/{tournament_id}/join", summary="Register in a tournament that allows bots (scope bot:tournament)",
             responses=BEARER)
def join_tournament(tournament_id: int, bot: BotDep, club: ClubDep):
    return play.register(club, bot, tournament_id)


@router.post("/tournaments/{tournament_id}/leave", summary="Leave a tournament (scope bot:tournament)", responses=BEARER)
def leave_tournament(tournament_id: int, bot: BotDep, club: ClubDep):
    return play.leave_tournament(club, bot, tournament_id)
