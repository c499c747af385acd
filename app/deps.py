"""FastAPI dependencies: the Club of this app and the member of the request."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from pydantic import TypeAdapter, ValidationError

from app.club import Club
from app.errors import NotAuthenticated, NotFound
from app.members.service import CurrentMember, authenticate
from app.members.cookies import session_token


MAX_ID = 2**63 - 1  # the database's integer keys
_INT = TypeAdapter(int)


def get_club(request: Request) -> Club:
    # A number id beyond the database's integers names nothing (SQLite would overflow).
    # The parameter is read as the route reads an int (pydantic: " 9_9 ", "+9", "5.0" are
    # numbers; "²" and "١٢" are not, although str.isdigit() says so and int() takes
    # some of them); what is no integer is left to the route's validation (422).
    for value in request.path_params.values():
        try:
            number = _INT.validate_python(str(value))
        except ValidationError:
            continue
        if not -MAX_ID - 1 <= number <= MAX_ID:
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
