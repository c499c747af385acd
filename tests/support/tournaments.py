"""Tournaments (and the leagues' evenings) through the API: an admin's client, a tournament
created on the Club's clock, a member's table, a round played out with random legal words."""

from __future__ import annotations

import random
from datetime import timedelta

from fastapi.testclient import TestClient

from app.games.registry import descriptor
from app.members.service import ensure_admin
from tests.support.api import ORIGIN, PASSWORD
from tests.support.web import wait_for


def admin_client(app) -> TestClient:
    ensure_admin(app.state.club.db, "sudija", PASSWORD)
    c = TestClient(app, headers=ORIGIN)
    assert c.post("/api/auth/login", json={"name": "sudija", "password": PASSWORD}).status_code == 200
    return c


def create(c: TestClient, clock, **body) -> dict:
    body = {"name": "Petkom uveče", "rounds": 2, "timer": 60, "round_minutes": 120, "pause_minutes": 2,
            "start_at": (clock.now() + timedelta(minutes=10)).isoformat(), **body}
    r = c.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def my_table(c: TestClient, tid: int) -> int:
    data = c.get(f"/api/tournaments/{tid}").json()
    running = [r for r in data["rounds_played"] if r["ended_at"] is None]
    assert running and running[0]["my_table"], data["rounds_played"]
    return running[0]["my_table"]


def play_round(app, clients: dict[str, TestClient], tid: int, seed: int) -> None:
    """Every member plays his own table with random legal words until the round ends.

    Words the game never waits for (preferans' otpis, offers, a fall taken over) are never
    said: an accepted otpis would end a table before its last hand, and whether random play
    meets one depends on the round's deals, which the tournament's secret makes new on
    every run."""
    tables = {name: my_table(c, tid) for name, c in clients.items()}
    game = next(iter(clients.values())).get(f"/api/tournaments/{tid}").json()["game"]
    optional = descriptor(game).engine.optional_words

    def view(name: str) -> dict:
        st = clients[name].get(f"/api/parties/{tables[name]}/view").json()
        return {**st, "legal": [w for w in st["legal"] if w not in optional]}

    rng = random.Random(seed)
    playing = dict(clients)
    for _ in range(20000):
        moved = False
        for name, c in list(playing.items()):
            st = view(name)
            if st["finished"]:
                del playing[name]
            elif st["legal"]:
                c.post(f"/api/parties/{tables[name]}/actions", json={"word": rng.choice(st["legal"]), "version": st["version"]})
                moved = True
        if not playing:
            break
        if not moved:  # the computer players are thinking
            wait_for(lambda: any((st := view(name))["legal"] or st["finished"] for name in playing))
    else:
        raise AssertionError("the round did not finish")
    app.state.club.finished.drain(30)


def round_ended(c: TestClient, tid: int, round_no: int, timeout: float = 20) -> dict:
    return wait_for(lambda: next((r for r in c.get(f"/api/tournaments/{tid}").json()["rounds_played"]
                                  if r["round"] == round_no and r["ended_at"]), None), timeout=timeout)


def body(clock, **more) -> dict:
    first = (clock.now() + timedelta(days=2)).date()
    return {"name": "Zimska liga", "game": "preferans", "format": "svajcarski", "rounds": 1, "hands": 3,
            "weekday": first.weekday(), "start_time": "20:00", "zone": "Europe/Belgrade",
            "first_date": first.isoformat(), "evenings": 4, "best_of": 3, "scale": [10, 8, 6, 5], **more}
