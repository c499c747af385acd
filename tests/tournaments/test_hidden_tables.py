"""Rulings T8 and T11: while its round runs, a tournament table is closed to everyone but
the members seated at it, in every read. The test walks every route of the app (the API
schema's and the pages') with a running preferans duplikat's hidden tables: the table of
the other players, and the robot field's. As a player of the other table, a member who
does not play, the organizer, a bot and nobody: every route that names a hidden table
refuses it (403 ``tournament_table_hidden``, or the hidden table's page), and no other
answer carries its id; a profile and the standings say nothing of it, even once it has
finished while the round runs. Once the round has ended, the same walk finds it.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from app.db.models import Member, Partie
from app.members.service import ensure_admin
from app.ratings.service import rebuild
from tests.support.bots import bearer, new_bot
from tests.support.web import wait_for

PASSWORD = "klupska-lozinka-7"
ORIGIN = {"Origin": "http://testserver"}
FIRST_ID = 70_000  # the tournament's tables get ids no other number in an answer has
HIDDEN_PAGE_SR = "skriven dok se kolo ne završi"
HIDDEN_PAGE_EN = "hidden until the round ends"
# Routes the walk does not call: an endless stream of the bot's own games and challenges.
ENDLESS = {"/api/bot/stream"}


def _member(app, name: str) -> TestClient:
    c = TestClient(app, headers=ORIGIN)
    r = c.post("/api/auth/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def _admin(app) -> TestClient:
    ensure_admin(app.state.club.db, "sudija", PASSWORD)
    c = TestClient(app, headers=ORIGIN)
    assert c.post("/api/auth/login", json={"name": "sudija", "password": PASSWORD}).status_code == 200
    return c


def _ids_from(app, first: int) -> None:
    """The next parties get ids from ``first`` on (a withdrawn proposal holds the one before)."""
    db = app.state.club.db
    with db.write() as s:
        admin = s.scalar(select(Member.id).where(Member.name == "sudija"))
        s.add(Partie(id=first - 1, game="preferans", settings={}, status="withdrawn", proposer_id=admin))
    if not db.is_sqlite:
        with db.write() as s:
            s.execute(text("SELECT setval(pg_get_serial_sequence('parties', 'id'), :v)"), {"v": first - 1})


def _table_of(app, tid: int, table_no: int) -> Partie:
    with app.state.club.db.read() as s:
        p = s.scalar(select(Partie).where(Partie.tournament_id == tid, Partie.table_no == table_no))
        return p


def _members_of(p: Partie, names: dict[int, str]) -> list[str]:
    return [names[row.member_id] for row in p.seats if row.member_id in names]


def _play_to_end(clients: list[TestClient], pid: int, seed: int) -> None:
    """The table's members say random legal words (no optional ones) until it ends."""
    rng = random.Random(seed)
    for _ in range(5000):
        views = [c.get(f"/api/parties/{pid}/view").json() for c in clients]
        if views[0]["finished"]:
            return
        movers = [(c, v) for c, v in zip(clients, views) if v["legal"]]
        if not movers:
            wait_for(lambda: any(c.get(f"/api/parties/{pid}/view").json()["legal"] for c in clients)
                     or clients[0].get(f"/api/parties/{pid}/view").json()["finished"])
            continue
        c, v = movers[0]
        words = [w for w in v["legal"] if w not in ("otpis",)] or v["legal"]
        c.post(f"/api/parties/{pid}/actions", json={"word": rng.choice(words), "version": v["version"]})
    raise AssertionError("the table did not finish")


def _path(route: APIRoute, values: dict[str, Any]) -> str:
    missing = [p for p in route.param_convertors if p not in values]
    assert not missing, f"{route.path}: teach the walk a value for {missing}"
    return route.path.format(**{k: values[k] for k in route.param_convertors})


def _routes(app) -> list[APIRoute]:
    return [r for r in app.routes if isinstance(r, APIRoute)]


def _mentions(body: str, ids: list[int]) -> list[int]:
    return [i for i in ids if re.search(rf"(?<![\w.]){i}(?![\w.])", body)]


