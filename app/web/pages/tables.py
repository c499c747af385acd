"""The live table's page (drawn by the game's script from the table socket's frames)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError
from app.parties import proposals
from app.tables.engines import game_of
from app.web.i18n import lang_of
from app.web.render import context, error_page, render, script_data, to_login

router = APIRouter()


@router.get("/table/{partie_id}", response_class=HTMLResponse)
def table_page(partie_id: int, request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    try:
        summary = proposals.get_summary(club, partie_id, member)
    except ClubError as e:
        return error_page(request, member, e.code, e.message, 404)
    settings = club.settings
    ctx = context(
        request, member, partie=summary, game=game_of(summary["game"]),
        trick_pause=settings.ui_trick_pause_ms, dalje_delay=settings.ui_dalje_ms,
        **script_data(lang_of(request), summary["game"]),
    )
    return render(request, "table.html", ctx)
