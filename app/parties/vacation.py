"""A member's vacation and holiday for his slow parties (app/parties/slow.py): the routes,
moved from app/members/router.py (same paths, same tag)."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.deps import ClubDep, MemberDep
from app.parties import slow_vacation

router = APIRouter(prefix="/api", tags=["members"])


class HolidayIn(BaseModel):
    until: datetime = Field(description="when the holiday ends (ISO 8601; without a zone: UTC)")


@router.get("/me/vacation", summary="My vacation this year (slow parties): hours left, and my holiday if I am on one")
def my_vacation(member: MemberDep, club: ClubDep):
    return slow_vacation.get_vacation(club, member.id)


@router.put(
    "/me/holiday",
    summary="Go on holiday until a time: my slow parties' clocks stand still (paid at once from my vacation, "
            "in whole hours)",
    responses={422: {"description": "not in the future, or more than my vacation left this year"}},
)
def go_on_holiday(body: HolidayIn, member: MemberDep, club: ClubDep):
    return slow_vacation.set_holiday(club, member.id, body.until)


@router.delete("/me/holiday", summary="Back from holiday now (the whole hours not used are given back)",
               responses={409: {"description": "not on holiday"}})
def end_holiday(member: MemberDep, club: ClubDep):
    return slow_vacation.set_holiday(club, member.id, None)
