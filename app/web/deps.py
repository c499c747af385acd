"""FastAPI dependencies: the Club of this app and the member of the request."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.club import Club
from app.errors import NotAuthenticated
from app.members.service import CurrentMember, authenticate


def get_club(request: Request) -> Club:
    return request.app.state.club


ClubDep = Annotated[Club, Depends(get_club)]


def current_member(request: Request, club: ClubDep) -> CurrentMember:
    return authenticate(club.db, club.settings, request.cookies.get(club.settings.session_cookie))


def optional_member(request: Request, club: ClubDep) -> CurrentMember | None:
    token = request.cookies.get(club.settings.session_cookie)
    if not token:
        return None
    try:
        return authenticate(club.db, club.settings, token)
    except NotAuthenticated:
        return None


MemberDep = Annotated[CurrentMember, Depends(current_member)]
OptionalMemberDep = Annotated[CurrentMember | None, Depends(optional_member)]
