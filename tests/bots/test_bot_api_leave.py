"""Issue 39, items 1 and 5: a bot leaves a running partie over the bot API (its seat to
the Club's computer player, as a member's leave), the members' events without ``since``,
the owner's bot table's score sheet, and the bot's one event stream (docs/bots.md)."""

from __future__ import annotations


import pytest

from app.bots.limits import BotLimits
from tests.support.api import error_code as code, register
from tests.support.bots import stream_lines as lines, bearer, new_bot, new_token

PASSWORD = "klupska-lozinka-7"
ORIGIN = {"Origin": "http://testserver"}
PREFERANS = {"bule": 30, "refe": 0, "deljenja": 3}


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"bot_keepalive_seconds": 0.3, "bot_words_per_second": 1000})


def invite_and_accept(client, bob, auth, bot_name: str) -> int:
    r = bob.post("/api/parties", json={"game": "preferans", "settings": PREFERANS,
                                       "seats": [{"kind": "member", "name": bot_name}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    r = client.post(f"/api/bot/parties/{pid}/accept", headers=auth)
    assert r.status_code == 200 and r.json()["status"] == "running", r.text
    return pid


def test_a_bot_leaves_a_running_partie(app, client):
    ana, bob = register(app, "ana"), register(app, "bob")
    auth = bearer(new_bot(ana, "robo"))
    pid = invite_and_accept(client, bob, auth, "robo")
    assert [p["id"] for p in client.get("/api/bot/parties", headers=auth).json()["playing"]] == [pid]
    # Bad requests change nothing: no token, a partie it does not sit at, no such partie.
    assert client.post(f"/api/bot/parties/{pid}/leave").status_code == 401
    other = bob.post("/api/parties", json={"game": "preferans", "settings": PREFERANS,
                                           "seats": [{"kind": "bot", "bot": "random"}] * 2}).json()["id"]
    r = client.post(f"/api/bot/parties/{other}/leave", headers=auth)
    assert r.status_code == 403 and code(r) == "not_at_table" and r.json()["error"]["message"]
    r = client.post("/api/bot/parties/99999/leave", headers=auth)
    assert r.status_code == 404 and r.json()["error"]["message"]
    # A token without bot:play may not leave.
    read_only = new_token(ana, "robo", ["bot:challenge"])
    r = client.post(f"/api/bot/parties/{pid}/leave", headers=bearer(read_only))
    assert r.status_code == 403 and code(r) == "missing_scope"
    assert bob.get(f"/api/parties/{pid}").json()["seats"][1]["taken_over"] is False
    with client.stream("GET", f"/api/bot/parties/{pid}/stream", headers=auth) as stream:
        frames = lines(stream)
        state = next(frames)
        assert state["type"] == "state" and state["seat"] == 1
        r = client.post(f"/api/bot/parties/{pid}/leave", headers=auth)
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "running" and r.json()["my_seat"] == 1
        seat = r.json()["seats"][1]
        assert seat["name"] == "robo" and seat["taken_over"] and seat["computer"]
        rest = [f for f in frames if f["type"] != "keepalive"]  # the stream ends: nothing more for it
    assert rest[-1]["type"] == "end" and rest[-1]["status"] == "left"
    # Left for good: the computer plays the seat, the table is no longer the bot's.
    r = client.post(f"/api/bot/parties/{pid}/leave", headers=auth)
    assert r.status_code == 409 and code(r) == "already_left"
    assert client.get("/api/bot/parties", headers=auth).json()["playing"] == []
    assert bob.get(f"/api/parties/{pid}").json()["status"] == "running"
    with client.stream("GET", f"/api/bot/parties/{pid}/stream", headers=auth) as stream:
        again = [f for f in lines(stream) if f["type"] != "keepalive"]
    assert [f["type"] for f in again][0] == "state" and again[-1] == {**again[-1], "type": "end", "status": "left"}
    # Not running: a withdrawn proposal cannot be left.
    r = bob.post("/api/parties", json={"game": "preferans", "settings": PREFERANS,
                                       "seats": [{"kind": "member", "name": "robo"}, {"kind": "open"}]})
    proposed = r.json()["id"]
    assert client.post(f"/api/bot/parties/{proposed}/accept", headers=auth).json()["status"] == "proposed"
    r = client.post(f"/api/bot/parties/{proposed}/leave", headers=auth)
    assert r.status_code == 409 and code(r) == "not_running"


def test_the_members_events_and_the_owners_score_sheet(app, client):
    ana, bob = register(app, "ana"), register(app, "bob")
    auth = bearer(new_bot(ana, "robo"))
    pid = invite_and_accept(client, bob, auth, "robo")
    # Without since: the events from the start (the same as since=0), not a 422.
    r = bob.get(f"/api/parties/{pid}/events")
    assert r.status_code == 200 and r.json() == bob.get(f"/api/parties/{pid}/events?since=0").json()
    r = bob.get(f"/api/parties/{pid}/events?since=-1")
    assert r.status_code == 422
    # The owner reads nothing of his bot's running table, the score sheet included.
    for path in ("score-sheet", "record", "view", "events", "chat"):
        r = ana.get(f"/api/parties/{pid}/{path}")
        assert r.status_code == 403 and code(r) == "own_bot_table", path
    assert bob.get(f"/api/parties/{pid}/score-sheet").status_code == 200
    assert bob.post(f"/api/parties/{pid}/end").status_code == 409  # the bot still plays: bob cannot end it
    client.post(f"/api/bot/parties/{pid}/leave", headers=auth)
    assert bob.post(f"/api/parties/{pid}/end").json()["status"] == "abandoned"
    assert ana.get(f"/api/parties/{pid}/score-sheet").status_code == 200  # over: open as any other


def test_one_event_stream_a_bot(settings):
    """The open stream goes on, a second is refused; a stream whose lease lapsed and was
    taken ends (its renewal fails) and its close leaves the new lease alone."""
    limits = BotLimits(settings.model_copy(update={"redis_url": None}))
    first = limits.open_stream(7)
    with pytest.raises(Exception) as refused:
        limits.open_stream(7)
    assert refused.value.code == "stream_open"
    assert limits.renew_stream(7, first) and limits.stream_is_open(7)
    limits.storage.clear(limits._stream_key(7))  # the first stream's server stalled past its lease
    second = limits.open_stream(7)
    assert not limits.renew_stream(7, first)
    limits.close_stream(7, first)
    assert limits.stream_is_open(7) and limits.renew_stream(7, second)
    limits.close_stream(7, second)
    assert not limits.stream_is_open(7)
