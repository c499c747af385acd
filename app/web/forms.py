"""One dependency for the pages' form POSTs: a logged-in member's form with its session's
CSRF token. A visitor is sent to the login page (and back), a form without the token gets
the 403 page; either way the route itself does not run and nothing changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from app.deps import OptionalMemberDep
from app.members.service import CurrentMember
from app.web.errors import PageAnswer
from app.web.render import form_refused, read_form, to_login


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
