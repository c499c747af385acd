"""Which parties are mined (app/problems/feed.py): finished ones only, never a running
partie, never a tournament table before its round has ended (rulings T8), each once; and
the live path: a partie's end starts its mining in the analysis' worker processes, whose
problems land in the database, the computed analyses kept for the replay."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import func, select

from app.analysis.deal import ANALYSIS_VERSION
from app.db.models import DealAnalysis, Partie, Tournament, TournamentRound
from app.db.models.problems import Problem, ProblemSource
from app.members.service import register
from app.parties.events import PartieFinished
from app.problems import feed
from tests.support.club import Seat, store_finished, store_running

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def no_analysis_needed(club, partie_id: int, but: tuple[int, ...] = ()) -> None:
    """Every deal's analysis kept already, empty (no decision valued), but those of ``but``:
    the mining then reads them and computes nothing."""
    with club.db.read() as s:
        p = s.get(Partie, partie_id)
    record = feed.open_record(club, partie_id)
    with club.db.write() as s:
        for k in range(len(record["deals"])):
            if k not in but:
                s.add(DealAnalysis(partie_id=partie_id, deal_index=k, created_at=NOW,
                                   result={"game": p.game, "deal": k, "rows": [], "lost": [], "version": ANALYSIS_VERSION}))


def mined(club) -> set[int]:
    with club.db.read() as s:
        return set(s.scalars(select(ProblemSource.partie_id)))


def tournament_table(club, partie_id: int, organizer: int) -> int:
    """Make a finished partie a table of round 1 of a tournament whose round still runs."""
    with club.db.write() as s:
        t = Tournament(name="Kup", game="lorum", settings={}, format="svajcarski", rounds=2, start_at=NOW,
                       timer_seconds=60, round_minutes=60, secret="x" * 16, status="running", current_round=1,
                       organizer_id=organizer)
        s.add(t)
        s.flush()
        s.add(TournamentRound(tournament_id=t.id, round_no=1, started_at=NOW, deadline_at=NOW + timedelta(hours=1)))
        p = s.get(Partie, partie_id)
        p.tournament_id, p.tournament_round, p.table_no = t.id, 1, 1
        return t.id


def test_only_finished_parties_open_to_everyone_are_mined(app):
    club = app.state.club
    ana = register(club.db, "ana", "klupska-lozinka-7")
    seats = [Seat("ana")] + [Seat()] * 3
    plain = store_finished(club.db, "lorum", seats, rng_seed=1)
    table = store_finished(club.db, "lorum", seats, rng_seed=2)
    running = store_running(club.db, "lorum", seats, [], "a-seed")
    for pid in (plain, table):
        no_analysis_needed(club, pid)
    tid = tournament_table(club, table, ana.id)
    assert feed.open_record(club, table) is None  # hidden to anyone but its players
    assert feed.open_record(club, running) is None
    assert feed.backfill(club) == (1, 0)
    assert mined(club) == {plain}
    assert feed.backfill(club) == (0, 0)  # each once
    # the round ends: its table is open, and mined
    with club.db.write() as s:
        s.get(TournamentRound, (tid, 1)).ended_at = NOW + timedelta(minutes=50)
    assert feed.backfill(club) == (1, 0)
    assert mined(club) == {plain, table}
    assert running not in mined(club)
    with club.db.read() as s:
        assert s.scalar(select(func.count()).select_from(Problem).where(Problem.partie_id == running)) == 0


def test_a_partie_that_ends_is_mined_in_the_workers(settings):
    from app.web.main import create_app

    app = create_app(settings.model_copy(update={"problems_mining": True}))  # (off in the other tests)
    club = app.state.club
    register(club.db, "ana", "klupska-lozinka-7")
    miner = app.state.miner
    pid = store_finished(club.db, "lorum", [Seat("ana")] + [Seat()] * 3, rng_seed=7)
    no_analysis_needed(club, pid, but=(1,))  # deal 1 (Queens) is analysed in a worker
    running = store_running(club.db, "lorum", [Seat("ana")] + [Seat()] * 3, [], "b-seed")
    club.finished.publish(PartieFinished(pid, "lorum", {}))
    club.finished.drain(timeout=60)
    assert miner.idle.wait(timeout=300)
    assert mined(club) == {pid}
    with club.db.read() as s:
        kept = s.get(DealAnalysis, (pid, 1))
        assert kept is not None and kept.result["rows"]  # the worker's analysis, kept for the replay
        problems = s.scalars(select(Problem).where(Problem.partie_id == pid)).all()
        assert {p.deal_index for p in problems} <= {1}
        source = s.get(ProblemSource, pid)
        assert source.problems == len(problems)
    assert club.analyses.computations >= 1
    assert running not in mined(club)
    club.analyses.close()


def test_the_backfill_command_mines_the_archive(app, database_url):
    """``python -m app problems backfill`` mines what was not mined, once."""
    from tests.support.db import cli

    club = app.state.club
    register(club.db, "ana", "klupska-lozinka-7")
    pid = store_finished(club.db, "lorum", [Seat("ana")] + [Seat()] * 3, rng_seed=3)
    no_analysis_needed(club, pid)
    r = cli("problems", "backfill", "--verbose", database_url=database_url)
    assert r.returncode == 0, r.stderr
    assert f"partie {pid}: 0 problems" in r.stdout and "1 finished parties mined: 0 problems" in r.stdout
    assert mined(club) == {pid}
    r = cli("problems", "backfill", database_url=database_url)
    assert "0 finished parties mined" in r.stdout
    r = cli("problems", "backfill", "--game", "chess", database_url=database_url)
    assert r.returncode == 2 and "invalid choice" in r.stderr
