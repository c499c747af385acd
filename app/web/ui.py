"""The Club's pages: log in, lobby, tables, archive, rules (Jinja2 templates in ``templates/``).

The pages are rendered on the server; the live tables are drawn by ``static/js/*.js``
from the WebSocket frames of ``/ws/parties/{id}``. Forms post here (not to the JSON
API) so that they work without JavaScript and show their errors in the page.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from app.errors import ClubError
from app.members import service as members
from app.members.router import create_account
from app.parties import archive, proposals
from app.tables import service as tables
from app.web import security, ui_api
from app.web.cookies import clear_session_cookie, session_token, set_session_cookie
from app.web.deps import ClubDep, OptionalMemberDep
from app.web.i18n import COOKIE, DEFAULT_LANG, LANGUAGE_NAMES, LANGUAGES, N_, gettext_for, lang_of

router = APIRouter(include_in_schema=False)
ROOT = Path(__file__).resolve().parents[2]
templates = Jinja2Templates(directory=str(ROOT / "templates"))

# The levels of app.ai (make_bot): value -> label.
BOT_LEVELS = (("pocetnik", N_("beginner")), ("iskusan", N_("experienced")), ("majstor", N_("master")))
DEFAULT_BOT = "iskusan"
TIMER_CHOICES = (15, 30, 60, 120, 300)
BULE_CHOICES = (30, 40, 50, 60, 80, 100, 150, 200, 300, 400)

# Error codes of the services -> what a member reads.
ERROR_TEXTS = {
    "bad_credentials": N_("Wrong name or password."),
    "invalid_name": N_("A name has 3 to 32 letters, digits, '.', '_' or '-'."),
    "invalid_password": N_("The password is too short or too long."),
    "name_taken": N_("That name is taken."),
    "account_disabled": N_("This account is disabled."),
    "no_such_member": N_("There is no member with that name."),
    "invalid_seats": N_("Fill every seat: a member, an open seat or a computer player (each member once)."),
    "invalid_settings": N_("Those settings are not allowed."),
    "invalid_timer": N_("The timer is off or 15 to 300 seconds."),
    "not_proposed": N_("This proposal is no longer open."),
    "not_invited": N_("You are not invited to this partie."),
    "already_seated": N_("You already have a seat at this partie."),
    "no_open_seat": N_("No open seat is left."),
    "not_proposer": N_("Only the proposer may do that."),
    "no_such_partie": N_("There is no such partie."),
    "passwords_differ": N_("The two passwords differ."),
    "common_password": N_("That password is too common; choose another."),
    "too_many_attempts": N_("Too many failed logins; try again later."),
    "too_many_registrations": N_("Too many new accounts from this address; try again later."),
    "bad_csrf": N_("This form has expired; reload the page and try again."),
}

# The error frames of a table socket (app/tables/ws.py) as a member reads them; the page
# carries them as "error:<code>" (table.js shows the server's English text for others).
TABLE_ERROR_TEXTS = {
    "stale_version": N_("The table moved on before your move arrived; look again."),
    "not_your_turn": N_("It is not your turn."),
    "illegal_action": N_("That move is not allowed now."),
    "seat_taken_over": N_("A computer player plays your seat now."),
    "not_running": N_("This partie is not being played."),
    "not_a_player": N_("You do not play at this table."),
    "rate_limited": N_("Too many moves at once; slow down."),
    "invalid_chat": N_("That message cannot be sent."),
    "bad_frame": N_("The server did not understand that message."),
    "bad_json": N_("The server did not understand that message."),
    "unknown_type": N_("The server did not understand that message."),
    "frame_too_large": N_("The server did not understand that message."),
    "action_id_reused": N_("The server did not understand that message."),
}

# Every text the table scripts show, translated into the page (``#klub-strings``).
JS_STRINGS = [
    N_("Your turn"), N_("Reconnecting…"), N_("Waiting for the players"), N_("No deals yet."),
    N_("dealer"), N_("leads"), N_("away"), N_("computer"), N_("online"), N_("tricks"),
    N_("Contract"), N_("Total"), N_("Place"), N_("The partie is over"),
    N_("dalje"), N_("You have no card to play: dalje"), N_("The trick goes to {name}"),
    N_("Score sheet"), N_("Papir"), N_("Sound on"), N_("Sound off"), N_("bule"), N_("supe"),
    N_("refe"), N_("kapa"), N_("Bidding"), N_("Talon"), N_("Škart"),
    N_("Choose two cards for the škart"), N_("Discard"), N_("Announce the contract"),
    N_("declarer"), N_("The previous hand"), N_("All passed"), N_("{name} offers: {word}"),
    N_("The declarer's cards"), N_("Odlazak u bulu"),
    N_("Take over the fall"), N_("Return the fall"), N_("Otpis"), N_("Propose an otpis"),
    N_("{name} proposes an otpis"), N_("{name} takes over the fall"), N_("{name} returns the fall"),
    N_("seconds left"), N_("Hand over to a computer player"), N_("agreed"), N_("Error"),
    N_("Deal {n} of 28"), N_("Hand {n}"), N_("Layout"), N_("Start card"),
    N_("Penalty cards"), N_("Step"), N_("Start"), N_("Back"), N_("Forward"), N_("End"),
    N_("Previous deal"), N_("Next deal"), N_("Loading…"), N_("waiting"),
    N_("The deal is over"), N_("result"), N_("played"), N_("open"), N_("invited"), N_("declined"),
    N_("kontra"), N_("rekontra"), N_("Your session has ended."),
    N_("to act"), N_("You are watching"), N_("Offers of the declarer"), N_("You"),
    N_("You have too many table windows open. Close one of them; trying again in {n} seconds."),
    # suits and ranks
    N_("spades"), N_("diamonds"), N_("hearts"), N_("clubs"), N_("ace"), N_("king"), N_("queen"), N_("jack"),
    N_("of"),
    # Lora contracts (rulings L1)
    N_("Most tricks"), N_("Fewest tricks"), N_("Queens"), N_("Hearts"), N_("Jack of clubs"),
    N_("King of hearts and the last trick"), N_("Lora"),
    # Lórum (issue 8): the bank, Kvart's chain, Fast train
    N_("Bank"), N_("Chain"), N_("The chain needs {card}"), N_("A new chain: any card"), N_("Train"),
    N_("The train needs a {rank} of any suit"), N_("Any card starts the train"), N_("Bank after the deal"),
    # preferans words (record notation)
    N_("word:moje"), N_("word:dalje"), N_("word:igra"), N_("word:betl"), N_("word:sans"),
    N_("word:slabija"), N_("word:pratim"), N_("word:ne pratim"), N_("word:sam"), N_("word:zovem"),
    N_("word:kontra"), N_("word:moze"), N_("word:rekontra"), N_("word:nosim sve"), N_("word:nemam pad"),
    N_("word:prihvatam"), N_("word:odbijam"), N_("word:otpis"), N_("word:preuzimam pad"),
    N_("word:vracam pad"), N_("word:skart"), N_("word:pik"), N_("word:karo"), N_("word:herc"),
    N_("word:tref"), N_("word:nudim"),
]


def ui_setting(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def context(request: Request, member: members.CurrentMember | None, **extra: Any) -> dict[str, Any]:
    lang = lang_of(request)
    _ = gettext_for(lang)
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return {
        "request": request,
        "_": _,
        "lang": lang,
        "languages": LANGUAGE_NAMES,
        "member": member,
        "here": here,
        "here_quoted": quote(here, safe=""),
        # The session-bound CSRF token of this member's forms (app.web.security).
        "csrf": security.form_token(session_token(request, request.app.state.club.settings)) if member else "",
        "error_text": lambda code, fallback=None: _(ERROR_TEXTS[code]) if code in ERROR_TEXTS else (fallback or code),
        **extra,
    }


def render(request: Request, name: str, ctx: dict[str, Any], status: int = 200) -> HTMLResponse:
    response = templates.TemplateResponse(request, name, ctx, status_code=status)
    asked = request.query_params.get("lang")
    if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
        response.set_cookie(COOKIE, asked, max_age=365 * 86400, samesite="lax", path="/")
    return response


def to_login(request: Request) -> RedirectResponse:
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(here, safe='')}", status_code=303)


def safe_next(value: str | None, default: str = "/lobby") -> str:
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return default
    return value


def html_json(data: Any) -> str:
    """JSON to put inside a <script type="application/json"> element."""
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def js_strings(lang: str) -> str:
    _ = gettext_for(lang)
    strings = {s: _(s) for s in JS_STRINGS}
    strings.update({f"error:{code}": _(text) for code, text in TABLE_ERROR_TEXTS.items()})
    return html_json(strings)


# -- language ----------------------------------------------------------------------------


@router.get("/lang/{code}")
def switch_language(code: str, request: Request, next: str | None = None):
    response = RedirectResponse(safe_next(next, "/"), status_code=303)
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=365 * 86400, samesite="lax", path="/")
    return response


# -- log in, register, log out ---------------------------------------------------------


def _session_cookie(response: Response, club, token: str) -> None:
    set_session_cookie(response, club.settings, token)


def _form_refused(request: Request, club, member, form: dict[str, str]) -> Response | None:
    """A logged-in member's form must carry his session's CSRF token (403 page otherwise)."""
    if security.form_token_ok(session_token(request, club.settings), form.get("csrf")):
        return None
    ctx = context(request, member, error="bad_csrf", error_message="the form token is missing or wrong")
    return render(request, "error.html", ctx, 403)


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, member: OptionalMemberDep, next: str | None = None):
    if member is not None:
        return RedirectResponse(safe_next(next), status_code=303)
    return render(request, "login.html", context(request, None, mode="login", next=safe_next(next), name=""))


@router.get("/register", response_class=HTMLResponse)
def register_page(request: Request, member: OptionalMemberDep, next: str | None = None):
    if member is not None:
        return RedirectResponse(safe_next(next), status_code=303)
    return render(request, "login.html", context(request, None, mode="register", next=safe_next(next), name=""))


def _address(request: Request) -> str | None:
    return request.client.host if request.client else None


async def _form(request: Request) -> dict[str, str]:
    form = await request.form()
    return {k: v for k, v in form.items() if isinstance(v, str)}


@router.post("/login", response_class=HTMLResponse)
async def login_post(request: Request, club: ClubDep):
    form = await _form(request)
    name, password = form.get("name", "").strip(), form.get("password", "")
    nxt = safe_next(form.get("next"))
    try:
        token, _m = await run_in_threadpool(members.login, club.db, club.settings, name, password, _address(request))
    except ClubError as e:
        ctx = context(request, None, mode="login", next=nxt, name=name, error=e.code, error_message=e.message)
        response = render(request, "login.html", ctx, status=e.status if e.status < 500 else 400)
        if "retry_after" in e.extra:
            response.headers["Retry-After"] = str(e.extra["retry_after"])
        return response
    old = session_token(request, club.settings)
    if old:
        await run_in_threadpool(members.end_session, club.db, members.session_id_of(old))
        club.notify_sessions_ended([members.session_id_of(old)])
    response = RedirectResponse(nxt, status_code=303)
    _session_cookie(response, club, token)
    return response


@router.post("/register", response_class=HTMLResponse)
async def register_post(request: Request, club: ClubDep):
    form = await _form(request)
    name, password = form.get("name", "").strip(), form.get("password", "")
    nxt = safe_next(form.get("next"))
    try:
        if password != form.get("password2", password):
            raise ClubError("passwords differ", code="passwords_differ", status=422)
        await run_in_threadpool(create_account, club, name, password, _address(request))
        token, _m = await run_in_threadpool(members.login, club.db, club.settings, name, password, _address(request))
    except ClubError as e:
        ctx = context(request, None, mode="register", next=nxt, name=name, error=e.code, error_message=e.message)
        response = render(request, "login.html", ctx, status=e.status if e.status < 500 else 400)
        if "retry_after" in e.extra:
            response.headers["Retry-After"] = str(e.extra["retry_after"])
        return response
    response = RedirectResponse(nxt, status_code=303)
    _session_cookie(response, club, token)
    return response


@router.post("/logout")
async def logout_post(request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is not None and (refused := _form_refused(request, club, member, await _form(request))):
        return refused
    if member is not None:
        await run_in_threadpool(members.end_session, club.db, member.session_id)
        club.notify_sessions_ended([member.session_id])
    response = RedirectResponse("/login", status_code=303)
    clear_session_cookie(response, club.settings)
    return response


# -- lobby -------------------------------------------------------------------------------


def lobby_data(club, member: members.CurrentMember) -> dict[str, Any]:
    data = proposals.lobby(club, member)
    for p in data["playing"]:
        try:
            state = tables.table_state(club, p["id"], member)
            p["my_turn"] = state.get("seat") in (state.get("to_act") or [])
        except ClubError:
            p["my_turn"] = False
    mine_ids = {p["id"] for p in data["playing"]}
    data["running"] = [p for p in data["running"] if p["id"] not in mine_ids]
    data["members"] = members.list_members(club.db, club.settings)
    return data


def _lobby_ctx(request, club, member, **extra):
    data = lobby_data(club, member)
    form = extra.pop("form", None) or {"game": "lora", "bule": "60", "refe": "2", "timer": "",
                                        "seat1": "bot", "seat2": "bot", "seat3": "bot",
                                        "seat1_bot": DEFAULT_BOT, "seat2_bot": DEFAULT_BOT, "seat3_bot": DEFAULT_BOT}
    return context(
        request, member, lobby=data, form=form, bot_levels=BOT_LEVELS, timers=TIMER_CHOICES,
        bule_choices=BULE_CHOICES, **extra,
    )


@router.get("/lobby", response_class=HTMLResponse)
def lobby_page(request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    return render(request, "lobby.html", _lobby_ctx(request, club, member))


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


@router.post("/lobby/propose", response_class=HTMLResponse)
async def propose_post(request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    form = await _form(request)
    if refused := _form_refused(request, club, member, form):
        return refused
    game = form.get("game", "lora")
    if game not in ("lora", "preferans", "lorum"):
        game = "lora"
    n_others = 2 if game == "preferans" else 3
    exhibition = form.get("exhibition") == "on"
    seats: list[proposals.SeatSpec] = []
    for i in range(1, n_others + 1):
        kind = form.get(f"seat{i}", "bot")
        if exhibition:
            kind = "bot"
        if kind == "member":
            seats.append(proposals.SeatSpec("member", form.get(f"seat{i}_name", "").strip()))
        elif kind == "open":
            seats.append(proposals.SeatSpec("open"))
        else:
            seats.append(proposals.SeatSpec("bot", bot=_bot(form.get(f"seat{i}_bot"))))
    if exhibition:
        seats.insert(0, proposals.SeatSpec("bot", bot=_bot(form.get("seat1_bot"))))
    settings: dict[str, Any] = {}
    if game == "preferans":
        settings = {"bule": _int(form.get("bule")) or 60, "refe": _int(form.get("refe"))}
        if settings["refe"] is None:
            settings["refe"] = 2
    timer = _int(form.get("timer"))
    try:
        partie_id = await run_in_threadpool(
            proposals.propose, club, member, game, settings, timer, seats, exhibition
        )
        summary = await run_in_threadpool(proposals.get_summary, club, partie_id, member)
    except ClubError as e:
        ctx = await run_in_threadpool(
            lambda: _lobby_ctx(request, club, member, form=form, error=e.code, error_message=e.message)
        )
        return render(request, "lobby.html", ctx, status=422 if e.status < 500 else 400)
    if summary["status"] == "running":
        return RedirectResponse(f"/table/{partie_id}", status_code=303)
    return RedirectResponse(f"/lobby?proposed={partie_id}", status_code=303)


@router.post("/lobby/{partie_id}/{verb}", response_class=HTMLResponse)
async def answer_post(partie_id: int, verb: str, request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    if refused := _form_refused(request, club, member, await _form(request)):
        return refused
    try:
        if verb in ("accept", "decline"):
            summary = await run_in_threadpool(proposals.answer, club, member, partie_id, verb == "accept")
        elif verb == "join":
            summary = await run_in_threadpool(proposals.join, club, member, partie_id, None)
        elif verb == "withdraw":
            await run_in_threadpool(proposals.withdraw, club, member, partie_id)
            summary = {"status": "withdrawn"}
        else:
            return Response(status_code=404)
    except ClubError as e:
        ctx = await run_in_threadpool(lambda: _lobby_ctx(request, club, member, error=e.code, error_message=e.message))
        return render(request, "lobby.html", ctx, status=e.status if 400 <= e.status < 500 else 400)
    if summary.get("status") == "running":
        return RedirectResponse(f"/table/{partie_id}", status_code=303)
    return RedirectResponse("/lobby", status_code=303)


# -- tables ------------------------------------------------------------------------------


@router.get("/table/{partie_id}", response_class=HTMLResponse)
def table_page(partie_id: int, request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    try:
        summary = proposals.get_summary(club, partie_id, member)
    except ClubError as e:
        return render(request, "error.html", context(request, member, error=e.code, error_message=e.message), 404)
    lang = lang_of(request)
    ctx = context(
        request, member, partie=summary, strings=js_strings(lang),
        trick_pause=int(ui_setting("KLUB_UI_TRICK_PAUSE_MS", 1200)),
        dalje_delay=int(ui_setting("KLUB_UI_DALJE_MS", 700)),
    )
    return render(request, "table.html", ctx)


# -- archive -----------------------------------------------------------------------------


@router.get("/archive", response_class=HTMLResponse)
def archive_page(request: Request, club: ClubDep, member: OptionalMemberDep, status: str = "all", who: str = "me"):
    if member is None:
        return to_login(request)
    if status not in ("all", "finished", "unfinished"):
        status = "all"
    parties = archive.list_parties(club, member.name if who == "me" else None, status, 200)
    return render(request, "archive.html", context(request, member, parties=parties, status=status, who=who))


@router.get("/archive/{partie_id}", response_class=HTMLResponse)
def archive_partie(partie_id: int, request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    try:
        summary = proposals.get_summary(club, partie_id, member)
        sheet = archive.score_sheet(club, partie_id)
    except ClubError as e:
        return render(request, "error.html", context(request, member, error=e.code, error_message=e.message), 404)
    lang = lang_of(request)
    try:
        view = tables.table_state(club, partie_id, None).get("view")
    except ClubError:
        view = None
    data = html_json({"game": summary["game"], "players": sheet["players"], "view": view, "status": summary["status"]})
    ctx = context(request, member, partie=summary, sheet=sheet, sheet_json=data, strings=js_strings(lang))
    return render(request, "archive_partie.html", ctx)


router.include_router(ui_api.router)


# -- rules -------------------------------------------------------------------------------


@router.get("/rules", response_class=HTMLResponse)
def rules_index(request: Request, member: OptionalMemberDep):
    return RedirectResponse("/rules/lora", status_code=303)


@router.get("/rules/{game}", response_class=HTMLResponse)
def rules_page(game: str, request: Request, member: OptionalMemberDep):
    if game not in ("lora", "preferans", "lorum"):
        return render(request, "error.html", context(request, member, error="not_found", error_message=""), 404)
    lang = lang_of(request)
    body = f"rules/{game}.{'en' if lang == 'en' else 'sr'}.html"
    return render(request, "rules.html", context(request, member, game=game, body=body))


DEFAULT_LANGUAGE = DEFAULT_LANG


@router.get("/", response_class=HTMLResponse)
def front_page(request: Request, member: OptionalMemberDep):
    if member is not None:
        return RedirectResponse("/lobby", status_code=303)
    return render(request, "index.html", context(request, None))
