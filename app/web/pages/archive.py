"""The archive: the Club's parties (filtered by member, game and status) and one partie's
final sheet with its replay."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError
from app.games.registry import codes, descriptors
from app.parties import archive
from app.tables import reads
from app.web.i18n import gettext_for, lang_of
from app.web.render import context, html_json, partie_page, render, to_login

router = APIRouter()


@router.get("/archive", response_class=HTMLResponse)
def archive_page(request: Request, club: ClubDep, member: OptionalMemberDep, status: str = "all", who: str = "me",
                 game: str = "", rules: str = ""):
    if member is None:
        return to_login(request)
    if status not in archive.ARCHIVE_STATUSES:
        status = "all"
    if game not in codes():
        game = ""
    if rules not in archive.ARCHIVE_RULES:
        rules = ""
    parties = archive.list_parties(club, member.name if who == "me" else None, status, 200, game or None,
                                   rules or None)
    house_games = [d.code for d in descriptors() if d.house_keys]
    ctx = context(request, member, parties=parties, status=status, who=who, game=game, rules=rules,
                  rules_filter=bool(house_games) and (not game or game in house_games))
    return render(request, "archive.html", ctx)


@router.get("/archive/{partie_id}", response_class=HTMLResponse)
def archive_partie(partie_id: int, request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)

    def sheet_and_view(summary: dict) -> dict:
        sheet = archive.score_sheet(club, partie_id)
        try:
            view = reads.table_state(club, partie_id, None).get("view")
        except ClubError:
            view = None
        # the players as the screens name them (a computer player "Računar Mile"; the record keeps "AI n")
        _ = gettext_for(lang_of(request))
        players = [_("Computer {name}").format(name=s["bot_name"]) if s.get("bot_name") else name
                   for s, name in zip(summary["seats"], sheet["players"])]
        sheet = {**sheet, "players": players}
        data = {"game": summary["game"], "players": players, "view": view, "status": summary["status"]}
        return {"sheet": sheet, "sheet_json": html_json(data)}

    return partie_page(request, club, member, partie_id, "archive_partie.html", sheet_and_view)
