"""FastAPI dependencies: the Club of this app and the member of the request."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.club import Club
from app.errors import NotAuthenticated, NotFound
from app.members.service import CurrentMember, authenticate
from app.web.cookies import session_token


MAX_ID = 2**63 - 1  # the database's integer keys


def get_club(request: Request) -> Club:
    # A number id beyond the database's integers names nothing (SQLite would overflow).
    for value in request.path_params.values():
        text = str(value).lstrip("-")
        if text.isdigit() and int(text) > MAX_ID:
            raise NotFound("there is nothing with this id", code="not_found")
    return request.app.state.club


ClubDep = Annotated[Club, Depends(get_club)]


def current_member(request: Request, club: ClubDep) -> CurrentMember:
    return authenticate(club.db, club.settings, session_token(request, club.settings))


def optional_member(request: Request, club: ClubDep) -> CurrentMember | None:
    token = session_token(request, club.settings)
    if not token:
        return None
    try:
        return authenticate(club.db, club.settings, token)
    except NotAuthenticated:
        return None


MemberDep = Annotated[CurrentMember, Depends(current_member)]
OptionalMemberDep = Annotated[CurrentMember | None, Depends(optional_member)]
