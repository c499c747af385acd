"""Accounts, sessions and the member list."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from app.members import resets, service
from app.members.cookies import clear_session_cookie, session_token, set_session_cookie
from app.members.cookies import form_token
from app.deps import ClubDep, MemberDep

router = APIRouter(prefix="/api", tags=["members"])


class Credentials(BaseModel):
    name: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class PasswordChange(BaseModel):
    old_password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


class PasswordReset(BaseModel):
    token: str = Field(max_length=128, description="the token of the link an admin made (the end of /reset/...)")
    new_password: str = Field(max_length=1024)


def client_address(request: Request) -> str | None:
    return request.client.host if request.client else None


def _me(member: service.CurrentMember, token: str | None) -> dict:
    """Who; and the session's CSRF token, for clients that send neither Origin nor Sec-Fetch-Site
    (``X-CSRF-Token``, see app/web/security.py)."""
    return {"name": member.name, "role": member.role, "csrf_token": form_token(token)}


@router.post(
    "/auth/register",
    status_code=201,
    summary="Create an account and log in",
    responses={429: {"description": "too many new accounts from this address; see Retry-After"}},
)
async def register(body: Credentials, request: Request, response: Response, club: ClubDep):
    token, member = await run_in_threadpool(
        service.create_account, club.db, club.settings, body.name, body.password, client_address(request)
    )
    set_session_cookie(response, club.settings, token)
    return _me(member, token)


@router.post(
    "/auth/login",
    summary="Log in; a new session every time",
    responses={401: {"description": "wrong name or password (the same for an unknown name)"},
               429: {"description": "too many failed logins for this name or address; see Retry-After"}},
)
async def login(body: Credentials, request: Request, response: Response, club: ClubDep):
    old = session_token(request, club.settings)
    token, member = await run_in_threadpool(
        service.login, club.db, club.settings, body.name, body.password, client_address(request)
    )
    if old:
        await run_in_threadpool(service.end_session, club.db, service.session_id_of(old))
        club.notify_sessions_ended([service.session_id_of(old)])
    set_session_cookie(response, club.settings, token)
    return _me(member, token)


@router.post("/auth/logout", summary="End this session (everywhere=true: every session of mine)")
def logout(member: MemberDep, response: Response, club: ClubDep, everywhere: bool = False):
    if everywhere:
        ended = service.end_all_sessions(club.db, member.id)
    else:
        service.end_session(club.db, member.session_id)
        ended = [member.session_id]
    club.notify_sessions_ended(ended)
    clear_session_cookie(response, club.settings)
    return {"ok": True}


@router.post("/auth/password", summary="Change my password; my other sessions end")
def change_password(body: PasswordChange, member: MemberDep, club: ClubDep):
    ended = service.change_password(club.db, member, body.old_password, body.new_password, club.settings)
    club.notify_sessions_ended(ended)
    return {"ok": True}


@router.post(
    "/auth/reset",
    summary="Set a new password with a reset link an admin made; the link is used up and every session of the member ends",
    responses={404: {"description": "no such link, or it was used already"}, 410: {"description": "the link has expired"}},
)
def reset_password(body: PasswordReset, club: ClubDep):
    name, ended = resets.use_link(club.db, body.token, body.new_password)
    club.notify_sessions_ended(ended)
    return {"ok": True, "name": name}


@router.post(
    "/members/{name}/password-reset",
    status_code=201,
    summary="Admin: a one-time link (valid 24 h) with which a member who forgot his password sets a new one",
    responses={403: {"description": "not an admin"}, 404: {"description": "no member of that name"}},
)
def create_reset_link(name: str, member: MemberDep, club: ClubDep):
    link = resets.create_link(club.db, member, name)
    return {**link, "url": club.settings.site_origin.rstrip("/") + link["path"]}


@router.get("/me", summary="Who am I (and my session's CSRF token)")
def me(member: MemberDep, request: Request, club: ClubDep):
    return _me(member, session_token(request, club.settings))


@router.get("/members", summary="Members, with who is online now")
def members(member: MemberDep, club: ClubDep):
    return {"members": service.list_members(club.db, club.settings)}


@router.post("/members/{name}/disable", summary="Admin: disable a member")
def disable(name: str, member: MemberDep, club: ClubDep):
    club.notify_sessions_ended(service.set_disabled(club.db, member, name, True))
    return {"ok": True}


@router.post("/members/{name}/enable", summary="Admin: enable a member again")
def enable(name: str, member: MemberDep, club: ClubDep):
    service.set_disabled(club.db, member, name, False)
    return {"ok": True}
