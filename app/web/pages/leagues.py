"""League pages: the list (running, upcoming, past seasons) with the organizer's form, and
a league: its calendar, the next evening (register or skip, a countdown), the season's
table (and the bots' own), its organizers' controls. A closed or finished season's page
stays as its archive.

The forms post here and come back with a redirect (or the page with its error); the API
(app/leagues/router.py) does the same over JSON.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse

from app import zones
from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError, Invalid
from app.leagues import organizing, reading, service
from app.members.service import CurrentMember
from app.parties.engines import game_of
from app.tournaments import service as tournaments
from app.web.forms import MemberFormDep, act_on_page
from app.web.i18n import N_
from app.web.pages.lobby import setting_name
from app.web.pages.tournaments import _form_defaults, _int, _tournament_games
from app.web.render import context, error_page, render, to_login

router = APIRouter()

ACTIONS = ("register", "unregister", "skip", "unskip", "pause", "resume", "close", "move", "organizer",
           "unorganizer")
WEEKDAYS = (N_("Monday"), N_("Tuesday"), N_("Wednesday"), N_("Thursday"), N_("Friday"), N_("Saturday"),
            N_("Sunday"))
# The leagues' error codes whose tournament texts (app/web/strings.py) would mislead here.
LEAGUE_ERRORS = {
    "not_an_organizer": N_("Only the Club's admins and organizers create leagues."),
    "not_the_organizer": N_("Only the league's organizers (or an admin) may do that."),
    "no_such_league": N_("There is no such league."),
    "season_over": N_("This season is over."),
    "already_registered": N_("You are registered for this season already."),
    "not_registered": N_("You are not registered for this season."),
    "already_paused": N_("The league is paused already."),
    "not_paused": N_("The league is not paused."),
    "no_such_evening": N_("This season has no such evening."),
    "evening_started": N_("That evening has started already."),
    "already_skipped": N_("You skip that evening already."),
    "not_skipped": N_("You do not skip that evening."),
    "invalid_move": N_("An evening moves between the evening before it and the one after it."),
    "invalid_weekday": N_("Choose the evenings' weekday."),
    "invalid_evenings": N_("A season has 1 to 52 evenings."),
    "invalid_best_of": N_("The evenings that count are 1 up to the season's evenings."),
    "invalid_open_hours": N_("An evening's registration opens 1 to 336 hours before it."),
    "invalid_final": N_("A final is for 2 to 256 players."),
    "invalid_time": N_("The start time is HH:MM (24 hours)."),
    "invalid_calendar": N_("The calendar's dates are not valid (too many skipped dates, or out of range)."),
    "invalid_scale": N_("The scale is league points by place, first place first, never more for a worse place."),
    "invalid_scoring": N_("An evening's percentage is a duplicate evening's."),
    "invalid_zone": N_("The time zone is an IANA name such as Europe/Belgrade."),
    "invalid_date": N_("A date is YYYY-MM-DD."),
    "bots_not_allowed": N_("This league does not allow bots."),
    "already_organizer": N_("That member organizes this league already."),
    "not_an_organizer_here": N_("That member is not an organizer of this league."),
    "too_many_organizers": N_("A league has at most 20 named organizers."),
}


def _error(ctx: dict[str, Any], code: str | None) -> dict[str, Any]:
    """The page's error text: a league's own where the tournaments' would mislead."""
    ctx["error_code"] = code
    if code in LEAGUE_ERRORS:
        ctx["error_message"] = ctx["_"](LEAGUE_ERRORS[code])
        ctx["error"] = "league"
    return ctx


def _form_defaults_league(club) -> dict[str, str]:
    first = (club.clock.now() + timedelta(days=1)).astimezone(zones.zone(zones.CLUB_ZONE)).date()
    base = _form_defaults(club)
    return {**{k: v for k, v in base.items() if k not in ("start_at", "start_instant")}, "format": "svajcarski",
            "rounds": "3", "weekday": str(first.weekday()), "start_time": "20:00", "zone": zones.CLUB_ZONE,
            "first_date": first.isoformat(), "evenings": "10", "best_of": "8", "skipped_dates": "",
            "open_hours": "24", "scoring": "places", "scale": "25 18 15 12 10 8 6 4 2 1", "final_top": ""}


def _list_ctx(request: Request, club, member: CurrentMember, **extra: Any) -> dict[str, Any]:
    data = reading.listing(club, member)
    form = extra.pop("form", None) or _form_defaults_league(club)
    ctx = context(request, member, leagues=data, form=form, setting_name=setting_name, weekdays=WEEKDAYS,
                  organizer=tournaments.may_organize(member), tournament_games=_tournament_games(),
                  **extra)
    return _error(ctx, extra.get("error"))