def _walk(app, viewers: dict[str, dict[str, Any]], values: dict[str, Any], hidden: list[int],
          queries: dict[str, str], skip: tuple[str, ...] = ()) -> list[str]:
    """Every route as every viewer: the problems found (empty: nothing of ``hidden`` told)."""
    problems = []
    for route in _routes(app):
        if route.path in ENDLESS or any(part in route.path for part in skip):
            continue
        page = not route.path.startswith("/api/") and not route.path.startswith("/ui/api/")
        accept = {"Accept": "text/html"} if page else {}
        for who, v in viewers.items():
            c: TestClient = v["client"]
            headers = {**v.get("headers", {}), **accept}
            if "partie_id" in route.param_convertors:
                for pid in hidden:
                    url = _path(route, {**values, "partie_id": pid})
                    for method in sorted(route.methods - {"HEAD"}):
                        r = c.request(method, url, headers=headers, json=None if method == "GET" else {},
                                      follow_redirects=False)
                        if not _refused(r, page and method == "GET"):
                            problems.append(f"{who} {method} {url}: {r.status_code} {r.text[:160]}")
                continue
            if "GET" not in route.methods:
                continue
            url = _path(route, values) + queries.get(route.path, "")
            r = c.get(url, headers=headers, follow_redirects=False)
            told = _mentions(r.text, hidden)
            if told:
                problems.append(f"{who} GET {url}: {r.status_code} names {told}: {r.text[:160]}")
    return problems


def _refused(r, page: bool) -> bool:
    if r.status_code != 403:
        return False
    if page:
        return HIDDEN_PAGE_SR in r.text and 'href="/tournaments/' in r.text
    return r.headers["content-type"].startswith("application/json") \
        and r.json()["error"]["code"] == "tournament_table_hidden"


def _profile(c: TestClient, name: str) -> dict:
    data = c.get(f"/api/members/{name}/profile").json()
    return {"games": data["games"], "recent": data["recent"], "tournaments": data["tournaments"]}


@pytest.mark.one_database
def test_every_route_keeps_a_running_tables_secrets(client, app, clock):
    admin = _admin(app)
    _ids_from(app, FIRST_ID)
    names = [f"igrac{i}" for i in range(6)]
    clients = {n: _member(app, n) for n in names}
    outsider = _member(app, "kibicer")
    owner = _member(app, "vlasnik")
    bot_token = new_bot(owner, "Robi")
    body = {"name": "Petkom uveče", "game": "preferans", "format": "duplikat", "rounds": 2, "timer": 60,
            "round_minutes": 120, "pause_minutes": 2, "hands": 3, "robot_field": True,
            "start_at": (clock.now() + timedelta(minutes=10)).isoformat()}
    r = admin.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for c in clients.values():
        assert c.post(f"/api/tournaments/{tid}/register").status_code == 200
    clock.advance(minutes=10)
    wait_for(lambda: admin.get(f"/api/tournaments/{tid}").json()["current_round"] == 1)

    with app.state.club.db.read() as s:
        ids = dict(s.execute(select(Member.id, Member.name)).all())
    one, two, robots = _table_of(app, tid, 1), _table_of(app, tid, 2), _table_of(app, tid, 0)
    assert min(one.id, two.id, robots.id) >= FIRST_ID
    at_one, at_two = _members_of(one, ids), _members_of(two, ids)
    assert len(at_one) == len(at_two) == 3 and not robots.seats[0].member_id
    hidden = [two.id, robots.id]
    viewers = {
        "a player of table 1": {"client": clients[at_one[0]]},
        "a member who does not play": {"client": outsider},
        "the organizer": {"client": admin},
        "a bot": {"client": TestClient(app, headers=ORIGIN), "headers": bearer(bot_token)},
        "nobody": {"client": TestClient(app, headers=ORIGIN)},
    }
    values = {"tournament_id": tid, "round_no": 1, "board": 1, "deal": 0, "deal_index": 0, "name": at_two[0],
              "record_id": 1, "code": "sr-Latn", "game": "preferans", "token": "nothing", "seat": 1, "kind": "bot",
              "verb": "leave", "action": "leave", "token_id": 1, "league_id": 1,
              "problem_id": 1}
    queries = {"/api/archive": f"?status=all&of={at_two[0]}", "/archive": f"?of={at_two[0]}",
               "/api/members/{name}/profile": f"?vs={at_one[0]}", "/members/{name}": f"?vs={at_one[0]}",
               "/api/standings": "?game=preferans", "/standings": "?game=preferans"}
    profile_before = _profile(outsider, at_two[0])
    standings_before = outsider.get("/api/standings?game=preferans").json()

    # The round runs, every table too: nothing of table 2 or the robots' table anywhere.
    assert _walk(app, viewers, values, hidden, queries) == []
    # Table 2's own players see it, and nothing of the robots' table.
    assert clients[at_two[0]].get(f"/api/parties/{two.id}/score-sheet").status_code == 200
    assert _walk(app, {"a player of table 2": {"client": clients[at_two[0]]}}, values, [robots.id], queries) == []
    # The table's socket refuses the hidden table with an error frame.
    cookie = "; ".join(f"{k}={v}" for k, v in clients[at_one[0]].cookies.items())
    with client.websocket_connect(f"/ws/parties/{two.id}", headers={**ORIGIN, "Cookie": cookie}) as ws:
        frame = ws.receive_json()
    assert frame["type"] == "error" and frame["code"] == "tournament_table_hidden"

    # Table 2 finishes; the round still runs (table 1 has not played): still nothing, not
    # even a place in a profile, a statistic or a rating that moved.
    _play_to_end([clients[n] for n in at_two], two.id, seed=2)
    wait_for(lambda: _table_of(app, tid, 0).status == "finished")
    app.state.club.finished.drain(30)
    assert _table_of(app, tid, 1).status == "running"
    assert _walk(app, viewers, values, hidden, queries) == []
    assert _profile(outsider, at_two[0]) == profile_before
    assert _profile(clients[at_one[0]], at_two[0]) == profile_before
    assert outsider.get("/api/standings?game=preferans").json() == standings_before

    # The round ends: every table is open, and the same walk finds them.
    _play_to_end([clients[n] for n in at_one], one.id, seed=1)
    app.state.club.finished.drain(30)
    wait_for(lambda: admin.get(f"/api/tournaments/{tid}").json()["rounds_played"][0]["ended_at"])
    app.state.club.finished.drain(30)
    # (the analyses left out: computed in worker processes, they only make the test longer)
    found = _walk(app, {"a player of table 1": viewers["a player of table 1"]}, values, hidden, queries,
                  skip=("/analysis",))
    assert any(f"GET /api/tournaments/{tid}:" in p for p in found)
    assert any("/api/parties/" in p and "score-sheet" in p for p in found)
    assert _profile(outsider, at_two[0]) != profile_before
    counted = outsider.get("/api/standings?game=preferans").json()
    assert counted != standings_before
    # rated at the round's end, in the order the rebuild from the archive takes too
    assert rebuild(app.state.club.db) == 2  # the two tables of members (the robots play exhibitions)
    assert outsider.get("/api/standings?game=preferans").json() == counted


