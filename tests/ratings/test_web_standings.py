"""The standings page and ``GET /api/standings``: members by rating per game, parties and
places within a period, provisional ratings marked, both languages; and a real partie
played through the tables rated when it ends (on every database of the test run)."""

from __future__ import annotations

import random
import re
from datetime import timedelta

from app.db.types import utcnow
from app.games.registry import descriptors
from app.members.service import CurrentMember
from app.parties.proposals import SeatSpec, propose
from app.ratings.method import NEW_MEMBER, bot_skill, displayed, rate
from app.ratings.service import current_ratings, rate_pending, rating_history
from app.tables.service import apply_words
from app.tables.words import Word
from tests.support.api import register
from tests.support.ratings import Seat, add_partie


def _member_id(app, name: str) -> int:
    from app.members.service import find_member

    return find_member(app.state.club.db, name).id


def _club_parties(app) -> dict[str, int]:
    """ana, boki, ceca and dule: lora parties now and long ago, preferans, house rules."""
    db = app.state.club.db
    ids = {n: _member_id(app, n) for n in ("ana", "boki", "ceca", "dule")}
    ana, boki, ceca, dule = ids.values()
    now = utcnow()
    old = now - timedelta(days=100)
    table = [Seat(ana), Seat(boki), Seat(ceca), Seat(None, "iskusan")]
    add_partie(db, "lora", table, [1, 2, 3, 4], old)
    add_partie(db, "lora", table, [2, 1, 2, 4], old + timedelta(hours=1))
    add_partie(db, "lora", table, [1, 3, 2, 4], now - timedelta(days=2))
    add_partie(db, "lora", [Seat(dule), Seat(ana), Seat(None, "majstor"), Seat(None, "random")], [1, 2, 3, 4],
               now - timedelta(days=1), settings={"variant": "klub"})  # house rules: counted, not rated
    add_partie(db, "preferans", [Seat(boki), Seat(ceca), Seat(None, "pocetnik")], [1, 2, 3], now - timedelta(hours=3))
    rate_pending(db)
    return ids


def test_the_standings_page_and_api_in_both_languages(app):
    ana = register(app, "ana")
    for name in ("boki", "ceca", "dule"):
        register(app, name)
    ids = _club_parties(app)
    # the API: lora by rating, places over all time
    data = ana.get("/api/standings?game=lora").json()
    assert data["game"] == "lora" and data["period"] == "all" and data["seats"] == 4
    rows = {m["name"]: m for m in data["members"]}
    assert [m["name"] for m in data["members"]][-1] == "dule"  # not rated: after the rated members
    assert rows["dule"]["rating"] is None and rows["dule"]["rank"] is None and rows["dule"]["parties"] == 1
    assert rows["ana"]["parties"] == 4 and rows["ana"]["places"] == [2, 2, 0, 0] and rows["ana"]["rated_parties"] == 3
    assert rows["boki"]["places"] == [1, 1, 1, 0]
    rated = [m for m in data["members"] if m["rating"] is not None]
    assert [m["rating"] for m in rated] == sorted((m["rating"] for m in rated), reverse=True)
    assert [m["rank"] for m in rated] == [1, 2, 3]
    assert all(m["provisional"] for m in rated)  # three parties: provisional
    assert rows["ana"]["rating"] == current_ratings(app.state.club.db, ids["ana"])["lora"]["rating"]
    assert rows["ana"]["last_active"].startswith(str((utcnow() - timedelta(days=1)).date()))
    # the last 30 days: counts of the parties finished in them, the ratings as they are
    recent = {m["name"]: m for m in ana.get("/api/standings?game=lora&period=30d").json()["members"]}
    assert recent["ana"]["parties"] == 2 and recent["ana"]["places"] == [1, 1, 0, 0]
    assert recent["ceca"]["parties"] == 1 and recent["ceca"]["rating"] == rows["ceca"]["rating"]
    assert set(ana.get("/api/standings?game=lora&period=365d").json()["members"][0]) >= {"name", "rating"}
    preferans = ana.get("/api/standings?game=preferans").json()
    assert [m["name"] for m in preferans["members"]] == ["boki", "ceca"] and preferans["seats"] == 3
    assert ana.get("/api/standings").json()["game"] == descriptors()[0].code
    assert ana.get("/api/standings?game=tablic").json()["error"]["code"] == "unknown_game"
    assert ana.get("/api/standings?period=week").json()["error"]["code"] == "invalid_period"
    assert register(app, "anon").get("/api/standings").status_code == 200
    from fastapi.testclient import TestClient

    assert TestClient(app).get("/api/standings").status_code == 401
    # the page, Serbian by default
    page = ana.get("/standings?game=lora").text
    assert "<h1>Rang-lista</h1>" in page and "Rejting" in page and "sve vreme" in page
    assert '<a href="/standings">Rang-lista</a>' in page  # in the header, next to the archive
    for name in ("ana", "boki", "ceca", "dule"):
        assert f'<a href="/members/{name}">{name}</a>' in page
    order = re.findall(r'<tr data-member="([^"]+)"', page)
    assert order == [m["name"] for m in data["members"]]
    assert page.count('class="provisional-mark"') == 3 + 1  # three rated rows and the legend
    for g in descriptors():
        assert f'href="/standings?game={g.code}&amp;period=all"' in page or f'href="/standings?game={g.code}&period=all"' in page
    english = ana.get("/standings?game=lora&period=30d&lang=en").text
    assert "<h1>Standings</h1>" in english and "Rating" in english and "last 30 days" in english
    assert 'data-period="30d" aria-current="page"' in english
    assert "provisional: fewer than 10 rated parties" in english
    # unknown filters fall back to the defaults; without a session, the login page
    assert ana.get("/standings?game=tablic&period=week").status_code == 200
    anonymous = TestClient(app).get("/standings", follow_redirects=False)
    assert anonymous.status_code == 303 and anonymous.headers["location"].startswith("/login")


