"""The lobby: invitations, tables, proposals, and the form that proposes a partie."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import zones
from app.ai import LEVELS
from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError
from app.games.base import GameError
from app.games.descriptor import GameDescriptor
from app.games.registry import descriptors
from app.members import service as members
from app.parties import proposals, rematch, slow
from app.parties.clocks import clock_of
from app.parties.durations import settings_key, typical_minutes
from app.parties.lookup import get_partie, open_table
from app.tables import reads
from app.parties.engines import game_of
from app.problems.reads import problem_of_the_day
from app.web.i18n import N_
from app.web.forms import MemberFormDep
from app.web.render import context, render, to_login

router = APIRouter()

# The levels of app/ai/levels.py as the form offers them: value -> label.
LEVEL_LABELS = {"pocetnik": N_("beginner"), "iskusan": N_("experienced"), "majstor": N_("master")}
BOT_LEVELS = tuple((code, LEVEL_LABELS.get(code, code)) for code in LEVELS)
DEFAULT_BOT = "iskusan"
TIMER_CHOICES = (15, 30, 60, 120, 300)
# A slow partie's bank as the form offers it: a multiple of the decision time ("": the
# default, twice; app/parties/slow.py).
BANK_CHOICES = (("", N_("twice the decision time")), ("0", N_("none")), ("1", N_("once the decision time")),
                ("3", N_("three times the decision time")))
# The form's default timer: 60 s per decision when another person plays (an
# invited member or an open seat), so an absent player cannot stall the others; off
# against computer players alone. "off" and every other choice stay in the form; the
# API's default is still no timer.
TIMER_AUTO, TIMER_WITH_PEOPLE = "auto", 60


def setting_name(game: GameDescriptor, key: str) -> str:
    """A setting's field name in the form: the game's code and the key (games may share keys)."""
    return f"{game.code}.{key}"


def default_form() -> dict[str, str]:
    games = descriptors()
    most_others = max(g.seats for g in games) - 1
    form = {"game": games[0].code, "timer": TIMER_AUTO}
    for i in range(1, most_others + 1):
        form.update({f"seat{i}": "bot", f"seat{i}_bot": DEFAULT_BOT})
    for g in games:
        form.update({setting_name(g, f.key): str(f.default) for f in g.settings})
    return form


# The tables to watch the lobby lists (with how far each is).
WATCHED = 10


def progress(club, partie_id: int) -> tuple[int, int | None] | None:
    """How far a running partie is: (the deal in play, counted from 1; the partie's deals,
    None where the game has no fixed number, as preferans)."""
    try:
        with club.db.read() as s:
            table = open_table(club, s, get_partie(s, partie_id))
            with table.lock:
                engine = table.engine
                total = getattr(engine, "n_deals", None)
                n = engine.deal_index + 1
        return (min(n, total) if total else n), total
    except ClubError:
        return None


def lobby_data(club, member: members.CurrentMember) -> dict[str, Any]:
    data = proposals.lobby(club, member)
    for p in data["playing"]:
        try:
            state = reads.table_state(club, p["id"], member)
            p["my_turn"] = state.get("seat") in (state.get("to_act") or []) and p["your_turn"]
        except ClubError:
            p["my_turn"] = False
    mine_ids = {p["id"] for p in data["playing"]}
    data["running"] = [p for p in data["running"] if p["id"] not in mine_ids]
    for p in [*data["playing"], *data["running"][:WATCHED]]:
        p["progress"] = progress(club, p["id"])
    # how long a partie usually takes here: per game and settings, from the finished ones
    typical = typical_minutes(club.db)
    for key in ("invitations", "mine", "accepted", "open"):
        for p in data.get(key, []):
            p["typical"] = typical.get(settings_key(p["game"], p.get("settings")))
    data["typical_by_game"] = {g.code: typical.get(settings_key(g.code, g.normalize_settings(g.default_settings())))
                               for g in descriptors()}
    data["members"] = members.list_members(club.db, club.settings)
    return data


def _lobby_ctx(request, club, member, **extra):
    data = lobby_data(club, member)
    form = extra.pop("form", None) or default_form()
    games = descriptors()
    return context(
        request, member, lobby=data, form=form, bot_levels=BOT_LEVELS, default_bot=DEFAULT_BOT,
        timers=TIMER_CHOICES, timer_auto=TIMER_AUTO, timer_with_people=TIMER_WITH_PEOPLE,
        slow_timers=slow.SLOW_TIMERS, bank_choices=BANK_CHOICES,
        setting_name=setting_name, most_others=max(g.seats for g in games) - 1,
        problem_of_the_day=problem_of_the_day(club), **extra,
    )


@router.get("/lobby", response_class=HTMLResponse)
def lobby_page(request: Request, club: ClubDep, member: OptionalMemberDep, game: str = ""):
    if member is None:
        return to_login(request)
    # ?game=: the form keeps the game just proposed (or asked for)
    form = {**default_form(), "game": game} if game in {g.code for g in descriptors()} else None
    return render(request, "lobby.html", _lobby_ctx(request, club, member, form=form))


@router.get("/lobby/live", response_class=HTMLResponse)
def lobby_live(request: Request, club: ClubDep, member: OptionalMemberDep):
    """The changing part of the lobby, fetched again every few seconds by lobby.js."""
    if member is None:
        return Response(status_code=401)
    ctx = context(request, member, lobby=lobby_data(club, member))
    return render(request, "lobby_live.html", ctx)


def _bot(level: str | None) -> str:
    return level if level in {code for code, _label in BOT_LEVELS} else DEFAULT_BOT


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def _timer(raw: str | None, seats: list[proposals.SeatSpec]) -> int | None:
    if raw == TIMER_AUTO:
        return TIMER_WITH_PEOPLE if any(spec.kind != "bot" for spec in seats) else None
    return _int(raw)


def _slow_options(form: dict[str, str], timer: int | None) -> dict[str, Any]:
    """A slow timer's bank (the chosen multiple of the decision time) and weekends (the
    proposer's: his browser's zone, app/zones.py); a live timer ignores the fields (the form hides them)."""
    if not clock_of(timer).slow:
        return {}
    factor = form.get("bank", "")
    if factor not in {code for code, _label in BANK_CHOICES}:
        raise ClubError("the bank is none, once, twice or three times the decision time", code="invalid_bank",
                        status=422)
    return {"bank": None if factor == "" else int(factor) * timer, "weekends_off": form.get("weekends_off") == "on",
            "weekend_zone": zones.form_zone(form.get("tz"))}


def _seats(form: dict[str, str], n: int, exhibition: bool) -> list[proposals.SeatSpec]:
    """The seats the form names beside the proposer's, for a partie of ``n`` seats."""
    seats: list[proposals.SeatSpec] = []
    for i in range(1, n):
        kind = "bot" if exhibition else form.get(f"seat{i}", "bot")
        if kind == "member":
            seats.append(proposals.SeatSpec("member", form.get(f"seat{i}_name", "").strip()))
        elif kind in proposals.OPEN_KINDS:
            seats.append(proposals.SeatSpec(kind))  # an open seat, or one for a bot (app/bots/)
        else:
            seats.append(proposals.SeatSpec("bot", bot=_bot(form.get(f"seat{i}_bot"))))
    if exhibition:
        seats.insert(0, proposals.SeatSpec("bot", bot=_bot(form.get("seat1_bot"))))
    return seats


