"""Log in, register, log out, the language of the pages; my account (the password) and
the password reset links an admin makes (``/reset/{token}``)."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import zones
from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError
from app.bots import accounts as bots
from app.members import resets
from app.members import service as members
from app.members.cookies import clear_session_cookie, session_token, set_session_cookie
from app.parties import slow_vacation
from app.tournaments import service as tournaments
from app.web.i18n import COOKIE, LANGUAGES, gettext_for, lang_of
from app.web.forms import MemberForm, MemberFormDep
from app.web.render import client_address, context, error_page, form_refused, read_form, render, safe_next, to_login
from app.web.strings import NAME_RULE, password_rule

router = APIRouter()


@router.get("/lang/{code}")
def switch_language(code: str, request: Request, next: str | None = None):
    response = RedirectResponse(safe_next(next, "/"), status_code=303)
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=365 * 86400, samesite="lax", path="/",
                            secure=request.app.state.club.settings.secure_cookies)
    return response


def _form_ctx(request: Request, mode: str, nxt: str, name: str, **extra) -> dict:
    """The log-in or register form; the register form states the name and password rules before."""
    _ = gettext_for(lang_of(request))
    rule = password_rule(_) if mode == "register" else ""
    name_rule = _(NAME_RULE) if mode == "register" else ""
    return context(request, None, mode=mode, next=nxt, name=name, password_rule=rule, name_rule=name_rule, **extra)


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, member: OptionalMemberDep, next: str | None = None, reset: str = "",
               name: str = ""):
    if member is not None:
        return RedirectResponse(safe_next(next), status_code=303)
    # reset=1: back from a password reset link, the new password is set
    return render(request, "login.html", _form_ctx(request, "login", safe_next(next), name.strip()[:32],
                                                   password_was_reset=reset == "1"))


@router.get("/register", response_class=HTMLResponse)
def register_page(request: Request, member: OptionalMemberDep, next: str | None = None):
    if member is not None:
        return RedirectResponse(safe_next(next), status_code=303)
    return render(request, "login.html", _form_ctx(request, "register", safe_next(next), ""))


def _refused_form(request: Request, mode: str, nxt: str, name: str, e: ClubError) -> Response:
    ctx = _form_ctx(request, mode, nxt, name, error=e.code, error_message=e.message)
    response = render(request, "login.html", ctx, status=e.status if e.status < 500 else 400)
    if "retry_after" in e.extra:
        response.headers["Retry-After"] = str(e.extra["retry_after"])
    return response


def _logged_in(nxt: str, club, token: str) -> Response:
    response = RedirectResponse(nxt, status_code=303)
    set_session_cookie(response, club.settings, token)
    return response


@router.post("/login", response_class=HTMLResponse)
async def login_post(request: Request, club: ClubDep):
    form = await read_form(request)
    name, password = form.get("name", "").strip(), form.get("password", "")
    nxt = safe_next(form.get("next"))
    try:
        token, _m = await run_in_threadpool(members.login, club.db, club.settings, name, password, client_address(request))
    except ClubError as e:
        return _refused_form(request, "login", nxt, name, e)
    old = session_token(request, club.settings)
    if old:
        await run_in_threadpool(members.end_session, club.db, members.session_id_of(old))
        club.notify_sessions_ended([members.session_id_of(old)])
    return _logged_in(nxt, club, token)


@router.post("/register", response_class=HTMLResponse)
async def register_post(request: Request, club: ClubDep):
    form = await read_form(request)
    name, password = form.get("name", "").strip(), form.get("password", "")
    nxt = safe_next(form.get("next"))
    address = client_address(request)
    try:
        if password != form.get("password2", password):
            raise ClubError("passwords differ", code="passwords_differ", status=422)
        token, _m = await run_in_threadpool(members.create_account, club.db, club.settings, name, password, address)
    except ClubError as e:
        return _refused_form(request, "register", nxt, name, e)
    return _logged_in(nxt, club, token)


@router.post("/logout")
async def logout_post(request: Request, club: ClubDep, member: OptionalMemberDep):
    if member is not None and (refused := form_refused(request, member, await read_form(request))):
        return refused
    if member is not None:
        await run_in_threadpool(members.end_session, club.db, member.session_id)
        club.notify_sessions_ended([member.session_id])
    response = RedirectResponse("/login", status_code=303)
    clear_session_cookie(response, club.settings)
    return response


# -- my account: the password; an admin's reset links ---------------------------------


def _account(request: Request, member, status: int = 200, **extra) -> Response:
    rule = password_rule(gettext_for(lang_of(request)))
    vacation = slow_vacation.get_vacation(request.app.state.club, member.id)  # slow parties: my vacation and holiday
    club = request.app.state.club
    my_bots = bots.list_bots(club.db, member) if member.role != bots.BOT_ROLE else []
    response = render(request, "account.html", context(request, member, password_rule=rule, vacation=vacation, bots=my_bots,
                                                       bot_scopes=bots.SCOPES, **extra), status=status)
    if "new_token" in extra:
        response.headers["Cache-Control"] = "no-store"  # the token is shown once: no copy in a cache
    return response


def _refused_status(e: ClubError) -> int:
    return e.status if 400 <= e.status < 500 else 400


@router.get("/account", response_class=HTMLResponse)
def account_page(request: Request, member: OptionalMemberDep):
    if member is None:
        return to_login(request)
    return _account(request, member)


@router.post("/account/password", response_class=HTMLResponse)
async def account_password(request: Request, club: ClubDep, posted: MemberFormDep):
    member, form = posted.member, posted.fields
    new = form.get("new_password", "")
    try:
        if new != form.get("new_password2", new):
            raise ClubError("passwords differ", code="passwords_differ", status=422)
        ended = await run_in_threadpool(members.change_password, club.db, member, form.get("old_password", ""), new,
                                        club.settings)
    except ClubError as e:
        response = _account(request, member, _refused_status(e), error=e.code, error_message=e.message)
        if "retry_after" in e.extra:
            response.headers["Retry-After"] = str(e.extra["retry_after"])
        return response
    club.notify_sessions_ended(ended)
    return _account(request, member, changed=True)


@router.post("/account/holiday", response_class=HTMLResponse)
async def account_holiday(request: Request, club: ClubDep, posted: MemberFormDep):
    """On holiday until a time (the form's date and time, in the zone it names: app/zones.py),
    or back now (``end``)."""
    member, form = posted.member, posted.fields
    try:
        if form.get("end"):
            until = None
        else:
            try:
                until = zones.wall_time(form.get("until", ""), zones.form_zone(form.get("tz")))
            except ValueError:
                raise ClubError("a date and a time", code="invalid_holiday", status=422) from None
        await run_in_threadpool(slow_vacation.set_holiday, club, member.id, until)
    except ClubError as e:
        return await run_in_threadpool(_account, request, member, _refused_status(e), holiday_error=e.code,
                                       holiday_error_message=e.message)
    return RedirectResponse("/account#vacation", status_code=303)


@router.post("/account/reset-link", response_class=HTMLResponse)
async def account_reset_link(request: Request, club: ClubDep, posted: MemberFormDep):
    member, form = posted.member, posted.fields
    name = form.get("name", "").strip()[:64]
    try:
        link = await run_in_threadpool(resets.create_link, club.db, member, name)
    except ClubError as e:
        return _account(request, member, _refused_status(e), reset_name=name, reset_error=e.code,
                        reset_error_message=e.message)
    url = club.settings.site_origin.rstrip("/") + link["path"]
    return _account(request, member, reset_link={**link, "url": url})


@router.post("/account/organizer", response_class=HTMLResponse)
async def account_organizer(request: Request, club: ClubDep, posted: MemberFormDep):
    """An admin names a member an organizer of tournaments, or takes it back."""
    member, form = posted.member, posted.fields
    name = form.get("name", "").strip()[:64]
    try:
        done = await run_in_threadpool(tournaments.set_organizer, club, member, name, form.get("organizer") == "on")
    except ClubError as e:
        return _account(request, member, _refused_status(e), organizer_name=name, organizer_error=e.code,
                        organizer_error_message=e.message)
    return _account(request, member, organizer_done=done)


# -- my bots (app/bots/): create one, make and revoke its tokens -------------------------


async def _bot_form(request: Request, posted: MemberForm, action) -> Response:
    member = posted.member
    try:
        done = await run_in_threadpool(action, posted.fields)
    except ClubError as e:
        return _account(request, member, _refused_status(e), bot_error=e.code, bot_error_message=e.message)
    return _account(request, member, **done)


@router.post("/account/bots", response_class=HTMLResponse)
async def account_bot_create(request: Request, club: ClubDep, posted: MemberFormDep):
    member = posted.member

    def create(form) -> dict:
        return {"bot_created": bots.create_bot(club.db, member, form.get("name", "").strip()[:64])}

    return await _bot_form(request, posted, create)


@router.post("/account/bots/token", response_class=HTMLResponse)
async def account_bot_token(request: Request, club: ClubDep, posted: MemberFormDep):
    member = posted.member

    def make(form) -> dict:
        scopes = [scope for scope in bots.SCOPES if form.get(scope) == "on"]
        days = form.get("days", "").strip()
        token = bots.create_token(club.db, member, form.get("bot", "")[:64], scopes,
                                  int(days) if days.isdigit() and len(days) < 6 else days, form.get("label", "")[:200])
        return {"new_token": token}

    return await _bot_form(request, posted, make)


@router.post("/account/bots/revoke", response_class=HTMLResponse)
async def account_bot_revoke(request: Request, club: ClubDep, posted: MemberFormDep):
    member = posted.member

    def revoke(form) -> dict:
        token_id = form.get("token", "")
        if not token_id.isdigit() or len(token_id) > 18:
            raise ClubError("there is no such token", code="no_such_token", status=404)
        bot_id = bots.revoke_token(club.db, member, form.get("bot", "")[:64], int(token_id))
        club.hub.publish(f"bot:{bot_id}", {"kind": "token_revoked", "token": int(token_id)})  # app/bots/streams.py
        return {"token_revoked": True}

    return await _bot_form(request, posted, revoke)


@router.get("/reset/{token}", response_class=HTMLResponse)
def reset_page(token: str, request: Request, club: ClubDep, member: OptionalMemberDep):
    try:
        name = resets.link_member(club.db, token)
    except ClubError as e:
        return error_page(request, member, e.code, e.message, e.status)
    return render(request, "reset.html", context(request, member, token=token, reset_for=name,
                                                 password_rule=password_rule(gettext_for(lang_of(request)))))


@router.post("/reset/{token}", response_class=HTMLResponse)
async def reset_post(token: str, request: Request, club: ClubDep, member: OptionalMemberDep):
    form = await read_form(request)
    if member is not None and (refused := form_refused(request, member, form)):
        return refused
    new = form.get("new_password", "")
    try:
        name = await run_in_threadpool(resets.link_member, club.db, token)
    except ClubError as e:
        return error_page(request, member, e.code, e.message, e.status)
    try:
        if new != form.get("new_password2", new):
            raise ClubError("passwords differ", code="passwords_differ", status=422)
        name, ended = await run_in_threadpool(resets.use_link, club.db, token, new)
    except ClubError as e:
        if e.code in ("invalid_reset_link", "reset_link_expired"):
            return error_page(request, member, e.code, e.message, e.status)
        ctx = context(request, member, token=token, reset_for=name, error=e.code, error_message=e.message,
                      password_rule=password_rule(gettext_for(lang_of(request))))
        return render(request, "reset.html", ctx, status=_refused_status(e))
    club.notify_sessions_ended(ended)
    return RedirectResponse(f"/login?reset=1&name={quote(name)}", status_code=303)
