"""The archive: the Club's parties (filtered by member, game and status) and one partie's
final sheet with its replay."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError
from app.games.registry import codes
from app.parties import archive, proposals
from app.tables import reads
from app.tables.engines import game_of
from app.web.i18n import lang_of
from app.web.render import context, error_page, html_json, render, script_data, to_login

router = APIRouter()


@router.get("/archive", response_class=HTMLResponse)
def archive_page(request: Request, club: ClubDep, member: OptionalMemberDep, status: str = "all", who: str = "me",
                 game: str = ""):
    if member is None:
        return to_login(request)
    if status not in archive.ARCHIVE_STATUSES:
        status = "all"
    if game not in codes():
        game = ""
    parties = archive.list_parties(club, member.name if who == "me" else None, status, 200, game or None)
    ctx = context(request, member, parties=parties, status=status, who=who, game=game)
    return render(request, "archive.html", ctx)


@router.get("/archive/{partie_id}", response_class=HTMLResponse)
def archive_partie(partie_id: int, request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    try:
        summary = proposals.get_summary(club, partie_id, member)
        sheet = archive.score_sheet(club, partie_id)
    except ClubError as e:
        return error_page(request, member, e.code, e.message, 404)
    try:
        view = reads.table_state(club, partie_id, None).get("view")
    except ClubError:
        view = None
    data = html_json({"game": summary["game"], "players": sheet["players"], "view": view, "status": summary["status"]})
    ctx = context(request, member, partie=summary, game=game_of(summary["game"]), sheet=sheet, sheet_json=data,
                  **script_data(lang_of(request), summary["game"]))
    return render(request, "archive_partie.html", ctx)
