"""The problems' page (zadaci, issue 41): ``/zadaci`` shows one problem on a table like the
real one (static/js/zadaci.js, drawing with the game's own replay pieces) and takes the
answer through the API (``/api/zadaci``). ``?id=`` a given problem, ``?dan=1`` the problem
of the day, else the next one near the member's rating with the filters ``game`` and
``theme``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError
from app.games.registry import descriptor
from app.problems import reads, solving
from app.problems.glicko import START
from app.web.i18n import N_, gettext_for, lang_of
from app.web.render import context, error_page, html_json, render, to_login
from app.web.strings import js_strings

router = APIRouter()

# The script's own texts (static/js/zadaci.js), translated here.
SCRIPT_TEXTS = (
    N_("Best!"), N_("Not the best."), N_("Your word"), N_("The best"), N_("Next problem"), N_("The deal's replay"),
    N_("The line"), N_("Flag this problem"), N_("Flagged, thank you."), N_("Rating"), N_("Streak"),
    N_("It lost {n} {unit} against the best."), N_("Every choice against the best"), N_("Played in the partie"),
    N_("Answered before: it counts once."), N_("Choose your word"), N_("to play"), N_("Problem"),
)


# A member who has answered no problem yet: where his rating starts (app/problems/glicko.py).
NEW_SOLVER = {"rating": round(START), "attempts": 0, "solved": 0, "streak": 0, "best_streak": 0}


def _int(value: str) -> int | None:
    return int(value) if value.isdigit() and len(value) < 12 else None


@router.get("/zadaci", response_class=HTMLResponse)
def problems_page(request: Request, club: ClubDep, member: OptionalMemberDep, game: str = "", theme: str = "",
                  id: str = "", dan: str = ""):
    if member is None:
        return to_login(request)
    lang = lang_of(request)
    short = "en" if lang == "en" else "sr"
    _ = gettext_for(lang)
    try:
        game, theme = (x or "" for x in solving.check_filters(game or None, theme or None))
    except ClubError:
        game, theme = "", ""
    problem: dict[str, Any] | None = None
    error: str | None = None
    day = reads.problem_of_the_day(club)
    try:
        wanted = _int(id) if id else (day["id"] if dan and day else None)
        if wanted is not None:
            problem = solving.get_problem(club, member, wanted, short)
        else:
            problem = solving.next_problem(club, member, game or None, theme or None, short)
    except ClubError as e:
        if e.code == "bots_may_not_solve":
            return error_page(request, member, e.code, e.message, e.status)
        error = e.code
    game_d = descriptor(problem["game"]) if problem else None
    ctx = context(
        request, member, problem=problem, problem_json=html_json(problem), error=error,
        themes=reads.themes(club, short), game_filter=game, theme_filter=theme,
        summary=reads.summary(club, member.id) or NEW_SOLVER, day=day, is_day=bool(problem and day and problem["id"] == day["id"]),
        zadaci_strings=html_json({s: _(s) for s in SCRIPT_TEXTS}),
        game=game_d,
        strings=html_json(js_strings(lang, game_d)) if game_d else "{}",
        game_json=html_json(game_d.page_data(lang, problem["settings"] if problem else {},
                                             club.settings.ui_timings)) if game_d and problem else "{}",
    )
    return render(request, "zadaci.html", ctx)
