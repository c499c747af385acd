"""Member profiles: ``/members/{name}`` and ``GET /api/members/{name}/profile`` on parties
played to their end and stored as the tables leave them; the head-to-head; 404s; links."""

from __future__ import annotations

import re

from collections import Counter

import pytest

from app.ratings.service import rate_pending
from tests.support.club import Seat, replayed, store_finished
from tests.support.web import PASSWORD

LORA, PREFERANS = "lora", "preferans"


def register(client, *names: str) -> None:
    for name in names:
        r = client.post("/api/auth/register", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text


def login(client, name: str) -> None:
    assert client.post("/api/auth/login", json={"name": name, "password": PASSWORD}).status_code == 200


@pytest.fixture
def club_parties(client, app):
    """ana, boki, ceca; two Lora parties and a preferans partie finished (rated), and
    a Lora partie of ana against computer players still running."""
    register(client, "boki", "ceca", "ana")  # ana last: the client is hers
    db = app.state.club.db
    p1 = store_finished(db, LORA, [Seat("ana"), Seat("boki"), Seat(), Seat()], rng_seed=1, minutes=1)
    p2 = store_finished(db, LORA, [Seat("boki"), Seat(), Seat("ana"), Seat("ceca")], rng_seed=2, minutes=2)
    p3 = store_finished(db, PREFERANS, [Seat("ana"), Seat("boki"), Seat(bot="iskusan")],
                        settings={"bule": 30, "refe": 0}, rng_seed=3, minutes=3)
    rate_pending(db)
    r = client.post("/api/parties", json={"game": LORA, "seats": [{"kind": "bot"}] * 3})
    assert r.status_code == 201 and r.json()["status"] == "running"
    return {"lora": [(p1, 0), (p2, 2)], "preferans": [(p3, 0)], "running": r.json()["id"], "db": db}


def _game(profile: dict, code: str) -> dict:
    return next(g for g in profile["games"] if g["game"] == code)


def test_the_profile_counts_the_stored_parties(client, club_parties):
    db = club_parties["db"]
    profile = client.get("/api/members/ANA/profile").json()  # names are case-blind
    assert profile["name"] == "ana" and profile["head_to_head"] is None
    assert [g["game"] for g in profile["games"]] == [LORA, PREFERANS]

    lora = _game(profile, LORA)
    results = [(replayed(db, pid).result(), seat) for pid, seat in club_parties["lora"]]
    assert lora["parties"] == 2
    places = Counter(res["places"][seat] for res, seat in results)
    assert lora["places"] == [places.get(i, 0) for i in (1, 2, 3, 4)]
    assert lora["deals"] == 2 * 28
    points = sum(res["totals"][seat] for res, seat in results)
    assert lora["mean_points_per_deal"] == round(points / 56, 2)
    assert lora["papir"] is None and lora["mean_result"] is None

    pref = _game(profile, PREFERANS)
    (pid, seat), = club_parties["preferans"]
    engine = replayed(db, pid)
    assert pref["parties"] == 1 and sum(pref["places"]) == 1
    assert pref["places"][engine.result()["places"][seat] - 1] == 1
    assert pref["mean_result"] == engine.result()["results"][seat]
    mine = [line for line in engine.papir()["lines"] if line.get("declarer") == seat and "passed" in line]
    assert pref["papir"]["hands_declared"] == len(mine) > 0
    assert pref["papir"]["made"] == sum(1 for line in mine if line["passed"])
    assert pref["papir"]["fell"] == sum(1 for line in mine if not line["passed"])
    top = Counter(line["contract"] for line in mine).most_common(1)[0]
    assert pref["papir"]["contracts"][0] == {"contract": top[0], "hands": top[1]}

    # the ratings of app/ratings, with the history of every rated partie, oldest first
    assert lora["rating"]["parties"] == 2 and isinstance(lora["rating"]["rating"], int)
    assert [h["partie_id"] for h in lora["history"]] == [pid for pid, _ in club_parties["lora"]]
    assert lora["history"][-1]["rating"] == lora["rating"]["rating"]
    assert [h["place"] for h in lora["history"]] == [res["places"][seat] for res, seat in results]
    assert pref["rating"]["parties"] == 1 and len(pref["history"]) == 1

    # recent parties: the newest first, the running one too
    recent = profile["recent"]
    assert [p["id"] for p in recent] == [club_parties["running"], pid, *reversed([p for p, _ in club_parties["lora"]])]
    assert recent[0]["status"] == "running" and recent[0]["place"] is None
    assert recent[1]["place"] == engine.result()["places"][seat]
    assert [pl["computer"] for pl in recent[1]["players"]] == [False, False, True]


def test_the_profile_page_draws_ratings_statistics_and_recent_parties(client, club_parties):
    page = client.get("/members/ana?lang=en")
    assert page.status_code == 200
    html = page.text
    assert html.count('<svg class="rating-chart"') == 2
    assert html.count('<circle class="dot"') == 3  # two Lora parties rated, one preferans
    assert "<polyline" in html  # Lora's two points make a line
    for pid, _ in club_parties["lora"] + club_parties["preferans"]:
        assert f'href="/archive/{pid}"' in html
    assert f'href="/table/{club_parties["running"]}"' in html
    assert "points per deal" in html and "declared" in html
    assert 'href="/members/boki"' in html  # the players of the recent parties
    assert "Statistika" in client.get("/members/ana?lang=sr-Latn").text
    assert "style=" not in html and "<script>" not in html


def test_head_to_head(client, club_parties):
    db = club_parties["db"]
    h = client.get("/api/members/ana/profile", params={"vs": "boki"}).json()["head_to_head"]
    together = [(pid, 0, 1) for pid, _ in club_parties["lora"][:1]] + [(club_parties["lora"][1][0], 2, 0)] + \
        [(club_parties["preferans"][0][0], 0, 1)]
    higher = lower = 0
    for pid, a, b in together:
        places = replayed(db, pid).result()["places"]
        higher += places[a] < places[b]
        lower += places[a] > places[b]
    assert h["other"] == "boki" and h["parties"] == 3
    assert (h["higher"], h["lower"], h["equal"]) == (higher, lower, 3 - higher - lower)
    assert [g["game"] for g in h["games"]] == [LORA, PREFERANS] and [g["parties"] for g in h["games"]] == [2, 1]
    assert sorted(p["id"] for p in h["parties_together"]) == sorted(pid for pid, _, _ in together)
    # against ceca: one Lora partie
    h = client.get("/api/members/ana/profile", params={"vs": "ceca"}).json()["head_to_head"]
    assert h["parties"] == 1 and h["games"][0]["game"] == LORA
    # the page's form: a select of the other members, and the result for ?vs=
    page = client.get("/members/ana", params={"vs": "boki", "lang": "en"}).text
    assert 'id="h2h-form"' in page and '<option value="boki" selected>' in page and '<option value="ana"' not in page
    assert "3 finished parties together" in page
    # boki's profile offers ana (the member looking) first
    assert '<option value="ana" selected>' in client.get("/members/boki").text


def test_unknown_members_are_404_and_a_profile_needs_a_login(client, club_parties):
    r = client.get("/api/members/nobody/profile")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_member"
    assert "nobody" in r.json()["error"]["message"]
    page = client.get("/members/nobody?lang=en")
    assert page.status_code == 404 and "There is no member with that name." in page.text
    r = client.get("/api/members/ana/profile", params={"vs": "nobody"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_member"
    r = client.get("/api/members/ana/profile", params={"vs": "ana"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "same_member"
    page = client.get("/members/ana", params={"vs": "nobody", "lang": "en"})
    assert page.status_code == 200 and "There is no member with that name." in page.text
    client.post("/api/auth/logout")
    assert client.get("/api/members/ana/profile").status_code == 401
    r = client.get("/members/ana", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/login")


def test_a_member_without_parties(client):
    register(client, "nova")
    profile = client.get("/api/members/nova/profile").json()
    assert profile["games"] == [] and profile["recent"] == []
    page = client.get("/members/nova?lang=en").text
    assert "No rated parties yet." in page and "No finished parties yet." in page


def test_member_names_link_to_their_profiles(client, club_parties):
    pid = club_parties["lora"][0][0]
    assert 'href="/members/boki"' in client.get("/archive").text
    assert 'href="/members/boki"' in client.get(f"/archive/{pid}").text
    assert 'href="/members/ana"' in client.get("/lobby/live").text  # members online
    assert re.search(r'class="me" data-me="ana" [^>]*href="/members/ana"', client.get("/lobby").text)
