"""Upgrades: a database written at every past revision, upgraded step by step to head,
and then served by the Club.

One chain per backend: at each revision of the migrations (alembic's script directory),
in order, the database is upgraded to it, every row written so far must come out of
that migration unchanged (the columns it had), and a generation of rows is written in
every table that exists there (tests/support/upgrade_data.py: real parties played by the engine,
members, sessions, ratings, tournaments, push devices, bot tokens, imported records...).
So the rows of the first revision pass through every later migration. At head the Club
starts on it: it ends the tournament round whose tables had all finished, every partie's
score sheet is the replay of its action log, every member logs in, the sessions, reset
links, bot tokens and push devices still work, and the ratings, tournament and archive
pages answer.

A migration that adds a table fails the test, naming the table, until the test fills it.
"""

from __future__ import annotations

import time

import pytest
from alembic.script import ScriptDirectory
from cryptography.hazmat.primitives import serialization
from fastapi.testclient import TestClient
from sqlalchemy import column, create_engine, select, table

from app.config import Settings
from app.db.database import normalize_url
from app.db.migrate import alembic_config, upgrade
from app.games.records import replayed_record
from app.members import passwords
from tests.support.db import drop_pg_database, fresh_pg_database
from tests.support.upgrade_data import PASSWORD, Known, fill
from tests.support.web import wait_for


def revisions() -> list[str]:
    """Every revision from the first to head (one line of them: no branches)."""
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert len(script.get_heads()) == 1, f"the migrations have several heads: {script.get_heads()}"
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def rows_of(url: str, tables: dict[str, tuple[list[str], list[str]]]) -> dict[str, list[tuple]]:
    """Every row of these tables (only the given columns), in primary key order."""
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as conn:
            out = {}
            for name, (columns, key) in tables.items():
                t = table(name, *(column(c) for c in columns))
                out[name] = [tuple(r) for r in conn.execute(select(t).order_by(*(t.c[c] for c in key)))]
            return out
    finally:
        engine.dispose()


@pytest.fixture
def empty_database(backend, tmp_path):
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'upgraded.db'}"
        return
    url = fresh_pg_database("upgrade")
    try:
        yield url
    finally:
        drop_pg_database(url)


def test_every_revision_s_rows_upgrade_to_head_and_the_club_serves_them(backend, empty_database, redis_url):
    url = empty_database
    passwords.set_cost(1, 1024)
    known = Known(password_hash=passwords.hash_password(PASSWORD))
    started = time.monotonic()
    chain = revisions()
    before: dict[str, list[tuple]] = {}
    kept: dict[str, tuple[list[str], list[str]]] = {}  # the tables written so far: columns, primary key
    for number, revision in enumerate(chain):
        upgrade(url, revision)
        if kept:
            after = rows_of(url, kept)
            for name in kept:
                assert after[name] == before[name], f"migration {revision} changed the rows of {name}"
        engine = create_engine(normalize_url(url))
        try:
            with engine.begin() as conn:
                kept = fill(conn, revision, number, known)
        finally:
            engine.dispose()
        before = rows_of(url, kept)
    assert [name for name, rows in before.items() if not rows] == [], "tables left empty"
    assert set(kept) >= {"members", "parties", "actions", "tournaments", "push_subscriptions", "bot_tokens"}
    filled = time.monotonic() - started

    settings = Settings(database_url=url, redis_url=redis_url, site_origin="http://testserver", bot_delay_seconds=0,
                        default_bot="random", deadline_poll_seconds=0.2, argon2_time_cost=1, argon2_memory_kib=1024,
                        _env_file=None)
    from app.web.main import create_app

    app = create_app(settings)
    with TestClient(app, headers={"Origin": settings.site_origin}) as client:
        app.state.test_portal = client.portal
        try:
            the_club_serves_it(app, client, known)
        finally:
            app.state.test_portal = None
    app.state.club.db.dispose()
    print(f"{backend}: {len(chain)} revisions written and upgraded in {filled:.1f} s,"
          f" served in {time.monotonic() - started - filled:.1f} s")


