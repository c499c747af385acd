"""The live table's page (drawn by the game's script from the table socket's frames), and
its forms to leave the partie for good or end it (``app.parties.leaving``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError
from app.parties import leaving
from app.tables import presence
from app.tournaments import reading as tournaments
from app.web.forms import MemberFormDep
from app.web.render import error_page, partie_page, to_login

router = APIRouter()


@router.get("/table/{partie_id}", response_class=HTMLResponse)
def table_page(partie_id: int, request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    ui = club.settings
    return partie_page(request, club, member, partie_id, "table.html",
                       lambda summary: {"trick_pause": ui.ui_trick_pause_ms,
                                        "tournament_name": tournaments.name_of(club, summary.get("tournament"))})


@router.post("/table/{partie_id}/{verb}", response_class=HTMLResponse)
async def leave_or_end(partie_id: int, verb: str, request: Request, club: ClubDep, posted: MemberFormDep):
    """``leave``: a computer player takes my seat; ``end``: end a partie I play with computers
    only; ``reclaim``: take back my seat of a slow partie the others voted to a computer player."""
    member = posted.member
    if verb not in ("leave", "end", "reclaim"):
        return Response(status_code=404)
    action = {"leave": leaving.leave, "end": leaving.end, "reclaim": presence.reclaim}[verb]
    try:
        await run_in_threadpool(action, club, member, partie_id)
    except ClubError as e:
        return error_page(request, member, e.code, e.message, e.status if 400 <= e.status < 500 else 400)
    return RedirectResponse(f"/table/{partie_id}" if verb == "reclaim" else "/lobby", status_code=303)
