"""The analysis of a deal as the API gives it: checked, cached, computed once.

The first request for a deal starts its computation in a worker process
(:mod:`app.analysis.workers`) and answers "pending"; so does every request while it
runs. The result is kept in ``deal_analyses`` (a finished partie never changes) and
every later request reads it from there, as long as it carries today's
``ANALYSIS_VERSION`` (one computed by an earlier version of the players is computed again). Only the deals of a finished partie are
analysed, of a game whose descriptor says ``analysis``; whoever may replay a partie may
ask (any member, as for the archive's replay).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from app.analysis.deal import ANALYSIS_VERSION, analyse_deal
from app.analysis.workers import STORED
from app.db.models import DealAnalysis
from app.errors import ClubError, Conflict, NotFound
from app.games.registry import descriptor
from app.members.service import CurrentMember
from app.parties import archive
from app.parties.lookup import get_partie

if TYPE_CHECKING:
    from app.club import Club

PENDING = {"status": "pending"}


def deal_analysis(club: Club, partie_id: int, k: int, member: CurrentMember) -> tuple[int, dict[str, Any]]:
    """(200, the analysis) once it is computed, (202, pending) until then; NotFound for an
    unknown partie or deal or a game without analysis, Conflict for a partie not over."""
    key = (partie_id, k)
    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        game = descriptor(partie.game)
        if not game.analysis:
            raise NotFound(f"there is no analysis for {game.name('en')}", code="no_analysis")
        if partie.status != "finished":
            raise Conflict("only the deals of a finished partie are analysed; this one is not over",
                           code="partie_not_finished")
    cached = _cached(club, key)
    if cached is not None:
        return 200, cached
    pool = club.analyses
    if pool.running(key):
        return 202, PENDING
    failure = pool.failure(key)
    if failure is not None:
        raise ClubError(f"the analysis failed ({failure}); ask again to retry", code="analysis_failed", status=500)
    record = archive.record(club, partie_id, member)
    n = len(record.get("deals") or [])
    if not 0 <= k < n:
        raise NotFound(f"the partie has deals 0 to {n - 1}" if n else "the partie has no deals", code="no_such_deal")

    def store(result: dict[str, Any]) -> None:
        try:
            with club.db.write() as s:
                row = s.get(DealAnalysis, key)
                if row is None:
                    s.add(DealAnalysis(partie_id=partie_id, deal_index=k, result=result))
                elif not current(row.result):  # computed by an earlier version of the players
                    row.result, row.created_at = result, club.clock.now()
        except IntegrityError:
            pass  # another server instance stored the same analysis first

    if pool.start(key, analyse_deal, (record, k), store, lambda: _cached(club, key) is not None) == STORED:
        stored = _cached(club, key)
        assert stored is not None
        return 200, stored
    return 202, PENDING


def current(result: dict[str, Any]) -> bool:
    """Was this analysis computed by today's computer players?"""
    return result.get("version", 1) == ANALYSIS_VERSION


def _cached(club: Club, key: tuple[int, int]) -> dict[str, Any] | None:
    """The kept analysis of the deal, unless there is none or it is out of date."""
    with club.db.read() as s:
        row = s.get(DealAnalysis, key)
        return {"status": "done", **row.result} if row is not None and current(row.result) else None
