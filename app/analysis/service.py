"""The analysis of a deal as the API gives it: checked, cached, computed once.

The first request for a deal starts its computation in a worker process
(:mod:`app.analysis.workers`) and answers "pending"; so does every request while it
runs. The result is kept in ``deal_analyses`` (an ended deal never changes) and
every later request reads it from there, as long as it carries today's
``ANALYSIS_VERSION`` (one computed by an earlier version of the players is computed again).
Only the ended deals are analysed, of a game whose descriptor says ``analysis``: while the
partie runs, those before the deal in play and only for its players (the others wait for
its end: the analysis would tell them the hands of a partie they may still watch); once
it is over, every deal for any member (as for the archive's replay).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from app.analysis.deal import ANALYSIS_VERSION, analyse_deal
from app.analysis.workers import STORED
from app.db.models import DealAnalysis
from app.errors import ClubError, Conflict, Forbidden, NotFound
from app.games.registry import descriptor
from app.members.service import CurrentMember
from app.parties import archive
from app.parties.lookup import get_partie, seat_of
from app.parties.visibility import check_may_watch

if TYPE_CHECKING:
    from app.club import Club

PENDING = {"status": "pending"}


def deal_analysis(club: Club, partie_id: int, k: int, member: CurrentMember) -> tuple[int, dict[str, Any]]:
    """(200, the analysis) once it is computed, (202, pending) until then; NotFound for an
    unknown partie or deal or a game without analysis; while the partie runs, Forbidden for
    a member who does not play in it and Conflict for a deal that has not ended."""
    key = (partie_id, k)
    with club.db.read() as s:
        partie = get_partie(s, partie_id)
        check_may_watch(s, partie, member.id)
        game = descriptor(partie.game)
        if not game.analysis:
            raise NotFound(f"there is no analysis for {game.name('en')}", code="no_analysis")
        finished = partie.status == "finished"
        if not finished and partie.status != "running":
            raise Conflict("the partie has not started; it has no deal to analyse", code="deal_not_ended")
        if not finished and seat_of(partie, member.id) is None:
            raise Forbidden("while a partie runs only its players may see the analysis of its deals; "
                            "the others may once it is over", code="not_a_player")
    record: dict[str, Any] | None = None
    if not finished:  # which deals have ended is known from the record (the deal in play is its last)
        record = archive.record(club, partie_id, member)
        check_deal(record, k)
    cached = _cached(club, key)
    if cached is not None:
        return 200, cached
    pool = club.analyses
    if pool.running(key):
        return 202, PENDING
    failure = pool.failure(key)
    if failure is not None:
        raise ClubError(f"the analysis failed ({failure}); ask again to retry", code="analysis_failed", status=500)
    if record is None:
        record = archive.record(club, partie_id, member)
        check_deal(record, k)

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

    record = {**record, "deals": record["deals"][: k + 1]}  # the deals the analysis replays, no more
    record.pop("redacted_deal", None)
    record.pop("unfinished", None)
    if pool.start(key, analyse_deal, (record, k), store, lambda: _cached(club, key) is not None) == STORED:
        stored = _cached(club, key)
        assert stored is not None
        return 200, stored
    return 202, PENDING


def check_deal(record: dict[str, Any], k: int) -> None:
    """Deal ``k`` of this record has ended (NotFound for a deal it has not, Conflict for the
    deal in play of a running partie: its end is not known yet)."""
    n = len(record.get("deals") or [])
    running = record.get("redacted_deal")
    if running is not None and k == running:
        raise Conflict(f"deal {k} is being played; it can be analysed once it has ended", code="deal_not_ended")
    if not 0 <= k < n:
        raise NotFound(f"the partie has deals 0 to {n - 1}" if n else "the partie has no deals", code="no_such_deal")


def current(result: dict[str, Any]) -> bool:
    """Was this analysis computed by today's computer players?"""
    return result.get("version", 1) == ANALYSIS_VERSION


def _cached(club: Club, key: tuple[int, int]) -> dict[str, Any] | None:
    """The kept analysis of the deal, unless there is none or it is out of date."""
    with club.db.read() as s:
        row = s.get(DealAnalysis, key)
        return {"status": "done", **row.result} if row is not None and current(row.result) else None
