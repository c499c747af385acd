"""Helpers of the security tests (tests/security/) and of others that check the same: members' clients
with the site's Origin, a partie of members only, every row of the database, the security headers."""

from __future__ import annotations

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Base
from tests.support.web import member

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


REQUIRED_CSP = ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]


def csp_directives(value: str) -> dict[str, str]:
    return {d.strip().split(" ", 1)[0]: d.strip() for d in value.split(";") if d.strip()}


def check_headers(r, docs: bool = False) -> None:
    assert r.headers["x-content-type-options"] == "nosniff", r.url
    assert r.headers["referrer-policy"] in ("same-origin", "no-referrer", "strict-origin"), r.url
    directives = csp_directives(r.headers["content-security-policy"])
    for d in REQUIRED_CSP:
        name = d.split(" ")[0]
        if docs and name == "script-src":
            continue
        assert directives[name] == d, (r.url, directives.get(name))
    if not docs:
        assert "'unsafe-inline'" not in r.headers["content-security-policy"]
        assert "'unsafe-eval'" not in r.headers["content-security-policy"]




def lora_of_members(server) -> tuple[int, list[httpx.Client]]:
    clients = [member(server.url, name) for name in NAMES]
    seats = [{"kind": "member", "name": n} for n in NAMES[1:]]
    pid = clients[0].post("/api/parties", json={"game": "lora", "seats": seats}).json()["id"]
    for c in clients[1:]:
        assert c.post(f"/api/parties/{pid}/accept").status_code == 200
    return pid, clients