def logged_in(app, name: str) -> TestClient:
    c = TestClient(app, headers={"Origin": app.state.club.settings.site_origin})
    r = c.post("/api/auth/login", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, (name, r.text)
    return c


def the_club_serves_it(app, client: TestClient, known: Known) -> None:
    from app.push.vapid import VapidKeys
    from app.ratings.service import rebuild

    # every member logs in; the stored sessions, reset links and bot tokens still work
    members = {name: logged_in(app, name) for name in known.members.values()}
    admin = members[known.members[known.gens[0][0]]]
    for token, member_id in known.sessions.items():
        client.cookies.set(app.state.club.settings.session_cookie, token)
        assert client.get("/api/me").json()["name"] == known.members[member_id]
    client.cookies.clear()
    for token, name in known.resets.items():
        r = client.get(f"/reset/{token}")
        assert r.status_code == 200 and name in r.text
    for token, name in known.bot_tokens.items():
        r = client.get("/api/bot/account", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200 and r.json()["name"] == name, r.text
    assert known.bot_tokens, "no bot account was written"
    for member_id, bots in known.mutes.items():  # the bots whose chat a member muted
        assert members[known.members[member_id]].get("/api/bots/muted").json()["bots"] == sorted(bots, key=str.lower)

    # the tournament whose round's tables had all finished: its round ends, with results
    (round_tournament,) = [t for t, kind in known.tournaments.items() if kind == "round"]
    wait_for(lambda: admin.get(f"/api/tournaments/{round_tournament}").json()["status"] == "finished", timeout=30)
    for tid in known.tournaments:
        for path in (f"/api/tournaments/{tid}", f"/api/tournaments/{tid}/standings", f"/api/tournaments/{tid}/rounds",
                     f"/tournaments/{tid}"):
            assert admin.get(path).status_code == 200, path
    standings = admin.get(f"/api/tournaments/{round_tournament}/standings").json()
    assert standings, standings
    board = admin.get(f"/api/tournaments/{round_tournament}/rounds/1/boards/1")
    assert board.status_code == 200 and board.json()["tables"], board.text
    assert admin.get("/api/tournaments").status_code == 200 and admin.get("/tournaments").status_code == 200

    # the leagues: listed, each with its first evening's tournament and its member's skip
    assert {x["id"] for x in admin.get("/api/leagues").json()["upcoming"]} == set(known.leagues)
    for lid, (member_id, tid) in known.leagues.items():
        data = members[known.members[member_id]].get(f"/api/leagues/{lid}").json()
        assert data["calendar"][0]["tournament"] == tid and data["registered"], data
        assert [e["skipped"] for e in data["calendar"]] == [False, True, False, False]
        assert [row["player"] for row in data["table"]] == [member_id]
        assert data["bots_allowed"] is False and data["moves"] == {} and data["bots_table"] == []
    for lid, organizer in known.league_organizers.items():  # a named organizer runs his league
        data = members[known.members[organizer]].get(f"/api/leagues/{lid}").json()
        assert data["may_run"] and known.members[organizer] in data["organizers"], data

    # the problems: each served with its member's answer, in his history, flagged once
    for problem, (member_id, word) in known.problems.items():
        solver = members[known.members[member_id]]
        data = solver.get(f"/api/zadaci/{problem}").json()
        assert data["id"] == problem and data["answered"]["word"] == word and not data["answered"]["correct"], data
        assert [a["problem"] for a in solver.get("/api/zadaci/history").json()["answers"]] == [problem]
        assert solver.post(f"/api/zadaci/{problem}/flag", json={"reason": "again"}).status_code == 409

    # every partie: a replay of its action log
    for p in known.parties.values():
        viewer = members[known.members[p.members[0]]] if p.members else admin
        r = viewer.get(f"/api/parties/{p.id}")
        assert r.status_code == 200 and r.json()["status"] == p.status, (p.id, r.text)
        if p.status == "proposed":
            continue
        sheet = viewer.get(f"/api/parties/{p.id}/score-sheet").json()
        assert (sheet["version"], sheet["status"]) == (len(p.words), p.status), (p.id, sheet)
        assert viewer.get(f"/archive/{p.id}").status_code == 200
        assert viewer.get(f"/ui/api/parties/{p.id}/replay", params={"deal": 0}).status_code == 200
        if p.status == "running":
            assert viewer.get(f"/table/{p.id}").status_code == 200
            assert viewer.get(f"/api/parties/{p.id}/clocks").status_code == 200
            continue
        record = viewer.get(f"/api/parties/{p.id}/record").json()
        assert [tuple(a) for deal in record["deals"] for a in deal["actions"]] == p.words
        assert replayed_record(record)["result"] == sheet["result"] == p.record["result"]
    assert sum(1 for p in known.parties.values() if p.status == "finished") >= len(known.gens)
    listed = admin.get("/api/archive", params={"status": "all", "limit": 500}).json()["parties"]
    assert {p["id"] for p in listed} == {p.id for p in known.parties.values() if p.status != "proposed"}

    for record_id, member_id in known.imported.items():
        r = members[known.members[member_id]].get(f"/api/records/{record_id}")
        assert r.status_code == 200, r.text
    for partie_id, deal in known.analyses:
        r = admin.get(f"/api/parties/{partie_id}/deals/{deal}/analysis")
        assert r.status_code == 200 and r.json()["status"] == "done", r.text

    # push: the kept key pair is the Club's, each device is listed to its session
    key = serialization.load_pem_private_key(known.push_key.encode(), password=None)
    assert client.get("/api/push/key").json()["public_key"] == VapidKeys.of(key, "mailto:x@example.com").public_key
    for endpoint, token in known.endpoints.items():
        client.cookies.set(app.state.club.settings.session_cookie, token)
        devices = client.get("/api/push/subscriptions").json()["devices"]
        assert any(d["this_session"] and endpoint.startswith(d["service"]) for d in devices), devices
    client.cookies.clear()

    # ratings: the standings and profiles answer; a rebuild from the archive counts every
    # finished partie (the tournament's table too, rated when its round ended)
    for game in ("lora", "lorum", "preferans"):
        r = admin.get("/api/standings", params={"game": game})
        assert r.status_code == 200 and r.json()["members"], r.text
        assert admin.get("/standings", params={"game": game}).status_code == 200
    for name in list(known.members.values())[:4]:
        assert admin.get(f"/api/members/{name}/profile").status_code == 200
        assert admin.get(f"/members/{name}").status_code == 200
    finished = sum(1 for p in known.parties.values() if p.status == "finished")
    assert rebuild(app.state.club.db) == finished
    for path in ("/", "/lobby", "/archive", "/account", "/bots"):
        assert admin.get(path).status_code == 200, path


def test_a_table_the_test_does_not_fill_fails_it_by_name(tmp_path, monkeypatch):
    """As a future migration's new table would: the chain stops, naming it."""
    import tests.support.upgrade_data as data

    url = f"sqlite:///{tmp_path / 'new-table.db'}"
    upgrade(url)
    monkeypatch.setattr(data, "TAUGHT", data.TAUGHT - {"bot_tokens"})
    engine = create_engine(url)
    try:
        with pytest.raises(AssertionError, match="table\\(s\\) bot_tokens .*teach the test the new table"):
            with engine.begin() as conn:
                fill(conn, revisions()[-1], 0, Known(password_hash="x"))
    finally:
        engine.dispose()
