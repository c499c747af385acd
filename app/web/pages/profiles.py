"""A member's profile page: ratings with their charts, statistics, recent parties, and a
head-to-head against a member chosen in the page's form (``?vs=``)."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse

from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError
from app.leagues import reading as leagues
from app.problems import reads as problems
from app.profiles import service as profiles
from app.web.forms import MemberFormDep
from app.web.pages import challenge as challenges
from app.members import service as members
from app.ratings.method import PROVISIONAL_PARTIES
from app.web.charts import rating_chart
from app.web.i18n import gettext_for, lang_of
from app.web.render import context, error_page, render, to_login

router = APIRouter()


@router.get("/members/{name}", response_class=HTMLResponse)
async def profile_page(name: str, request: Request, club: ClubDep, member: OptionalMemberDep, vs: str = "",
                       challenge: str = ""):
    if member is None:
        return to_login(request)
    vs = vs.strip()[:64]
    try:
        try:
            data = await run_in_threadpool(profiles.profile, club, name, vs or None, member.id)
        except ClubError as e:
            if not vs:
                raise
            # the member to compare with is unknown (or himself): the profile, and the form's error
            data = await run_in_threadpool(profiles.profile, club, name, None, member.id)
            data["vs_error"] = e.code
    except ClubError as e:
        return error_page(request, member, e.code, e.message, e.status)
    data["leagues"] = (await run_in_threadpool(leagues.of_member, club, data["name"]))["leagues"]
    data["problems"] = await run_in_threadpool(problems.history_of, club, data["name"], 10,
                                               "en" if lang_of(request) == "en" else "sr")
    everyone = await run_in_threadpool(members.list_members, club.db, club.settings)
    others = [m["name"] for m in everyone if m["name"].lower() != data["name"].lower() and not m["disabled"]]
    charts = {g["game"]: rating_chart(g["history"]) for g in data["games"]}
    _ = gettext_for(lang_of(request))
    # a bot's profile: the challenge form, and the member's challenge (app/web/pages/challenge.py)
    duel = await run_in_threadpool(challenges.page_part, club, member, data["name"], challenge,
                                   getattr(request.state, "challenge_error", None))
    ctx = context(
        request, member, profile=data, charts=charts, others=others, **duel,
        vs=vs or (member.name if member.name.lower() != data["name"].lower() else ""),
        provisional_hint=_("provisional: fewer than {n} rated parties, or the rating is still uncertain",
                           n=PROVISIONAL_PARTIES),
    )
    return render(request, "profile.html", ctx)


@router.post("/members/{name}/challenge", response_class=HTMLResponse)
async def challenge_post(name: str, request: Request, club: ClubDep, posted: MemberFormDep):
    """A bot's profile's form: challenge it; the profile shows the challenge, or the error."""
    try:
        partie_id = await run_in_threadpool(challenges.make, club, posted.member, name, posted.fields.get("game"))
    except ClubError as e:
        request.state.challenge_error = e.code
        page = await profile_page(name, request, club, posted.member)
        if page.status_code == 200:
            page.status_code = e.status if 400 <= e.status < 500 else 400
        return page
    return RedirectResponse(f"/members/{quote(name)}?challenge={partie_id}#challenge", status_code=303)
