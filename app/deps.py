"""FastAPI dependencies: the Club of this app and the member of the request, and the
gate in front of every route that names a partie (rulings T8, T11).

The gate: every route takes the Club through :func:`get_club`; a request whose path has
a ``partie_id`` naming a table of a running tournament round is refused there (403
``tournament_table_hidden``; a browser gets the hidden table's page) unless the member
of its session, or the bot of its token, sits at that table. So no route reads anything
of a hidden table, whatever it is (added later ones too); ``tests/test_hidden_tables.py``
walks every route to hold it. The table's socket asks the same rule when it opens
(app/tables/reads.py), the lists filter with ``open_to`` (app/parties/visibility.py).
"""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import TypeAdapter, ValidationError
from starlette.requests import HTTPConnection

from app.bots import accounts as bot_accounts
from app.club import Club
from app.errors import ClubError, Invalid, NotAuthenticated, NotFound
from app.members.service import CurrentMember, authenticate
from app.members.cookies import session_token
from app.parties.visibility import TableGate, TableHidden


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
    partie_id = request.path_params.get(PARTIE_PARAM)
    if partie_id is not None:
        await _partie_gate(request, partie_id)
    return request.app.state.club


PARTIE_PARAM = "partie_id"


async def _partie_gate(conn: HTTPConnection, value: Any) -> None:
    try:
        partie_id = _INT.validate_python(str(value))
    except ValidationError:
        return  # the route's own validation answers (422)
    gate: TableGate = conn.app.state.table_gate
    if not gate.known_open(partie_id):  # from memory for every table but those of running rounds
        await run_in_threadpool(_check_partie, conn, gate, partie_id)


def _check_partie(conn: HTTPConnection, gate: TableGate, partie_id: int) -> None:
    club = conn.app.state.club
    with club.db.read() as s:
        facts = gate.hidden(s, partie_id)
    if facts is not None and _viewer_id(conn, club) not in facts.members:
        raise TableHidden(facts.tournament_id or 0, facts.round_no or 0)


def _viewer_id(conn: HTTPConnection, club: Club) -> int | None:
    """The member of the request's session, or the bot of its token (None: nobody)."""
    token = bot_accounts.bearer_token(conn.headers.get("authorization"))
    try:
        if token is not None:
            return bot_accounts.authenticate(club.db, token).id
        cookie = session_token(conn, club.settings)
        return authenticate(club.db, club.settings, cookie).id if cookie else None
    except ClubError:
        return None


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


def current_bot(request: Request, club: ClubDep) -> bot_accounts.CurrentBot:
    """The bot account of the request's token (``Authorization: Bearer kbt_...``), for a
    route of a package beside app/bots (a league's season, app/leagues/router.py)."""
    return bot_accounts.authenticate(club.db, bot_accounts.bearer_token(request.headers.get("authorization")))


BotDep = Annotated[bot_accounts.CurrentBot, Depends(current_bot)]


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