def _seat_count(game: GameDescriptor, settings: dict[str, Any]) -> int:
    """The seats these settings give; refused settings: the game's most (the proposal then
    names what is wrong with the settings)."""
    try:
        return game.seats_for(settings)
    except GameError:
        return game.seats


@router.post("/lobby/propose", response_class=HTMLResponse)
async def propose_post(request: Request, club: ClubDep, posted: MemberFormDep):
    member, form = posted.member, posted.fields
    try:
        game = game_of(form.get("game"))
        exhibition = form.get("exhibition") == "on"
        prefix = f"{game.code}."
        settings = game.settings_from_form({k[len(prefix):]: v for k, v in form.items() if k.startswith(prefix)})
        seats = _seats(form, _seat_count(game, settings), exhibition)
        timer = _timer(form.get("timer"), seats)
        partie_id = await run_in_threadpool(
            lambda: proposals.propose(club, member, game.code, settings, timer, seats, exhibition,
                                      **_slow_options(form, timer)),
        )
        summary = await run_in_threadpool(proposals.get_summary, club, partie_id, member)
    except ClubError as e:
        ctx = await run_in_threadpool(_lobby_ctx, request, club, member, form={**default_form(), **form},
                                      error=e.code, error_message=e.message)
        return render(request, "lobby.html", ctx, status=422 if e.status < 500 else 400)
    if summary["status"] == "running":
        return RedirectResponse(f"/table/{partie_id}", status_code=303)
    return RedirectResponse(f"/lobby?proposed={partie_id}&game={game.code}", status_code=303)


@router.post("/lobby/{partie_id}/seats/{seat}/{kind}", response_class=HTMLResponse)
async def seat_post(partie_id: int, seat: int, kind: str, request: Request, club: ClubDep, posted: MemberFormDep):
    """The proposer fills a seat again (after a decline): a computer player, or an open seat."""
    member, form = posted.member, posted.fields
    if kind not in ("bot", "open"):
        return Response(status_code=404)
    spec = proposals.SeatSpec("bot", bot=_bot(form.get("bot"))) if kind == "bot" else proposals.SeatSpec("open")
    try:
        summary = await run_in_threadpool(proposals.set_seat, club, member, partie_id, seat, spec)
    except ClubError as e:
        ctx = await run_in_threadpool(_lobby_ctx, request, club, member, error=e.code, error_message=e.message)
        return render(request, "lobby.html", ctx, status=e.status if 400 <= e.status < 500 else 400)
    if summary.get("status") == "running":
        return RedirectResponse(f"/table/{partie_id}", status_code=303)
    return RedirectResponse("/lobby", status_code=303)


@router.post("/lobby/{partie_id}/{verb}", response_class=HTMLResponse)
async def answer_post(partie_id: int, verb: str, request: Request, club: ClubDep, posted: MemberFormDep):
    member = posted.member
    try:
        if verb in ("accept", "decline"):
            summary = await run_in_threadpool(proposals.answer, club, member, partie_id, verb == "accept")
        elif verb == "join":
            summary = await run_in_threadpool(proposals.join, club, member, partie_id, None)
        elif verb == "withdraw":
            await run_in_threadpool(proposals.withdraw, club, member, partie_id)
            summary = {"status": "withdrawn"}
        elif verb == "rematch":  # the revanš of a finished partie: the new one's page
            done = await run_in_threadpool(rematch.rematch, club, member, partie_id)
            summary = await run_in_threadpool(proposals.get_summary, club, done.partie_id, member)
            partie_id = done.partie_id
        else:
            return Response(status_code=404)
    except ClubError as e:
        ctx = await run_in_threadpool(_lobby_ctx, request, club, member, error=e.code, error_message=e.message)
        return render(request, "lobby.html", ctx, status=e.status if 400 <= e.status < 500 else 400)
    if summary.get("status") == "running":
        return RedirectResponse(f"/table/{partie_id}", status_code=303)
    if verb == "rematch":
        return RedirectResponse(f"/lobby?proposed={partie_id}", status_code=303)
    return RedirectResponse("/lobby", status_code=303)