def test_an_empty_club_has_empty_standings(app):
    ana = register(app, "ana")
    assert ana.get("/api/standings?game=preferans").json()["members"] == []
    assert "U ovom periodu nema završenih partija." in ana.get("/standings").text
    assert "No finished parties in this period." in ana.get("/standings?lang=en").text


def test_a_partie_played_at_the_table_is_rated_when_it_ends(app):
    """Through the word path: the end of the partie is published after its commit and the
    ratings' subscriber rates it on the notices' thread."""
    register(app, "ana")
    club = app.state.club
    ana = _member_id(app, "ana")
    me = CurrentMember(ana, "ana", "member", "-")
    code = min(descriptors(), key=lambda g: g.seats).code  # the shortest table
    n = next(g for g in descriptors() if g.code == code).seats
    pid = propose(club, me, code, {}, None, [SeatSpec("bot", bot="pocetnik")] * (n - 1))
    rng = random.Random(3)
    while True:
        with club.db.read() as s:
            from app.parties.lookup import get_partie, open_table

            partie = get_partie(s, pid)
            if partie.status == "finished":
                break
            table = open_table(club, s, partie)
        with table.lock:
            if table.engine.finished:
                break
            seat = table.engine.seats_to_act()[0]
            word = rng.choice(table.engine.legal_actions(seat))
            version = table.version
        source = "member" if seat == 0 else "bot"
        apply_words(club, [Word(pid, seat, word, version, None, ana if seat == 0 else None, source)])
    club.finished.drain(30)
    from tests.support.web import wait_for

    wait_for(lambda: current_ratings(club.db, ana).get(code), timeout=30)
    with club.db.read() as s:
        places = get_partie(s, pid).result["places"]
    want = rate([NEW_MEMBER, *[bot_skill("pocetnik")] * (n - 1)], places)[0]
    mine = current_ratings(club.db, ana)[code]
    assert (mine["mu"], mine["sigma"], mine["rating"], mine["parties"]) == (want.mu, want.sigma, displayed(want), 1)
    assert [h["partie_id"] for h in rating_history(club.db, ana, code)] == [pid]
    assert rate_pending(club.db) == 0  # already rated: nothing more


def test_the_standings_come_a_hundred_members_a_page(app):
    from tests.support.ratings import T0, members

    ana = register(app, "ana")
    db = app.state.club.db
    ids = members(db, [f"igrac{i:03d}" for i in range(120)])
    for i in range(0, 120, 4):
        add_partie(db, "lora", [Seat(m) for m in ids[i:i + 4]], [1, 2, 3, 4], T0 + timedelta(minutes=i))
    rate_pending(db)
    first = ana.get("/api/standings?game=lora").json()
    second = ana.get("/api/standings?game=lora&page=2").json()
    assert first["total"] == second["total"] == 120 and first["page_size"] == 100
    assert len(first["members"]) == 100 and [m["rank"] for m in second["members"]] == list(range(101, 121))
    assert first["members"][-1]["rating"] >= second["members"][0]["rating"]
    assert ana.get("/api/standings?game=lora&page=3").json()["members"] == []
    assert ana.get("/api/standings?game=lora&page=0").status_code == 422
    page1 = ana.get("/standings?game=lora").text
    assert "1–100 od 120" in page1 and 'rel="next"' in page1 and 'rel="prev"' not in page1
    page2 = ana.get("/standings?game=lora&page=2&lang=en").text
    assert "101–120 of 120" in page2 and 'href="/standings?game=lora&period=all&page=1" rel="prev"' in page2
    assert page2.count("<tr data-member=") == 20
    assert ana.get("/standings?game=lora&page=0").status_code == 200  # the first page
