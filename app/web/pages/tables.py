"""The live table's page (drawn by the game's script from the table socket's frames)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.deps import ClubDep, OptionalMemberDep
from app.web.render import partie_page, to_login

router = APIRouter()


@router.get("/table/{partie_id}", response_class=HTMLResponse)
def table_page(partie_id: int, request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    ui = club.settings
    return partie_page(request, club, member, partie_id, "table.html",
                       lambda summary: {"trick_pause": ui.ui_trick_pause_ms, "dalje_delay": ui.ui_dalje_ms})
