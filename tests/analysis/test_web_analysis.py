"""The replay's analysis over the API: computed once in a worker process, then read from
its cache; 404 for an unknown partie or deal or a game without analysis. While a partie
runs its ended deals are analysed for its players only (403 for the others), 409 for the
deal in play; once it is over, for every member."""

from __future__ import annotations

import dataclasses
import math

import pytest

from sqlalchemy import func, select, update

from app.analysis import service
from app.analysis.deal import ANALYSIS_VERSION, analyse_deal
from app.analysis.workers import RUNNING, STARTED, WorkerPool
from app.db.models import DealAnalysis, Partie
from app.games.registry import descriptor
from tests.support.club import Seat, store_finished
from tests.support.api import error_code, register
from tests.support.web import wait_for

URL = "/api/parties/{}/deals/{}/analysis"


def analysis_rows(app) -> int:
    with app.state.club.db.read() as s:
        return s.scalar(select(func.count()).select_from(DealAnalysis))


def test_the_analysis_is_computed_once_then_read_from_its_cache(client, app):
    ana = register(app, "ana")
    pool = app.state.club.analyses
    pid = store_finished(app.state.club.db, "lora", [Seat("ana"), Seat(), Seat(), Seat()], rng_seed=4)
    k = 3  # Herc
    first = ana.get(URL.format(pid, k))
    assert first.status_code == 202 and first.json() == {"status": "pending"}
    assert pool.computations == 1
    again = ana.get(URL.format(pid, k))  # while it runs (or just after): no second computation
    assert again.status_code in (200, 202) and pool.computations == 1
    done = wait_for(lambda: (r := ana.get(URL.format(pid, k))).status_code == 200 and r.json(), timeout=120)
    assert done["status"] == "done" and done["deal"] == k and done["players"] == ["ana", "AI 2", "AI 3", "AI 4"]
    record = ana.get(f"/api/parties/{pid}/record").json()
    computed = {key: v for key, v in done.items() if key != "status"}
    assert computed == analyse_deal(record, k)
    assert done["rows"] and all(r["saved"] >= 0 for r in done["rows"])

    # the cache answers from now on: one row, no new computation, and what the row says
    assert analysis_rows(app) == 1
    assert ana.get(URL.format(pid, k)).json() == done
    kibic = register(app, "kibic")  # whoever may replay the partie
    assert kibic.get(URL.format(pid, k)).json() == done
    with app.state.club.db.write() as s:
        s.execute(update(DealAnalysis).values(result={**computed, "rows": []}))
    assert ana.get(URL.format(pid, k)).json()["rows"] == []
    assert pool.computations == 1 and analysis_rows(app) == 1
    # another deal is another computation
    assert ana.get(URL.format(pid, 0)).status_code == 202 and pool.computations == 2
    wait_for(lambda: ana.get(URL.format(pid, 0)).status_code == 200, timeout=120)
    assert analysis_rows(app) == 2


def test_an_analysis_of_an_earlier_version_of_the_players_is_computed_again(client, app):
    ana = register(app, "ana")
    pool = app.state.club.analyses
    pid = store_finished(app.state.club.db, "lora", [Seat("ana"), Seat(), Seat(), Seat()], rng_seed=6)
    record = ana.get(f"/api/parties/{pid}/record").json()
    fresh = analyse_deal(record, 1)
    assert fresh["version"] == ANALYSIS_VERSION
    stale = {key: v for key, v in fresh.items() if key != "version"}  # as the first version kept them
    with app.state.club.db.write() as s:
        s.add(DealAnalysis(partie_id=pid, deal_index=1, result={**stale, "rows": []}))
    assert ana.get(URL.format(pid, 1)).status_code == 202 and pool.computations == 1
    done = wait_for(lambda: (r := ana.get(URL.format(pid, 1))).status_code == 200 and r.json(), timeout=120)
    assert done == {"status": "done", **fresh} and analysis_rows(app) == 1
    assert ana.get(URL.format(pid, 1)).json() == done and pool.computations == 1


def test_a_preferans_hand_is_analysed_in_tricks(client, app):
    ana = register(app, "ana")
    db = app.state.club.db
    pid = store_finished(db, "preferans", [Seat("ana"), Seat(), Seat()], settings={"bule": 30, "refe": 1}, rng_seed=3)
    record = ana.get(f"/api/parties/{pid}/record").json()
    k = next(k for k, d in enumerate(record["deals"]) if sum(len(w) == 2 for _, w in d["actions"]) > 6)
    assert ana.get(URL.format(pid, k)).status_code == 202
    done = wait_for(lambda: (r := ana.get(URL.format(pid, k))).status_code == 200 and r.json(), timeout=120)
    assert done["game"] == "preferans" and {key: v for key, v in done.items() if key != "status"} == analyse_deal(record, k)
    assert any(r["values"] for r in done["rows"])


@pytest.mark.one_database
@pytest.mark.parametrize("options, k", [({}, 3), ({"sto_jedan": True, "makk": True}, 6)])
def test_a_lorum_deal_is_analysed_in_chips(client, app, options, k):
    """Kvart of the Club's Lórum, and 101 with both extras: computed in the worker like Lora's."""
    ana = register(app, "ana")
    pid = store_finished(app.state.club.db, "lorum", [Seat("ana"), Seat(), Seat(), Seat()], settings=options, rng_seed=2)
    assert ana.get(URL.format(pid, k)).status_code == 202
    done = wait_for(lambda: (r := ana.get(URL.format(pid, k))).status_code == 200 and r.json(), timeout=120)
    record = ana.get(f"/api/parties/{pid}/record").json()
    assert done["game"] == "lorum" and {key: v for key, v in done.items() if key != "status"} == analyse_deal(record, k)
    assert done["rows"] and all(r["values"] is not None for r in done["rows"])


