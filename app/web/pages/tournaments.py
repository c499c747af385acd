"""Tournament pages: the list (and the organizer's form), a tournament, a board's traveller.

The forms post here and come back with a redirect (or the page with its error); the
API (app/tournaments/router.py) does the same over JSON.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse

from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError, Invalid
from app import zones
from app.games.registry import descriptors
from app.members.service import CurrentMember
from app.parties.lookup import get_partie
from app.parties.engines import game_of
from app.tournaments import reading, service
from app.tournaments.traveller import traveller
from app.web.pages.lobby import default_form, setting_name
from app.web.i18n import lang_of
from app.web.forms import MemberFormDep, act_on_page
from app.web.render import context, error_page, render, to_login

router = APIRouter()

ACTIONS = ("register", "leave", "start", "pause", "resume", "remove")


def _tournament_games() -> list:
    return [g for g in descriptors() if g.tournament is not None]


def _form_defaults(club) -> dict[str, str]:
    # the start in half an hour: in the Club's zone, and as an instant the page's script
    # writes in the browser's (app/zones.py)
    start = (club.clock.now() + timedelta(minutes=30)).replace(second=0, microsecond=0)
    return {**default_form(), "name": "", "format": "duplikat", "rounds": "3",
            "start_at": start.astimezone(zones.zone(zones.CLUB_ZONE)).strftime("%Y-%m-%dT%H:%M"),
            "start_instant": start.isoformat(), "timer": "60", "round_minutes": "90",
            "pause_minutes": "2", "hands": "", "seeding": "random"}


def _list_ctx(request: Request, club, member: CurrentMember, **extra: Any) -> dict[str, Any]:
    data = reading.listing(club, member)
    form = extra.pop("form", None) or _form_defaults(club)
    return context(request, member, tournaments=data, form=form, setting_name=setting_name,
                   organizer=service.may_organize(member), tournament_games=_tournament_games(),
                   **extra)


@router.get("/tournaments", response_class=HTMLResponse)
def tournaments_page(request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    return render(request, "tournaments.html", _list_ctx(request, club, member))


def _int(form: dict[str, str], key: str, what: str, default: int | None = None) -> int | None:
    raw = (form.get(key) or "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise Invalid(f"{what} is a whole number", code=f"invalid_{key}") from None


def spec_from_form(club, form: dict[str, str]) -> service.TournamentSpec:
    game = game_of(form.get("game"))
    prefix = f"{game.code}."
    settings = game.settings_from_form({k[len(prefix):]: v for k, v in form.items() if k.startswith(prefix)})
    try:  # the wall time of the zone the form was filled in (its "tz", else the Club's)
        start = zones.wall_time(form.get("start_at", ""), zones.form_zone(form.get("tz")))
    except ValueError:
        raise Invalid("the start is a date and a time", code="invalid_start") from None
    points = (form.get("place_points") or "").replace(",", " ").split()
    try:
        place_points = [float(p) for p in points] or None
    except ValueError:
        raise Invalid("place points are numbers, first place first (e.g. 3 2 0)", code="invalid_place_points") from None
    return service.TournamentSpec(
        name=form.get("name", ""), game=game.code, format=form.get("format", ""),
        rounds=_int(form, "rounds", "the number of rounds") or 0, start_at=start, settings=settings,
        hands=_int(form, "hands", "the number of hands"), timer_seconds=_int(form, "timer", "the timer") or 0,
        round_minutes=_int(form, "round_minutes", "a round's length") or 0,
        pause_minutes=_int(form, "pause_minutes", "the pause", 0) or 0,
        robot_field=form.get("robot_field") == "on", bots_allowed=form.get("bots_allowed") == "on", place_points=place_points,
        seeding=form.get("seeding", "random"),
    )


@router.post("/tournaments", response_class=HTMLResponse)
async def create_post(request: Request, club: ClubDep, posted: MemberFormDep):
    member, form = posted.member, posted.fields
    try:
        spec = spec_from_form(club, form)
        tournament_id = await run_in_threadpool(service.create, club, member, spec)
    except ClubError as e:
        ctx = await run_in_threadpool(_list_ctx, request, club, member, form={**_form_defaults(club), **form},
                                      error=e.code, error_message=e.message)
        return render(request, "tournaments.html", ctx, status=e.status if 400 <= e.status < 500 else 400)
    return RedirectResponse(f"/tournaments/{tournament_id}", status_code=303)


def join_closed(data: dict[str, Any], member: CurrentMember) -> str | None:
    """Why the page offers a member who does not play in the tournament no way to join
    (an error code of app/web/strings.py), or None: he plays, or he may join."""
    me = data.get("me") or {}
    if me.get("registered"):
        return None
    if me.get("removed"):
        return "removed"
    if me.get("withdrawn"):  # for good (T10)
        return "withdrawn"
    if data["status"] in ("finished", "cancelled"):
        return "tournament_over"
    if member.role == "bot" and not data["bots_allowed"]:
        return "bots_not_allowed"
    return None if me.get("may_join") else "registration_closed"  # T7: half of the rounds have started


def _detail_ctx(request: Request, club, member: CurrentMember, tournament_id: int, **extra: Any) -> dict[str, Any]:
    data = reading.detail(club, tournament_id, member)
    game = game_of(data["game"])
    now = club.clock.now()
    return context(request, member, t=data, game=game, now=now.isoformat(), join_closed=join_closed(data, member),
                   seconds_to_next=reading.seconds_until(
                       datetime.fromisoformat(data["next_round_at"]) if data["next_round_at"] else None, now),
                   **extra)


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
def tournament_page(tournament_id: int, request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    try:
        ctx = _detail_ctx(request, club, member, tournament_id)
    except ClubError as e:
        return error_page(request, member, e.code, e.message, e.status if 400 <= e.status < 500 else 404)
    return render(request, "tournament.html", ctx)


@router.get("/tournaments/{tournament_id}/live", response_class=HTMLResponse)
def tournament_live(tournament_id: int, request: Request, club: ClubDep, member: OptionalMemberDep):
    """The page's live part alone (read again when the tournament changes)."""
    if member is None:
        return to_login(request)
    try:
        ctx = _detail_ctx(request, club, member, tournament_id)
    except ClubError as e:
        return error_page(request, member, e.code, e.message, e.status if 400 <= e.status < 500 else 404)
    return render(request, "tournament_live.html", ctx)


