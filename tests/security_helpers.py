"""Helpers of the security tests (tests/test_security_*.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Base

PASSWORD = "klupska-lozinka-7"
NAMES = ["ana", "boki", "ceca", "dule"]


def client_for(app, name: str, register: bool = True, **kwargs) -> TestClient:
    """A logged-in client that says where it comes from, like a browser (``Origin``)."""
    c = TestClient(app, **kwargs)
    c.headers.setdefault("Origin", app.state.club.settings.site_origin)
    path = "/api/auth/register" if register else "/api/auth/login"
    r = c.post(path, json={"name": name, "password": PASSWORD})
    assert r.status_code in (200, 201), r.text
    return c


def members_partie(app, game: str = "lora") -> tuple[int, list[TestClient]]:
    """A running partie of members only (no computer seat moves on its own)."""
    n = 4 if game == "lora" else 3
    clients = [client_for(app, name) for name in NAMES[:n]]
    seats = [{"kind": "member", "name": name} for name in NAMES[1:n]]
    r = clients[0].post("/api/parties", json={"game": game, "seats": seats})
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    for c in clients[1:]:
        assert c.post(f"/api/parties/{pid}/accept").status_code == 200
    assert clients[0].get(f"/api/parties/{pid}").json()["status"] == "running"
    return pid, clients


def snapshot(db) -> dict[str, list]:
    """Every row of every table, to compare before and after."""
    out = {}
    with db.read() as s:
        for table in Base.metadata.sorted_tables:
            rows = s.execute(select(table)).all()
            out[table.name] = sorted((tuple(map(repr, r)) for r in rows))
    return out
