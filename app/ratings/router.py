"""The standings over the API: ``GET /api/standings?game=&period=``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from app.deps import ClubDep, MemberDep
from app.games.registry import codes
from app.ratings.standings import PAGE_SIZE, PERIODS, standings

router = APIRouter(prefix="/api", tags=["ratings"])


@router.get("/standings", summary="Members by rating in one game, with their parties and places over a period")
def get_standings(
    member: MemberDep,
    club: ClubDep,
    game: str = Query("", max_length=32, description="the game's code: " + ", ".join(codes()) + " (default: the first)"),
    period: str = Query("all", max_length=16, description="which parties count: " + ", ".join(PERIODS)),
    page: int = Query(1, ge=1, le=100_000, description=f"{PAGE_SIZE} members a page, by rating"),
    bots: bool = Query(False, description="the bots' own standings (bot accounts, each with its owner) instead"),
) -> dict[str, Any]:
    return standings(club.db, game or None, period, page, bots=bots)
