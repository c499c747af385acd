"""The archive: the Club's parties (filtered by member, game and status) and one partie's
final sheet with its replay."""

from __future__ import annotations

from datetime import datetime
from typing import Any

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

MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def date_text(iso: str | None, lang: str) -> str:
    """A day as its language writes it: "2. 12. 2026." in Serbian, "2 Dec 2026" in English (UTC)."""
    if not iso:
        return ""
    day = datetime.fromisoformat(iso)
    if lang == "en":
        return f"{day.day} {MONTHS_EN[day.month - 1]} {day.year}"
    return f"{day.day}. {day.month}. {day.year}."


def result_line(partie: dict[str, Any]) -> list[dict[str, Any]]:
    """Each player's place (once the partie is over) and points, the first place first: from
    the stored result's ``places`` and its ``results`` (a papir's) or ``totals``."""
    result = partie.get("result") or {}
    seats = partie["seats"]
    points = result.get("results") if isinstance(result.get("results"), list) else result.get("totals")
    places = result.get("places") if partie["status"] == "finished" else None
    if not isinstance(points, list) or len(points) != len(seats):
        return []
    if not isinstance(places, list) or len(places) != len(seats):
        places = None
    line = [{"name": s["name"], "seat": s, "points": points[i], "place": places[i] if places else None}
            for i, s in enumerate(seats)]
    if places:
        line.sort(key=lambda x: x["place"])
    return line


@router.get("/archive", response_class=HTMLResponse)
def archive_page(request: Request, club: ClubDep, member: OptionalMemberDep, status: str = "all", who: str = "me",
                 game: str = "", rules: str = "", kind: str = ""):
    if member is None:
        return to_login(request)
    if status not in archive.ARCHIVE_STATUSES:
        status = "all"
    if game not in codes():
        game = ""
    if rules not in archive.ARCHIVE_RULES:
        rules = ""
    if kind not in ("tournament", "single"):
        kind = ""
    parties = archive.list_parties(club, member.name if who == "me" else None, status, 200, game or None,
                                   rules or None, member.id, {"tournament": True, "single": False}.get(kind))
    lang = lang_of(request)
    for p in parties:
        p["date_text"] = date_text(p["finished_at"] or p["started_at"], lang)
        p["result_line"] = result_line(p)
    house_games = [d.code for d in descriptors() if d.house_keys]
    ctx = context(request, member, parties=parties, status=status, who=who, game=game, rules=rules, kind=kind,
                  rules_filter=bool(house_games) and (not game or game in house_games))
    return render(request, "archive.html", ctx)


@router.get("/archive/{partie_id}", response_class=HTMLResponse)
def archive_partie(partie_id: int, request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)

    def sheet_and_view(summary: dict) -> dict:
        sheet = archive.score_sheet(club, partie_id, member.id)
        try:
            view = reads.table_state(club, partie_id, None).get("view")
        except ClubError:
            view = None
        # the players as the screens name them (a computer player "Računar Mile"; the record keeps "AI n")
        _ = gettext_for(lang_of(request))
        players = [_("Computer {name}").format(name=s["bot_name"]) if s.get("bot_name") else name
                   for s, name in zip(summary["seats"], sheet["players"])]
        sheet = {**sheet, "players": players}
        # the computer players' full names -> their short ones (archive.js marks them: K.computers)
        computers = {shown: s["bot_name"] for s, shown in zip(summary["seats"], players) if s.get("bot_name")}
        data = {"game": summary["game"], "players": players, "computers": computers, "view": view,
                "status": summary["status"]}
        return {"sheet": sheet, "sheet_json": html_json(data)}

    return partie_page(request, club, member, partie_id, "archive_partie.html", sheet_and_view)