@router.post("/tournaments/{tournament_id}/{action}", response_class=HTMLResponse)
async def action_post(tournament_id: int, action: str, request: Request, club: ClubDep, posted: MemberFormDep):
    member, form = posted.member, posted.fields
    if action not in ACTIONS:
        return error_page(request, member, "not_found", "there is no such page", 404)
    calls = {
        "register": lambda: service.register(club, member, tournament_id),
        "leave": lambda: service.leave(club, member, tournament_id),
        "start": lambda: service.start_now(club, member, tournament_id),
        "pause": lambda: service.pause(club, member, tournament_id, True),
        "resume": lambda: service.pause(club, member, tournament_id, False),
        "remove": lambda: service.remove_player(club, member, tournament_id, form.get("name", "")),
    }
    return await act_on_page(request, member, calls[action], "tournament.html",
                             partial(_detail_ctx, request, club, member, tournament_id), f"/tournaments/{tournament_id}")


@router.get("/tournaments/{tournament_id}/rounds/{round_no}/boards/{board}", response_class=HTMLResponse)
def traveller_page(tournament_id: int, round_no: int, board: int, request: Request, club: ClubDep,
                   member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    try:
        data = traveller(club, tournament_id, round_no, board, member)
    except ClubError as e:
        return error_page(request, member, e.code, e.message, e.status if 400 <= e.status < 500 else 404)
    game = game_of(data["game"])
    lang = lang_of(request)
    settings = _settings_of(club, [row["partie_id"] for row in data["tables"]])
    for row in data["tables"]:
        # each table's contract as its own score sheet names it
        row["line"]["contract_name"] = game.contract_name(row["line"].get("contract"), settings[row["partie_id"]], lang)
    return render(request, "traveller.html", context(request, member, tr=data, game=game))


def _settings_of(club, partie_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The settings of each table (its house rules name some contracts their own way)."""
    with club.db.read() as s:
        return {pid: dict(get_partie(s, pid).settings or {}) for pid in partie_ids}