@router.get("/leagues", response_class=HTMLResponse)
def leagues_page(request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    return render(request, "leagues.html", _list_ctx(request, club, member))


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise Invalid("a date is YYYY-MM-DD", code="invalid_date") from None


def spec_from_form(form: dict[str, str]) -> service.LeagueSpec:
    game = game_of(form.get("game"))
    prefix = f"{game.code}."
    settings = game.settings_from_form({k[len(prefix):]: v for k, v in form.items() if k.startswith(prefix)})
    scoring = form.get("scoring", "places")
    scale = None
    if scoring == "places":
        try:
            scale = [float(p) for p in (form.get("scale") or "").replace(",", " ").split()]
        except ValueError:
            raise Invalid("the scale is numbers, first place first", code="invalid_scale") from None
    if not (form.get("first_date") or "").strip():
        raise Invalid("the season's first date", code="invalid_date")
    return service.LeagueSpec(
        name=form.get("name", ""), game=game.code, format=form.get("format", ""),
        rounds=_int(form, "rounds", "the number of rounds") or 0,
        weekday=_int(form, "weekday", "the weekday", -1), start_time=(form.get("start_time") or "").strip(),
        zone=(form.get("zone") or zones.CLUB_ZONE).strip(), first_date=_date(form.get("first_date", "")),
        evenings=_int(form, "evenings", "the number of evenings") or 0,
        best_of=_int(form, "best_of", "the evenings that count") or 0, settings=settings,
        hands=_int(form, "hands", "the number of hands"), timer_seconds=_int(form, "timer", "the timer") or 0,
        round_minutes=_int(form, "round_minutes", "a round's length") or 0,
        pause_minutes=_int(form, "pause_minutes", "the pause", 0) or 0,
        skipped_dates=[_date(d) for d in (form.get("skipped_dates") or "").replace(",", " ").split()],
        open_hours=_int(form, "open_hours", "the registration's hours", 24) or 0, scoring=scoring, scale=scale,
        final_top=_int(form, "final_top", "the final's players"), bots_allowed=form.get("bots_allowed") == "on")


@router.post("/leagues", response_class=HTMLResponse)
async def create_post(request: Request, club: ClubDep, posted: MemberFormDep):
    member, form = posted.member, posted.fields
    try:
        league_id = await run_in_threadpool(service.create, club, member, spec_from_form(form))
    except ClubError as e:
        ctx = await run_in_threadpool(_list_ctx, request, club, member, form={**_form_defaults_league(club), **form},
                                      error=e.code, error_message=e.message)
        return render(request, "leagues.html", ctx, status=e.status if 400 <= e.status < 500 else 400)
    return RedirectResponse(f"/leagues/{league_id}", status_code=303)


def _detail_ctx(request: Request, club, member: CurrentMember, league_id: int, **extra: Any) -> dict[str, Any]:
    data = reading.detail(club, league_id, member)
    now = club.clock.now()
    upcoming = next((e for e in data["calendar"] if e["evening"] == data["next_evening"]), None)
    if upcoming is None:  # the final, when the season's evenings are over
        upcoming = next((e for e in data["calendar"] if e["final"] and e["status"] in ("scheduled", "registration")),
                        None)
    seconds = None
    if upcoming is not None:
        seconds = max(0, int((datetime.fromisoformat(upcoming["starts_at"]) - now).total_seconds()))
    local = zones.zone(data["zone"])
    for e in data["calendar"]:  # the move form's value: the wall time in the league's zone
        e["wall"] = datetime.fromisoformat(e["starts_at"]).astimezone(local).strftime("%Y-%m-%dT%H:%M")
    ctx = context(request, member, lg=data, game=game_of(data["game"]), upcoming=upcoming, seconds_to_next=seconds,
                  weekdays=WEEKDAYS, **extra)
    return _error(ctx, extra.get("error"))


@router.get("/leagues/{league_id}", response_class=HTMLResponse)
def league_page(league_id: int, request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    try:
        ctx = _detail_ctx(request, club, member, league_id)
    except ClubError as e:
        return error_page(request, member, e.code, e.message, e.status if 400 <= e.status < 500 else 404)
    return render(request, "league.html", ctx)


def _evening(form: dict[str, str]) -> int:
    return _int(form, "evening", "the evening") or 0


def _starts_at(form: dict[str, str]) -> datetime:
    try:  # the wall time of the zone the form names (the league's)
        return zones.wall_time(form.get("starts_at", ""), zones.form_zone(form.get("zone")))
    except ValueError:
        raise Invalid("the start is a date and a time", code="invalid_start") from None


@router.post("/leagues/{league_id}/{action}", response_class=HTMLResponse)
async def action_post(league_id: int, action: str, request: Request, club: ClubDep, posted: MemberFormDep):
    member, form = posted.member, posted.fields
    if action not in ACTIONS:
        return error_page(request, member, "not_found", "there is no such page", 404)
    calls = {
        "register": lambda: service.register(club, member, league_id),
        "unregister": lambda: service.unregister(club, member, league_id),
        "skip": lambda: service.skip(club, member, league_id, _evening(form), True),
        "unskip": lambda: service.skip(club, member, league_id, _evening(form), False),
        "pause": lambda: organizing.pause(club, member, league_id, True),
        "resume": lambda: organizing.pause(club, member, league_id, False),
        "close": lambda: organizing.close(club, member, league_id),
        "move": lambda: organizing.move(club, member, league_id, _evening(form), _starts_at(form)),
        "organizer": lambda: organizing.set_organizer(club, member, league_id, form.get("name", ""), True),
        "unorganizer": lambda: organizing.set_organizer(club, member, league_id, form.get("name", ""), False),
    }
    return await act_on_page(request, member, calls[action], "league.html",
                             partial(_detail_ctx, request, club, member, league_id), f"/leagues/{league_id}")
