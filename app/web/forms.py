"""One dependency for the pages' form POSTs: a logged-in member's form with its session's
CSRF token. A visitor is sent to the login page (and back), a form without the token gets
the 403 page; either way the route itself does not run and nothing changes. And what such a
POST does next: back to its page, or the page again with the refusal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Callable

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import RedirectResponse, Response

from app.deps import OptionalMemberDep
from app.errors import ClubError
from app.members.service import CurrentMember
from app.web.errors import PageAnswer
from app.web.render import error_page, form_refused, read_form, render, to_login


@dataclass(frozen=True)
class MemberForm:
    member: CurrentMember
    fields: dict[str, str]


async def member_form(request: Request, member: OptionalMemberDep) -> MemberForm:
    if member is None:
        raise PageAnswer(to_login(request))
    fields = await read_form(request)
    if refused := form_refused(request, member, fields):
        raise PageAnswer(refused)
    return MemberForm(member, fields)


MemberFormDep = Annotated[MemberForm, Depends(member_form)]


async def act_on_page(request: Request, member: CurrentMember, call: Callable[[], Any], page: str,
                      page_context: Callable[..., dict[str, Any]], back_to: str) -> Response:
    """Run a page's form action, then back to the page (303). A refused one shows the page
    again with the refusal's code and message (its 4xx); a page gone meanwhile is a 404."""
    try:
        await run_in_threadpool(call)
    except ClubError as e:
        try:
            ctx = await run_in_threadpool(page_context, error=e.code, error_message=e.message)
        except ClubError as missing:
            return error_page(request, member, missing.code, missing.message, 404)
        return render(request, page, ctx, status=e.status if 400 <= e.status < 500 else 400)
    return RedirectResponse(back_to, status_code=303)
