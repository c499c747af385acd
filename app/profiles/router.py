"""A member's profile (moved from app/members/router.py: same path, same tag)."""

from __future__ import annotations

from fastapi import APIRouter, Query

from app.deps import ClubDep, MemberDep
from app.profiles import service as profile

router = APIRouter(prefix="/api", tags=["members"])


@router.get(
    "/members/{name}/profile",
    summary="A member's profile: ratings and their history, statistics per game, recent parties",
    responses={404: {"description": "no member of that name (or of the name in vs)"}},
)
def member_profile(
    name: str, member: MemberDep, club: ClubDep,
    vs: str | None = Query(default=None, max_length=64, description="another member: the head-to-head against him"),
):
    return profile.profile(club, name, vs or None, member.id)
