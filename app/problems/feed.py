"""Feeding the miner: finished parties' deals go to the analysis' worker processes, off
the request path, one deal at a time (a member's request for a replay's analysis waits
behind one deal, not a whole partie), and their problems into the database.

A partie is mined once it is finished and open to everyone: never while it runs, and a
tournament table not before its round has ended (rulings T8: the record is read through
the one visibility module, for nobody in particular). Each end of a partie looks for every
such partie not mined yet (the one that ended, the tables of a round that has just ended,
any whose notice was lost); ``backfill`` mines the archive in the calling process. The
deal's analysis, when the miner computes it, is kept for the replay as well.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from sqlalchemy import exists, or_, select
from sqlalchemy.exc import IntegrityError

from app.analysis.deal import ANALYSIS_VERSION
from app.analysis.workers import RUNNING
from app.db.models import DealAnalysis, Partie
from app.db.models.problems import Problem, ProblemSource
from app.errors import ClubError
from app.games.registry import descriptors
from app.parties import archive
from app.parties.visibility import round_ended_clause
from app.problems.glicko import START, START_DEVIATION, START_VOLATILITY
from app.problems.mining import mine_deal

if TYPE_CHECKING:
    from app.club import Club
    from app.parties.events import PartieFinished

log = logging.getLogger("klub.problems")
BATCH = 20  # parties taken per look


def minable(limit: int = BATCH, game: str | None = None) -> Any:
    """SQL: the ids of finished parties of games with problems, open to everyone (no
    tournament table of a running round), not mined yet; oldest first."""
    games = [d.code for d in descriptors() if d.problems is not None and d.analysis]
    if game is not None:
        games = [g for g in games if g == game]
    return (select(Partie.id)
            .where(Partie.status == "finished", Partie.game.in_(games),
                   or_(Partie.tournament_id.is_(None), round_ended_clause()),
                   ~exists().where(ProblemSource.partie_id == Partie.id))
            .order_by(Partie.id).limit(limit))


def open_record(club: Club, partie_id: int) -> dict[str, Any] | None:
    """The finished partie's record as anyone may read it (None: not finished, or hidden)."""
    try:
        record = archive.record(club, partie_id, None)
    except ClubError:  # hidden (a running round's table), gone
        return None
    return record if not record.get("unfinished") and record.get("redacted_deal") is None else None


def cached_analysis(club: Club, partie_id: int, k: int) -> dict[str, Any] | None:
    with club.db.read() as s:
        row = s.get(DealAnalysis, (partie_id, k))
        return row.result if row is not None and row.result.get("version", 1) == ANALYSIS_VERSION else None


def store_deal(club: Club, partie_id: int, result: dict[str, Any]) -> int:
    """Keep a deal's problems (and its analysis, if computed); how many were new."""
    k = result["deal"]
    added = 0
    with club.db.write() as s:
        if result.get("analysis") is not None and s.get(DealAnalysis, (partie_id, k)) is None:
            s.add(DealAnalysis(partie_id=partie_id, deal_index=k, result=result["analysis"]))
        for p in result["problems"]:
            known = s.scalar(select(Problem.id).where(Problem.partie_id == partie_id, Problem.deal_index == k,
                                                      Problem.step == p["step"]))
            if known is not None:
                continue
            s.add(Problem(partie_id=partie_id, deal_index=k, step=p["step"], game=result["game"], theme=p["theme"],
                          seat=p["seat"], best=p["best"], played=p["played"], unit=p["unit"], lost=p["lost"],
                          margin=p["margin"], data=p["data"], rating=START, deviation=START_DEVIATION,
                          volatility=START_VOLATILITY, created_at=club.clock.now()))
            added += 1
    return added


def finish_partie(club: Club, partie_id: int, problems: int) -> None:
    try:
        with club.db.write() as s:
            if s.get(ProblemSource, partie_id) is None:
                s.add(ProblemSource(partie_id=partie_id, problems=problems, mined_at=club.clock.now()))
    except IntegrityError:
        pass  # another instance finished it first


class Miner:
    """Mines finished parties in the Club's analysis workers, one deal at a time: a
    member's request for a replay's analysis waits behind one deal at most. A partie's
    last deal stored, the next partie to mine is taken."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self._lock = threading.Lock()
        self._current: list[Any] | None = None  # [partie, the running deal's key, problems so far]
        self.idle = threading.Event()
        self.idle.set()

    def poke(self) -> bool:
        """Start mining the next partie unless one is being mined; whether one started."""
        with self._lock:
            if self._current is not None and not self._failed():
                return False
            self._current = [None, None, 0]
            self.idle.clear()
        try:
            with self.club.db.read() as s:
                ids = list(s.scalars(minable(BATCH)))
            for partie_id in ids:
                record = open_record(self.club, partie_id)
                if record is not None:
                    self._deal(partie_id, record, 0, 0)
                    return True
        except Exception:
            self._release()
            raise
        self._release()
        return False

    def _failed(self) -> bool:
        """The current deal's computation failed: its partie counts as mined with what it had
        (called under the lock)."""
        partie_id, key, count = self._current or (None, None, 0)
        if key is None or self.club.analyses.running(key):
            return False
        reason = self.club.analyses.failure(key)
        if reason is None:
            return False  # between two deals
        log.warning("mining partie %s stopped: %s", partie_id, reason)
        finish_partie(self.club, partie_id, count)
        return True

    def _deal(self, partie_id: int, record: dict[str, Any], k: int, count: int) -> None:
        if k >= len(record["deals"]):
            finish_partie(self.club, partie_id, count)
            self._release()
            self.poke()  # the next partie, if any
            return
        key = ("problems", partie_id, k)
        with self._lock:
            self._current = [partie_id, key, count]

        def store(result: dict[str, Any]) -> None:
            added = store_deal(self.club, partie_id, {**result, "game": record["game"]})
            self._deal(partie_id, record, k + 1, count + added)

        cached = cached_analysis(self.club, partie_id, k)
        if self.club.analyses.start(key, mine_deal, (record, k, cached), store) == RUNNING:
            self._release()  # (never: the replay's analyses have keys of their own)

    def _release(self) -> None:
        with self._lock:
            self._current = None
            self.idle.set()


def subscribe(club: Club) -> Miner:
    """Mine as parties end (on the notices' thread; the work itself in the workers)."""
    miner = Miner(club)

    def on_finished(notice: PartieFinished) -> None:
        miner.poke()

    club.finished.subscribe(on_finished)
    return miner


def backfill(club: Club, limit: int | None = None, game: str | None = None, say: Any = None) -> tuple[int, int]:
    """Mine the archive in this process: (parties mined, problems found)."""
    parties = problems = 0
    skipped: set[int] = set()  # not open to everyone after all: mined by a later look
    while limit is None or parties < limit:
        with club.db.read() as s:
            ids = [i for i in s.scalars(minable(BATCH + len(skipped), game)) if i not in skipped]
        if not ids:
            break
        for partie_id in ids[: None if limit is None else limit - parties]:
            record = open_record(club, partie_id)
            if record is None:
                skipped.add(partie_id)
                continue
            count = 0
            for k in range(len(record["deals"])):
                result = mine_deal(record, k, cached_analysis(club, partie_id, k))
                count += store_deal(club, partie_id, {**result, "game": record["game"]})
            finish_partie(club, partie_id, count)
            parties += 1
            problems += count
            if say is not None:
                say(f"partie {partie_id}: {count} problems")
    return parties, problems
