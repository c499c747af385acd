"""The problems' API (/api/zadaci): a member gets a problem without its answer, answers it
once (a second answer counts for nothing), every bad input is a clear 4xx that changes
nothing, bots are refused (403 bots_may_not_solve), a flag once, an admin hides."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import Member
from app.db.models.problems import Problem, ProblemAttempt, ProblemFlag, ProblemRating
from app.problems import feed, solving
from app.problems.glicko import MIN_DEVIATION, Glicko, update
from app.problems.mining import mine_deal
from tests.support.bots import bearer, new_bot
from tests.support.club import Seat, store_finished


def client_of(app, name: str) -> TestClient:
    c = TestClient(app, headers={"Origin": app.state.club.settings.site_origin})
    r = c.post("/api/auth/register", json={"name": name, "password": "klupska-lozinka-7"})
    assert r.status_code == 201, r.text
    return c


def code(r) -> str:
    return r.json()["error"]["code"]


def mined(club, game: str = "lorum", at_least: int = 3) -> int:
    """A finished partie of random words (a fresh deal each time) with its first deals
    mined until they gave ``at_least`` problems; how many."""
    pid = store_finished(club.db, game, [Seat("ana")] + [Seat()] * 3, rng_seed=7)
    record = feed.open_record(club, pid)
    found = 0
    for k in range(len(record["deals"])):
        found += feed.store_deal(club, pid, {**mine_deal(record, k), "game": game})
        if found >= at_least:
            break
    return found


def counts(club) -> tuple[int, int, int]:
    with club.db.read() as s:
        return (s.scalar(select(func.count()).select_from(ProblemAttempt)),
                s.scalar(select(func.count()).select_from(ProblemRating)),
                s.scalar(select(func.count()).select_from(ProblemFlag)))


@pytest.fixture
def setup(app, client):
    r = client.post("/api/auth/register", json={"name": "ana", "password": "klupska-lozinka-7"})
    assert r.status_code == 201
    club = app.state.club
    n = mined(club)
    assert n >= 3, "the seeded partie's first deals hold problems"
    return club, client


def test_no_problem_yet_and_the_filters(app, client):
    client.post("/api/auth/register", json={"name": "ana", "password": "klupska-lozinka-7"})
    r = client.get("/api/zadaci/next")
    assert r.status_code == 404 and code(r) == "no_problem"
    assert client.get("/api/zadaci/day").json() is None
    assert code(client.get("/api/zadaci/next?game=chess")) == "unknown_game"
    assert client.get("/api/zadaci/next?game=chess").status_code == 422
    assert client.get("/api/zadaci/next?theme=" + "x" * 65).status_code == 422
    assert client.get("/api/zadaci/next?lang=de").status_code == 422


def test_a_problem_hides_its_answer_and_one_answer_counts(setup):
    club, c = setup
    p = c.get("/api/zadaci/next?lang=en").json()
    assert {"best", "values", "played", "line"} & set(p) == set()
    assert "best" not in str(p["position"]) and p["question"].startswith("Playing ")
    with club.db.read() as s:
        row = s.get(Problem, p["id"])
        best, before = row.best, Glicko(row.rating, row.deviation, row.volatility)
    assert best in p["choices"]
    wrong = next(w for w in p["choices"] if w != best)
    r = c.post(f"/api/zadaci/{p['id']}/answer", json={"word": wrong})
    v = r.json()
    assert r.status_code == 200 and v["correct"] is False and v["counted"] is True
    assert v["best"] == best and v["values"][best] == 0 and v["values"][wrong] == v["lost"] > 0
    assert v["replay"].startswith(f"/archive/{row.partie_id}#deal=")
    me, problem = update(Glicko(), [(before, 0.0)], min_deviation=MIN_DEVIATION), \
        update(before, [(Glicko(), 1.0)], min_deviation=MIN_DEVIATION)
    assert v["rating"] == {"before": 1500, "after": round(me.rating)}
    with club.db.read() as s:
        row = s.get(Problem, p["id"])
        assert (row.rating, row.attempts, row.solved) == (pytest.approx(problem.rating), 1, 0)
    # the same problem again, with the best word now: its verdict, counted for nothing
    again = c.post(f"/api/zadaci/{p['id']}/answer", json={"word": best}).json()
    assert again["correct"] is True and again["counted"] is False
    assert again["rating"] == {"before": round(me.rating), "after": round(me.rating)}
    assert counts(club)[:2] == (1, 1)
    with club.db.read() as s:
        assert s.get(Problem, p["id"]).attempts == 1
    # it is answered: next gives another one; the history has the one answer
    assert c.get("/api/zadaci/next").json()["id"] != p["id"]
    h = c.get("/api/zadaci/history").json()
    assert [a["problem"] for a in h["answers"]] == [p["id"]] and h["summary"]["attempts"] == 1
    assert h["summary"]["streak"] == 0
    # the problem shown again carries its verdict
    assert c.get(f"/api/zadaci/{p['id']}").json()["answered"]["best"] == best


def test_bad_answers_change_nothing(setup):
    club, c = setup
    p = c.get("/api/zadaci/next").json()
    bad = [
        (f"/api/zadaci/{p['id']}/answer", {"word": "ZZ"}, 422, "not_a_choice"),
        (f"/api/zadaci/{p['id']}/answer", {"word": ""}, 422, None),
        (f"/api/zadaci/{p['id']}/answer", {"word": "x" * 65}, 422, None),
        (f"/api/zadaci/{p['id']}/answer", {"word": 7}, 422, None),
        (f"/api/zadaci/{p['id']}/answer", {"word": "7S", "extra": 1}, 422, None),
        (f"/api/zadaci/{p['id']}/answer", {}, 422, None),
        ("/api/zadaci/999999/answer", {"word": p["choices"][0]}, 404, "no_such_problem"),
        ("/api/zadaci/abc/answer", {"word": p["choices"][0]}, 422, None),
        (f"/api/zadaci/{10**30}/answer", {"word": p["choices"][0]}, 404, None),
        (f"/api/zadaci/{p['id']}/flag", {"reason": "x" * 501}, 422, None),
        (f"/api/zadaci/{p['id']}/hide", {"hidden": True}, 403, "admin_only"),
        (f"/api/zadaci/{p['id']}/hide", {"hidden": "yes"}, 422, None),
    ]
    for path, body, status, error in bad:
        r = c.post(path, json=body)
        assert r.status_code == status, (path, body, r.text)
        if error:
            assert code(r) == error
        assert counts(club) == (0, 0, 0)
    r = c.post(f"/api/zadaci/{p['id']}/answer", content=b"not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and counts(club) == (0, 0, 0)
    assert c.get("/api/zadaci/999999").status_code == 404
    # nobody logged in
    anon = TestClient(c.app, headers={"Origin": club.settings.site_origin})
    assert anon.post(f"/api/zadaci/{p['id']}/answer", json={"word": p["choices"][0]}).status_code == 401
    assert anon.get("/api/zadaci/next").status_code == 401
    with club.db.read() as s:
        assert s.get(Problem, p["id"]).attempts == 0


def test_bots_may_not_solve(setup):
    club, c = setup
    token = new_bot(c, "ana-bot")
    p = c.get("/api/zadaci/next").json()
    bot = TestClient(c.app)
    for method, path, body in [("get", "/api/zadaci/next", None), ("get", "/api/zadaci/history", None),
                               ("get", f"/api/zadaci/{p['id']}", None),
                               ("post", f"/api/zadaci/{p['id']}/answer", {"word": p["choices"][0]}),
                               ("post", f"/api/zadaci/{p['id']}/flag", {})]:
        r = getattr(bot, method)(path, headers=bearer(token), **({"json": body} if body is not None else {}))
        assert r.status_code == 403 and code(r) == "bots_may_not_solve", (path, r.text)
    r = bot.get("/api/zadaci/next", headers=bearer("kbt_" + "x" * 43))
    assert r.status_code == 401
    assert counts(club) == (0, 0, 0)


def test_a_flag_once_and_an_admin_hides(setup):
    club, c = setup
    p = c.get("/api/zadaci/next").json()
    r = c.post(f"/api/zadaci/{p['id']}/flag", json={"reason": "the second card is as good"})
    assert r.status_code == 200 and r.json()["flags"] == 1
    r = c.post(f"/api/zadaci/{p['id']}/flag", json={})
    assert r.status_code == 409 and code(r) == "already_flagged"
    assert counts(club)[2] == 1
    admin = client_of(c.app, "sefica")
    with club.db.write() as s:
        s.scalar(select(Member).where(Member.name_key == "sefica")).role = "admin"
    flagged = admin.get("/api/zadaci/flagged").json()
    assert flagged[0]["problem"] == p["id"] and flagged[0]["reasons"] == ["the second card is as good"]
    assert c.get("/api/zadaci/flagged").status_code == 403
    assert admin.post(f"/api/zadaci/{p['id']}/hide", json={"hidden": True}).json()["hidden"] is True
    # hidden: no one gets it, answers it or reads it
    assert c.get(f"/api/zadaci/{p['id']}").status_code == 404
    assert c.post(f"/api/zadaci/{p['id']}/answer", json={"word": p["choices"][0]}).status_code == 404
    with club.db.read() as s:
        total = s.scalar(select(func.count()).select_from(Problem))
    seen = {c.get("/api/zadaci/next").json()["id"] for _ in range(3 * total)}
    assert p["id"] not in seen
    assert admin.post("/api/zadaci/999999/hide", json={"hidden": True}).status_code == 404


def test_filters_and_the_rating_nearest(setup, monkeypatch):
    club, c = setup
    themes = c.get("/api/zadaci/themes").json()
    assert themes and all(t["game"] == "lorum" for t in themes)
    t = themes[0]
    p = c.get(f"/api/zadaci/next?game=lorum&theme={t['theme']}").json()
    assert p["theme"] == t["theme"]
    assert code(c.get("/api/zadaci/next?game=lora")) == "no_problem"
    # the problems nearest the member's rating come first: with a draw among one, the one
    # nearest his 1500 is given, whatever its order
    with club.db.write() as s:
        rows = s.scalars(select(Problem).order_by(Problem.id)).all()
        for i, row in enumerate(rows):
            row.rating = 1510.0 if i == len(rows) - 1 else 2500.0 + i
        nearest = rows[-1].id
    monkeypatch.setattr(solving, "NEAREST", 1)
    assert c.get("/api/zadaci/next").json()["id"] == nearest
