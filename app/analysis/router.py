"""The replay's analysis of a deal (app/analysis/service.py)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.analysis import service
from app.deps import ClubDep, MemberDep

router = APIRouter(prefix="/api", tags=["parties"])


@router.get(
    "/parties/{partie_id}/deals/{deal}/analysis",
    summary="The analysis of ended deal k (from 0): each decision with a choice valued with every hand open "
            "(the word said, the best one, the points it would have saved); while the partie runs, for its players",
    responses={202: {"description": '{"status": "pending"}: it is being computed; ask again'},
               403: {"description": "the partie is running and the member does not play in it"},
               404: {"description": "no such partie or deal, or no analysis for this game"},
               409: {"description": "the deal is being played (it has not ended)"}},
)
def deal_analysis(partie_id: int, deal: int, member: MemberDep, club: ClubDep, response: Response):
    status, body = service.deal_analysis(club, partie_id, deal, member)
    response.status_code = status
    return body
