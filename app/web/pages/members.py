"""Log in, register, log out, and the language of the pages."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.deps import ClubDep, OptionalMemberDep
from app.errors import ClubError
from app.members import service as members
from app.members.cookies import clear_session_cookie, session_token, set_session_cookie
from app.web.i18n import COOKIE, LANGUAGES, gettext_for, lang_of
from app.web.render import client_address, context, form_refused, read_form, render, safe_next
from app.web.strings import password_rule

router = APIRouter()


@router.get("/lang/{code}")
def switch_language(code: str, request: Request, next: str | None = None):
    response = RedirectResponse(safe_next(next, "/"), status_code=303)
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=365 * 86400, samesite="lax", path="/")
    return response


def _form_ctx(request: Request, mode: str, nxt: str, name: str, **extra) -> dict:
    """The log-in or register form; the register form states the password rule before."""
    rule = password_rule(gettext_for(lang_of(request))) if mode == "register" else ""
    return context(request, None, mode=mode, next=nxt, name=name, password_rule=rule, **extra)


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, member: OptionalMemberDep, next: str | None = None):
    if member is not None:
        return RedirectResponse(safe_next(next), status_code=303)
    return render(request, "login.html", _form_ctx(request, "login", safe_next(next), ""))


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
        await run_in_threadpool(members.create_account, club.db, club.settings, name, password, address)
        token, _m = await run_in_threadpool(members.login, club.db, club.settings, name, password, address)
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
