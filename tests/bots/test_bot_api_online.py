"""Issue 39, item 4: the bots online (their event stream open) with owner, games and
rating; a member challenges one; a decline carries a reason."""

from __future__ import annotations


import pytest

from tests.support.api import error_code as code, register
from tests.support.bots import stream_lines as lines, bearer, new_bot
from tests.support.web import wait_for

PASSWORD = "klupska-lozinka-7"
ORIGIN = {"Origin": "http://testserver"}
PREFERANS = {"bule": 30, "refe": 0, "deljenja": 3}


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"bot_keepalive_seconds": 0.3})


def test_bots_online_a_challenge_and_a_declines_reason(app, client):
    ana, bob = register(app, "ana"), register(app, "bob")
    auth = bearer(new_bot(ana, "robo"))
    new_bot(ana, "sleepy")
    assert bob.get("/api/bots/online").json() == {"bots": []}
    r = bob.post("/api/bots/robo/challenge", json={"game": "preferans", "settings": PREFERANS})
    assert r.status_code == 409 and code(r) == "bot_offline" and "not online" in r.json()["error"]["message"]
    with client.stream("GET", "/api/bot/stream", headers=auth) as events:
        frames = lines(events)
        assert next(frames)["type"] == "hello"
        listed = bob.get("/api/bots/online").json()["bots"]
        assert listed == [{"name": "robo", "owner": "ana", "games": [], "rating": None}]
        assert client.get("/api/bot/online", headers=auth).json()["bots"] == listed
        # Bad challenges: clear refusals, no proposal made.
        for name, status, error in (("sleepy", 409, "bot_offline"), ("nobody", 404, "no_such_bot"),
                                    ("ana", 404, "no_such_bot")):
            r = bob.post(f"/api/bots/{name}/challenge", json={"game": "preferans"})
            assert r.status_code == status and code(r) == error and r.json()["error"]["message"], name
        assert bob.post("/api/bots/robo/challenge", json={"game": "poker"}).status_code == 422
        r = bob.post("/api/bots/robo/challenge", json={"game": "preferans", "settings": {"bule": "many"}})
        assert r.status_code == 422 and r.json()["error"]["message"]
        r = bob.post("/api/bots/robo/challenge", json={"game": "preferans", "level": "grandmaster"})
        assert r.status_code == 422 and code(r) == "invalid_bot"
        assert bob.get("/api/lobby").json()["mine"] == []
        # The challenge: robo invited, the Club's computer players at the other seats.
        r = ana.post("/api/bots/robo/challenge", json={"game": "preferans", "settings": PREFERANS})
        assert r.status_code == 403 and code(r) == "own_bot_at_table"
        r = bob.post("/api/bots/robo/challenge", json={"game": "preferans", "settings": PREFERANS, "level": "random"})
        assert r.status_code == 201, r.text
        pid = r.json()["id"]
        assert [(s["kind"], s["name"], s["answer"]) for s in r.json()["seats"]] == [
            ("member", "bob", "accepted"), ("member", "robo", "invited"), ("bot", "AI 3", "accepted")]
        invitation = next(f for f in frames if f["type"] != "keepalive")
        assert invitation["type"] == "invitation" and invitation["partie"]["id"] == pid
    wait_for(lambda: bob.get("/api/bots/online").json() == {"bots": []})  # the stream closed: offline
    # The decline carries a reason; a bad reason is refused and changes nothing.
    for reason in ("x" * 201, "dva\nreda"):
        r = client.post(f"/api/bot/parties/{pid}/decline", headers=auth, json={"reason": reason})
        assert r.status_code == 422 and r.json()["error"]["message"]
    assert bob.get(f"/api/parties/{pid}").json()["seats"][1]["answer"] == "invited"
    r = client.post(f"/api/bot/parties/{pid}/decline", headers=auth, json={"reason": "danas igram samo Loru"})
    assert r.status_code == 200, r.text
    seat = bob.get(f"/api/parties/{pid}").json()["seats"][1]
    assert seat["answer"] == "declined" and seat["decline_reason"] == "danas igram samo Loru"
    # A member's decline may say why too; without a reason there is none.
    carl = register(app, "carl")
    for reason in ("kasno je", None):
        r = bob.post("/api/parties", json={"game": "preferans", "settings": PREFERANS,
                                           "seats": [{"kind": "member", "name": "carl"}, {"kind": "bot", "bot": "random"}]})
        body = {"reason": reason} if reason else None
        r = carl.post(f"/api/parties/{r.json()['id']}/decline", json=body)
        assert r.status_code == 200 and r.json()["seats"][1]["decline_reason"] == reason
    # A member declines the bot's proposal with a reason: the bot's event stream brings it.
    r = client.post("/api/bot/parties", headers=auth, json={"game": "preferans", "settings": PREFERANS,
                                                            "seats": [{"kind": "member", "name": "carl"},
                                                                      {"kind": "bot", "bot": "random"}]})
    proposed = r.json()["id"]
    with client.stream("GET", "/api/bot/stream", headers=auth) as events:
        frames = lines(events)
        assert next(frames)["type"] == "hello"
        assert carl.post(f"/api/parties/{proposed}/decline", json={"reason": "ne igram s botovima"}).status_code == 200
        answered = next(f for f in frames if f["type"] == "proposal_answered")
    assert answered["answer"] == "declined" and answered["by"] == "carl"
    assert answered["partie"]["seats"][1]["decline_reason"] == "ne igram s botovima"
    # A bot may not take the name of a route of /api/bots.
    r = ana.post("/api/bots", json={"name": "online"})
    assert r.status_code == 409 and code(r) == "name_taken"
