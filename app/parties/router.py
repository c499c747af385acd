"""Proposals, the lobby, the archive and records."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Body, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.deps import ClubDep, MemberDep, json_body
from app.errors import Invalid
from app.games.registry import codes, descriptors
from app.parties import archive, declines, leaving, proposals, rematch
from app.responses import FastJSONResponse

router = APIRouter(prefix="/api", tags=["parties"])


class SeatIn(BaseModel):
    kind: Literal["member", "open", "bot_open", "bot"] = Field(
        description="a named member (or bot account), an open seat for members, a bot-open seat for bot accounts, "
                    "or the Club's computer player")
    name: str | None = Field(default=None, max_length=64, description="the invited member (kind=member)")
    bot: str | None = Field(default=None, max_length=32, description="which computer player (kind=bot)")

    def spec(self) -> proposals.SeatSpec:
        return proposals.SeatSpec(self.kind, self.name, self.bot)


class ProposalIn(BaseModel):
    game: str = Field(max_length=32, description="the game's code: " + ", ".join(codes()))
    settings: dict[str, Any] = Field(
        default_factory=dict, description="the game's settings; " + "; ".join(
            f"{g.code}: {g.default_settings()}" for g in descriptors() if g.settings)
    )
    timer: int | None = Field(default=None, description="seconds per decision: 15..300 (live), or a slow timer "
                              "3600, 10800, 43200, 86400 or 259200 (1, 3, 12, 24 hours, 3 days); null for none")
    bank: int | None = Field(default=None, description="slow timer: each player's time bank in seconds, whole "
                             "hours up to a week (default: twice the decision time)")
    weekends_off: bool = Field(default=False, description="slow timer: Saturdays and Sundays do not count")
    weekend_zone: str | None = Field(default=None, max_length=64, description="with weekends_off: the time zone "
                                     "whose Saturdays and Sundays do not count (an IANA name, e.g. Europe/Belgrade; default UTC)")
    seats: list[SeatIn] = Field(default_factory=list, description="the seats after mine (seat 1, 2, ...)")
    exhibition: bool = Field(default=False, description="computer players only; I watch")


class JoinIn(BaseModel):
    seat: int | None = None


class DeclineIn(BaseModel):
    reason: str | None = Field(default=None, max_length=declines.MAX_REASON,
                               description="why (one line; shown with my seat to the proposer and the players)")


@router.post("/parties", status_code=201, summary="Propose a partie (it starts when every seat is filled)")
def propose(body: ProposalIn, member: MemberDep, club: ClubDep):
    partie_id = proposals.propose(
        club, member, body.game, body.settings, body.timer, [s.spec() for s in body.seats], body.exhibition,
        bank=body.bank, weekends_off=body.weekends_off, weekend_zone=body.weekend_zone,
    )
    return proposals.get_summary(club, partie_id, member)


@router.get("/lobby", summary="Invitations, open proposals, my proposals and parties")
def lobby(member: MemberDep, club: ClubDep):
    return proposals.lobby(club, member)


@router.get("/parties/{partie_id}", summary="A partie or proposal: game, settings, seats, status")
def get_partie(partie_id: int, member: MemberDep, club: ClubDep):
    return proposals.get_summary(club, partie_id, member)


@router.post("/parties/{partie_id}/accept", summary="Accept an invitation")
def accept(partie_id: int, member: MemberDep, club: ClubDep):
    return proposals.answer(club, member, partie_id, True)


@router.post("/parties/{partie_id}/decline", summary="Decline an invitation (with a reason, if I like)")
def decline(partie_id: int, member: MemberDep, club: ClubDep, body: DeclineIn = Body(default=DeclineIn())):
    reason = declines.check_reason(body.reason)
    declines.give_reason(club, member.id, partie_id, reason)
    return proposals.answer(club, member, partie_id, False)


@router.post("/parties/{partie_id}/join", summary="Take an open seat")
def join(partie_id: int, member: MemberDep, club: ClubDep, body: JoinIn = Body(default=JoinIn())):
    return proposals.join(club, member, partie_id, body.seat)


@router.post("/parties/{partie_id}/withdraw", summary="Withdraw my proposal")
def withdraw(partie_id: int, member: MemberDep, club: ClubDep):
    proposals.withdraw(club, member, partie_id)
    return proposals.get_summary(club, partie_id, member)


@router.post(
    "/parties/{partie_id}/rematch",
    status_code=201,
    summary="Revanš: propose a finished partie again (same game, settings, timer and players; I sit at seat 0)",
    responses={200: {"description": "an open revanš of this partie existed: I accepted it"},
               403: {"description": "not a player of this partie"}, 409: {"description": "the partie is not over"}},
)
def propose_rematch(partie_id: int, member: MemberDep, club: ClubDep, response: Response):
    done = rematch.rematch(club, member, partie_id)
    if not done.created:
        response.status_code = 200
    return proposals.get_summary(club, done.partie_id, member)


@router.post(
    "/parties/{partie_id}/hand-over",
    summary="Leave a running partie for good: a computer player plays my seat from now on "
            "(at a tournament table this withdraws me from the tournament, rulings T10)",
    responses={403: {"description": "not a player of this partie"},
               409: {"description": "the partie is not running, or a computer player already plays my seat"}},
)
def hand_over(partie_id: int, member: MemberDep, club: ClubDep):
    return leaving.leave(club, member, partie_id)


@router.post(
    "/parties/{partie_id}/end",
    summary="End at once a running partie no other member plays in (it is abandoned, without a rating)",
    responses={403: {"description": "not a player of this partie"},
               409: {"description": "the partie is not running, or another member plays in it"}},
)
def end_partie(partie_id: int, member: MemberDep, club: ClubDep):
    return leaving.end(club, member, partie_id)


@router.put("/parties/{partie_id}/seats/{seat}", summary="Proposer: fill a seat again")
def set_seat(partie_id: int, seat: int, body: SeatIn, member: MemberDep, club: ClubDep):
    return proposals.set_seat(club, member, partie_id, seat, body.spec())


@router.get("/archive", summary="Parties of the Club or of one member")
def list_archive(
    member: MemberDep,
    club: ClubDep,
    status: Literal["finished", "unfinished", "all"] = "all",
    of: str | None = None,
    game: str | None = Query(default=None, description="only this game: " + ", ".join(codes())),
    rules: Literal["club", "house"] | None = Query(
        default=None, description="only parties played by the Club's own rules, or by house rules"),
    tournament: bool | None = Query(default=None, description="only tournament tables (true) or only the others (false)"),
    limit: int = 100,
):
    return {"parties": archive.list_parties(club, of, status, limit, game, rules, member.id, tournament)}


@router.get("/parties/{partie_id}/score-sheet", summary="The score sheet (the result, and the papir of games that keep one)")
def score_sheet(partie_id: int, member: MemberDep, club: ClubDep):
    return FastJSONResponse(archive.score_sheet(club, partie_id, member.id))


@router.get("/parties/{partie_id}/record", summary="Download the klub-record/1 (redacted while running)")
def download_record(partie_id: int, member: MemberDep, club: ClubDep):
    rec = archive.record(club, partie_id, member)
    return JSONResponse(rec, headers={"Content-Disposition": f'attachment; filename="klub-partie-{partie_id}.json"'})


RECORD_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": {"type": "object", "title": "klub-record/1"}}},
    }
}


@router.post(
    "/records",
    status_code=201,
    summary="Import a klub-record/1 to view it",
    openapi_extra=RECORD_BODY,
    responses={
        413: {"description": f"a body over {archive.MAX_RECORD_BYTES} bytes"},
        422: {"description": "not JSON, or a record that does not replay (the message names the problem)"},
    },
)
async def import_record(request: Request, member: MemberDep, club: ClubDep):
    record = await json_body(request, archive.MAX_RECORD_BYTES)
    if not isinstance(record, dict):
        raise Invalid("a record is a JSON object", code="invalid_request")
    return await run_in_threadpool(archive.import_record, club, member, record)


@router.get("/records", summary="My imported records")
def list_records(member: MemberDep, club: ClubDep):
    return {"records": archive.list_imported(club, member)}


@router.get("/records/{record_id}", summary="An imported record (mine only)")
def get_record(record_id: int, member: MemberDep, club: ClubDep):
    return archive.get_imported(club, record_id, member)
