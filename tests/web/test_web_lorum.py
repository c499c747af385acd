"""Lórum in the Club: a partie against three computer players over the API, its score
sheet with the bank, and its record (redacted while it runs)."""

import pytest

from app.games.records import replayed_record
from tests.support.api import error_code, my_turn_state, play_to_end, register


@pytest.mark.one_database
def test_lorum_partie_against_computer_players(client, app):
    ana = register(app, "ana")
    r = ana.post("/api/parties", json={"game": "lorum", "seats": [{"kind": "bot"}] * 3})
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    state = my_turn_state(ana, pid)
    assert state["view"]["game"] == "lorum" and len(state["view"]["deal"]["hand"]) == 8

    rec = ana.get(f"/api/parties/{pid}/record").json()
    assert rec["unfinished"] is True and "seed" not in rec
    running = rec["deals"][rec["redacted_deal"]]
    assert running["hands"][1:] == [None, None, None]

    play_to_end(ana, pid, client)
    sheet = ana.get(f"/api/parties/{pid}/score-sheet").json()
    assert sheet["status"] == "finished"
    result = sheet["result"]
    assert len(result["deals"]) == 28 and result["bank"] == 0
    assert sum(result["totals"]) == 0
    rec = ana.get(f"/api/parties/{pid}/record").json()
    assert rec["game"] == "lorum" and replayed_record(rec)["result"] == result
    assert error_code(ana.post(f"/api/parties/{pid}/actions", json={"word": "7S", "version": 1})) in (
        "not_running", "stale_version")
