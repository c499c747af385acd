"""The problems over the API: ``/api/zadaci`` (next, a problem, answer, history, the day's,
themes, flag; an admin's hide and flagged list). Members only: a bot account's token gets
403 ``bots_may_not_solve`` (docs/bots.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from app.bots import accounts as bot_accounts
from app.deps import ClubDep, current_member
from app.members.service import CurrentMember
from app.problems import moderation, reads, solving

router = APIRouter(prefix="/api/zadaci", tags=["problems"])

LANG = Query("sr", pattern="^(sr|en)$", description="the language of the question and the names: sr or en")
BOT_REFUSED = {403: {"description": "bots_may_not_solve: a bot account's token (or a bot's session)"}}


async def solver(request: Request, club: ClubDep) -> CurrentMember:
    """The member of the session; a bot's token is refused before anything is read."""
    token = bot_accounts.bearer_token(request.headers.get("authorization"))
    if token is not None:
        await run_in_threadpool(bot_accounts.authenticate, club.db, token)  # 401 for a bad token
        solving.check_solver(CurrentMember(0, "", solving.BOT_ROLE, ""))
    member = await run_in_threadpool(current_member, request, club)
    solving.check_solver(member)
    return member


SolverDep = Annotated[CurrentMember, Depends(solver)]


class AnswerBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    word: str = Field(min_length=1, max_length=solving.MAX_WORD, description="one of the problem's choices")


class FlagBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field("", max_length=moderation.MAX_REASON, description="what is wrong with it (optional)")


class HideBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hidden: StrictBool


@router.get("/next", summary="An unanswered problem near the member's rating (filters: game, theme)",
            responses={404: {"description": "no_problem: none is left with these filters"},
                       422: {"description": "unknown_game or invalid_theme"}, **BOT_REFUSED})
def next_problem(member: SolverDep, club: ClubDep, lang: str = LANG,
                 game: str = Query("", max_length=32), theme: str = Query("", max_length=64)) -> dict[str, Any]:
    return solving.next_problem(club, member, game or None, theme or None, lang)


@router.get("/day", summary="The problem of the day (null while there is none)")
def day(member: SolverDep, club: ClubDep) -> dict[str, Any] | None:
    return reads.problem_of_the_day(club)


@router.get("/themes", summary="The games and themes with problems, and how many")
def themes(member: SolverDep, club: ClubDep, lang: str = LANG) -> list[dict[str, Any]]:
    return reads.themes(club, lang)


@router.get("/history", summary="The member's answers, newest first, with his rating and streak")
def history(member: SolverDep, club: ClubDep, lang: str = LANG,
            limit: int = Query(50, ge=1, le=reads.HISTORY_MAX)) -> dict[str, Any]:
    return reads.history(club, member.id, limit, lang)


@router.get("/flagged", summary="The flagged problems (admins)", responses={403: {"description": "admin_only"}})
def flagged(member: SolverDep, club: ClubDep) -> list[dict[str, Any]]:
    return moderation.flagged(club, member)


@router.get("/{problem_id}", summary="A problem (with the verdict if the member has answered it)",
            responses={404: {"description": "no_such_problem (or hidden)"}, **BOT_REFUSED})
def get_problem(problem_id: int, member: SolverDep, club: ClubDep, lang: str = LANG) -> dict[str, Any]:
    return solving.get_problem(club, member, problem_id, lang)


@router.post("/{problem_id}/answer", summary="Answer a problem: the verdict; only the first answer counts",
             responses={404: {"description": "no_such_problem"}, 422: {"description": "not_a_choice"}, **BOT_REFUSED})
def answer(problem_id: int, body: AnswerBody, member: SolverDep, club: ClubDep, lang: str = LANG) -> dict[str, Any]:
    return solving.answer(club, member, problem_id, body.word, lang)


@router.post("/{problem_id}/flag", summary="Flag a problem as wrong (once)",
             responses={409: {"description": "already_flagged"}, 404: {"description": "no_such_problem"}})
def flag(problem_id: int, body: FlagBody, member: SolverDep, club: ClubDep) -> dict[str, Any]:
    return moderation.flag(club, member, problem_id, body.reason)


@router.post("/{problem_id}/hide", summary="Hide a problem from everyone, or show it again (admins)",
             responses={403: {"description": "admin_only"}, 404: {"description": "no_such_problem"}})
def hide(problem_id: int, body: HideBody, member: SolverDep, club: ClubDep) -> dict[str, Any]:
    return moderation.set_hidden(club, member, problem_id, body.hidden)
