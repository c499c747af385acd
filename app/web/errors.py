"""Every error leaves as ``{"error": {"code": ..., "message": ...}}`` with a 4xx status.

A browser asking for a page that does not exist (a path outside the API that matches no
route, or a method the page does not take), or a page that a service refuses before the
page's own code runs (a hidden tournament table: app/deps.py), gets the Club's error page
instead: HTML in the member's language (``?lang``, the cookie), with the same status.

A database out of reach (app/db/outage.py) is no 500: 503 ``unavailable`` with
``Retry-After``, wherever it was raised (the session's lookup included)."""

from __future__ import annotations

import json
import logging

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException

from app.db.outage import unavailable, unavailable_error
from app.errors import ClubError

log = logging.getLogger("klub.web")


class PageAnswer(Exception):
    """A page's dependency answers in its route's place (app/web/forms.py: the login page for
    a visitor, the 403 page for a form without its token): the response as it is."""

    def __init__(self, response: Response):
        super().__init__(response.status_code)
        self.response = response


class ErrorResponse(JSONResponse):
    """An error body that can always be sent: a message may quote what the client sent,
    and JSON may carry lone surrogates ("\\ud800") that UTF-8 cannot; they go back as the
    same JSON escapes instead of failing the response (a 500)."""

    def render(self, content) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8", "backslashreplace")


def _describe(errors) -> str:
    parts = []
    for err in errors:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
    return "; ".join(parts) or "invalid request"


# Paths whose answers are JSON for programs, never a page.
API_PREFIXES = ("/api/", "/ui/api/", "/ws/", "/lobby/live", "/static/", "/healthz")


def wants_page(request: Request) -> bool:
    """A browser's request for a page (not the API, not a script's fetch)."""
    path = request.url.path
    if path.startswith(API_PREFIXES) or path in ("/api", "/ws"):
        return False
    return request.method in ("GET", "HEAD") and "text/html" in request.headers.get("accept", "")


def html_error(request: Request, code: str, message: str, status: int, extra: dict | None = None):
    from app.deps import optional_member
    from app.web.render import error_page

    try:
        member = optional_member(request, request.app.state.club)
    except Exception:  # the error page must not fail on the session
        member = None
    return error_page(request, member, code, message, status, extra)


def install(app: FastAPI) -> None:
    @app.exception_handler(PageAnswer)
    async def page_answer(_request: Request, exc: PageAnswer) -> Response:
        return exc.response

    @app.exception_handler(ClubError)
    async def club_error(request: Request, exc: ClubError):
        retry_after = exc.extra.get("retry_after")
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
        headers.update(getattr(exc, "headers", None) or {})  # e.g. WWW-Authenticate (app/bots/accounts.py)
        if wants_page(request):
            page = await run_in_threadpool(html_error, request, exc.code, exc.message, exc.status, exc.extra)
            page.headers.update(headers)
            return page
        return ErrorResponse(exc.body(), status_code=exc.status, headers=headers or None)

    async def database_error(request: Request, exc: Exception):
        if not unavailable(exc):
            raise exc  # a bug, not an outage: the 500 below
        log.warning("the database is out of reach on %s %s: %r", request.method, request.url.path, exc)
        # The ClubError's handler as installed (app/web/metrics.py counts its codes).
        return await request.app.exception_handlers[ClubError](request, unavailable_error())

    app.add_exception_handler(sa_exc.DBAPIError, database_error)
    app.add_exception_handler(sa_exc.TimeoutError, database_error)  # the pool's: no connection came back

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError):
        details = [{"loc": list(e.get("loc", ())), "msg": e.get("msg")} for e in exc.errors()]
        body = {"error": {"code": "invalid_request", "message": _describe(exc.errors()), "details": details}}
        return ErrorResponse(body, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        if wants_page(request):
            return await run_in_threadpool(html_error, request, code, str(exc.detail), exc.status_code)
        return ErrorResponse(
            {"error": {"code": code, "message": str(exc.detail)}}, status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception):
        if unavailable(exc):  # raised outside the routes (a middleware's read): a 503 all the same
            from app.web.security import security_headers

            response = await database_error(request, exc)
            response.headers.update({k.decode(): v.decode() for k, v in security_headers(request.app.state.club.settings)})
            return response
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        # This handler runs outside the middleware stack: add the security headers here.
        from app.web.security import security_headers

        headers = {k.decode(): v.decode() for k, v in security_headers(request.app.state.club.settings)}
        from app.logs import REQUEST_ID

        if (request_id := REQUEST_ID.get()) is not None:  # the id of the traceback's log line
            headers["x-request-id"] = request_id
        return JSONResponse({"error": {"code": "internal", "message": "internal error"}}, status_code=500, headers=headers)
