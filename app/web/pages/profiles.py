"""A member's profile page: ratings with their charts, statistics, recent parties, and a
head-to-head against a member chosen in the page's form (``?vs=``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError
from app.leagues import reading as leagues
from app.problems import reads as problems
from app.profiles import service as profiles
from app.members import service as members
from app.ratings.method import PROVISIONAL_PARTIES
from app.web.charts import rating_chart
from app.web.i18n import gettext_for, lang_of
from app.web.render import context, error_page, render, to_login

router = APIRouter()


@router.get("/members/{name}", response_class=HTMLResponse)
async def profile_page(name: str, request: Request, club: ClubDep, member: OptionalMemberDep, vs: str = ""):
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
    ctx = context(
        request, member, profile=data, charts=charts, others=others,
        vs=vs or (member.name if member.name.lower() != data["name"].lower() else ""),
        provisional_hint=_("provisional: fewer than {n} rated parties, or the rating is still uncertain",
                           n=PROVISIONAL_PARTIES),
    )
    return render(request, "profile.html", ctx)
