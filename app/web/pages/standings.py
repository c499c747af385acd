"""The standings: members by rating per game, with their parties and places over a period."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.deps import ClubDep, OptionalMemberDep
from app.games.registry import codes
from app.ratings.method import PROVISIONAL_PARTIES
from app.ratings.standings import PERIODS, default_game, standings
from app.tournaments.reading import tournaments_for_bots
from app.web.i18n import N_, gettext_for, lang_of
from app.web.render import context, render, to_login

router = APIRouter()

MAX_PAGE = 100_000
PERIOD_LABELS = {"all": N_("all time"), "30d": N_("last 30 days"), "365d": N_("last 365 days")}


@router.get("/standings", response_class=HTMLResponse)
def standings_page(request: Request, club: ClubDep, member: OptionalMemberDep, game: str = "", period: str = "all",
                   page: int = 1):
    return _standings_page(request, club, member, game, period, page, bots=False)


@router.get("/bots", response_class=HTMLResponse)
def bots_page(request: Request, club: ClubDep, member: OptionalMemberDep, game: str = "", period: str = "all",
              page: int = 1):
    """The bots' standings per game (their own pool, docs/bots.md) and the tournaments open to bots."""
    return _standings_page(request, club, member, game, period, page, bots=True)


def _standings_page(request: Request, club, member, game: str, period: str, page: int, bots: bool):
    if member is None:
        return to_login(request)
    if game not in codes():
        game = codes()[0] if bots else default_game(club.db, member.id)  # the game he played most, or the Club's
    if period not in PERIODS:
        period = "all"
    data = standings(club.db, game, period, max(1, min(page, MAX_PAGE)), bots=bots)
    first = (data["page"] - 1) * data["page_size"] + 1
    _ = gettext_for(lang_of(request))
    ctx = context(
        request, member, standings=data, game=data["game"], period=period,
        period_labels=[(code, _(PERIOD_LABELS[code])) for code in PERIODS],
        provisional_hint=_("provisional: fewer than {n} rated parties, or the rating is still uncertain").format(
            n=PROVISIONAL_PARTIES),
        unrated_hint=_("not rated: only parties of house rules"),
        shown=_("{first}–{last} of {total}").format(first=first, last=first + len(data["members"]) - 1,
                                                     total=data["total"]) if data["members"] else "",
        previous_page=data["page"] - 1 if data["page"] > 1 else None,
        next_page=data["page"] + 1 if data["page"] * data["page_size"] < data["total"] else None,
        bots=bots, base="/bots" if bots else "/standings",
        bot_tournaments=tournaments_for_bots(club) if bots else [],
    )
    return render(request, "standings.html", ctx)