def test_unknown_parties_and_deals_games_without_analysis_and_parties_not_over(client, app, monkeypatch):
    ana = register(app, "ana")
    db = app.state.club.db
    pid = store_finished(db, "lora", [Seat("ana"), Seat(), Seat(), Seat()], rng_seed=5)
    for partie, deal, code in ((pid + 100, 0, "no_such_partie"), (pid, 28, "no_such_deal"), (pid, -1, "no_such_deal")):
        r = ana.get(URL.format(partie, deal))
        assert r.status_code == 404 and error_code(r) == code, r.text
    pref = store_finished(db, "preferans", [Seat("ana"), Seat(), Seat()], settings={"bule": 30, "refe": 1})
    # every game of the Club has an analysis: a game whose descriptor says none
    without = dataclasses.replace(descriptor("preferans"), analysis=False)
    monkeypatch.setattr(service, "descriptor", lambda code: without if code == "preferans" else descriptor(code))
    r = ana.get(URL.format(pref, 0))
    assert r.status_code == 404 and error_code(r) == "no_analysis" and "Preferans" in r.json()["error"]["message"]

    body = {"game": "lora", "seats": [{"kind": "bot"}] * 3}
    running = ana.post("/api/parties", json=body).json()["id"]  # ana and three computer players
    r = ana.get(URL.format(running, 0))
    assert r.status_code == 409 and error_code(r) == "deal_not_ended"  # the first deal is being played
    assert "being played" in r.json()["error"]["message"]
    r = register(app, "kibic").get(URL.format(running, 0))
    assert r.status_code == 403 and error_code(r) == "not_a_player" and "only its players" in r.json()["error"]["message"]
    assert app.state.club.analyses.computations == 0 and analysis_rows(app) == 0
    from fastapi.testclient import TestClient

    assert TestClient(app).get(URL.format(pid, 0)).status_code == 401  # members only, as the replay


@pytest.mark.one_database
@pytest.mark.parametrize("game, options, seats", [("lora", {}, 4), ("preferans", {"bule": 30, "refe": 1}, 3)])
def test_a_running_partie_s_ended_deals_are_analysed_for_its_players_only(client, app, game, options, seats):
    ana, kibic = register(app, "ana"), register(app, "kibic")
    db = app.state.club.db
    pid = store_finished(db, game, [Seat("ana")] + [Seat()] * (seats - 1), settings=options, rng_seed=7,
                         stop=lambda e: e.deal_index >= 2 and e.seats_to_act() == [0])
    record = ana.get(f"/api/parties/{pid}/record").json()
    assert record["unfinished"] and record["redacted_deal"] == 2  # deals 0 and 1 have ended, 2 is in play
    pool = app.state.club.analyses
    # not a player: refused while it runs, nothing computed
    r = kibic.get(URL.format(pid, 0))
    assert r.status_code == 403 and error_code(r) == "not_a_player" and pool.computations == 0
    # the deal in play, and a deal not dealt yet
    r = ana.get(URL.format(pid, 2))
    assert r.status_code == 409 and error_code(r) == "deal_not_ended" and "being played" in r.json()["error"]["message"]
    r = ana.get(URL.format(pid, 3))
    assert r.status_code == 404 and error_code(r) == "no_such_deal"
    assert kibic.get(URL.format(pid, 2)).status_code == 403  # nothing of the deal in play to a non-player
    assert pool.computations == 0 and analysis_rows(app) == 0
    # a player: the ended deal, as the finished partie's would be
    assert ana.get(URL.format(pid, 1)).status_code == 202
    done = wait_for(lambda: (r := ana.get(URL.format(pid, 1))).status_code == 200 and r.json(), timeout=120)
    assert {key: v for key, v in done.items() if key != "status"} == analyse_deal(record, 1)
    assert done["rows"] and analysis_rows(app) == 1
    assert kibic.get(URL.format(pid, 1)).status_code == 403  # kept, and still not his while it runs
    # once it is over, every member reads the kept analysis
    with db.write() as s:
        s.execute(update(Partie).where(Partie.id == pid).values(status="finished"))
    assert kibic.get(URL.format(pid, 1)).json() == done and pool.computations == 1


def test_a_failed_computation_is_told_once_and_may_be_retried():
    pool = WorkerPool()
    stored: list = []
    try:
        assert pool.start("k", math.sqrt, (-1.0,), stored.append) == STARTED
        assert pool.start("k", math.sqrt, (-1.0,), stored.append) in (RUNNING, STARTED)
        wait_for(lambda: not pool.running("k"), timeout=60)
        failure = pool.failure("k")
        assert failure is not None and "ValueError" in failure and pool.failure("k") is None
        assert pool.start("k", math.sqrt, (4.0,), stored.append) == STARTED
        wait_for(lambda: not pool.running("k"), timeout=60)
        assert stored == [2.0] and pool.failure("k") is None
    finally:
        pool.close()
