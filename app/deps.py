"""FastAPI dependencies: the Club of this app and the member of the request."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import Depends, Request
from pydantic import TypeAdapter, ValidationError

from app.club import Club
from app.errors import ClubError, Invalid, NotAuthenticated, NotFound
from app.members.service import CurrentMember, authenticate
from app.members.cookies import session_token


MAX_ID = 2**63 - 1  # the database's integer keys
_INT = TypeAdapter(int)


async def get_club(request: Request) -> Club:
    # async: it waits on nothing, and FastAPI runs a plain def dependency in a worker
    # thread (one more thread hop on every request).
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


async def json_body(request: Request, limit: int) -> Any:
    """The request's JSON body, read up to ``limit`` bytes (413 ``too_large`` past it).

    Parsed by orjson: invalid UTF-8, lone surrogates ("\\ud800", which no response could
    encode back), NaN and nesting past 1,024 levels are a 422 with the parser's reason.
    """
    too_large = ClubError(f"the body has at most {limit} bytes", code="too_large", status=413)
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type and content_type != "application/json" and not content_type.endswith("+json"):
        raise ClubError("the body is JSON (Content-Type: application/json)", code="unsupported_media_type", status=415)
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError as e:
        raise Invalid(f"the body is not JSON: {e}", code="invalid_request") from None
