"""The rules pages of every game, and the front page."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from app.deps import OptionalMemberDep
from app.games.registry import codes, descriptors
from app.parties.engines import game_of
from app.web.i18n import lang_of
from app.web.render import context, error_page, render
from app.web.strings import game_names_text

router = APIRouter()


@router.get("/rules", response_class=HTMLResponse)
def rules_index(request: Request, member: OptionalMemberDep):
    # ?lang= goes along (the rules page then remembers it in the cookie)
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(f"/rules/{descriptors()[0].code}{query}", status_code=303)


@router.get("/rules/{game}", response_class=HTMLResponse)
def rules_page(game: str, request: Request, member: OptionalMemberDep):
    if game not in codes():
        return error_page(request, member, "not_found", "", 404)
    rules = game_of(game).rules
    lang = lang_of(request)
    body = rules.get(lang) or next(iter(rules.values()), None)  # None: a game without rules pages
    return render(request, "rules.html", context(request, member, game=game, body=body))


@router.get("/", response_class=HTMLResponse)
def front_page(request: Request, member: OptionalMemberDep):
    if member is not None:
        return RedirectResponse("/lobby", status_code=303)
    games = game_names_text(lang_of(request))
    return render(request, "index.html", context(request, None, game_names=games))