@pytest.mark.parametrize("lang, title, text", [
    ("sr-Latn", "Skriveni sto", "Ovaj sto 1. kola je skriven dok se kolo ne završi."),
    ("en", "A hidden table", "This table of round 1 is hidden until the round ends."),
])
def test_a_hidden_table_is_one_plain_page_in_the_members_language(client, app, clock, lang, title, text):
    admin = _admin(app)
    clients = [_member(app, f"igrac{i}") for i in range(6)]
    start = (clock.now() + timedelta(minutes=10)).isoformat()
    tid = admin.post("/api/tournaments", json={
        "name": "Petkom uveče", "game": "preferans", "format": "duplikat", "rounds": 1, "timer": 60,
        "round_minutes": 120, "pause_minutes": 2, "hands": 3, "start_at": start}).json()["id"]
    for c in clients:
        c.post(f"/api/tournaments/{tid}/register")
    clock.advance(minutes=10)
    wait_for(lambda: admin.get(f"/api/tournaments/{tid}").json()["current_round"] == 1)
    me = clients[0]
    mine = me.get(f"/api/tournaments/{tid}").json()["rounds_played"][0]["my_table"]
    with app.state.club.db.read() as s:
        other = s.scalar(select(Partie.id).where(Partie.tournament_id == tid, Partie.id != mine))
    me.get(f"/lang/{lang}")
    for path in (f"/table/{other}", f"/archive/{other}"):
        r = me.get(path, headers={"Accept": "text/html"})
        assert r.status_code == 403 and r.headers["content-type"].startswith("text/html"), path
        main = r.text.split("<main", 1)[1].split("</main>", 1)[0]
        assert text in main and f'href="/tournaments/{tid}"' in main, path
        # one plain page: no table, no seats, no banner, no error word of either language
        assert 'id="table"' not in r.text and "reconnect" not in r.text.lower()
        assert "Greška" not in main and "Error" not in main and "error" not in main
        assert title in r.text.split("<title>", 1)[1].split("</title>", 1)[0]
