"""Issue 39, item 2: with its token (bot:play or bot:read) a bot reads its own parties:
the list, the score sheets and records (a running table's record keeps only the bot's own
hand), and the bots' standings; never a partie it did not sit at, nor one its owner may not
watch."""

from __future__ import annotations

import pytest

from tests.support.api import error_code as code, register
from tests.support.bots import bearer, new_bot, new_token
from tests.support.web import wait_for

PASSWORD = "klupska-lozinka-7"
ORIGIN = {"Origin": "http://testserver"}
PREFERANS = {"bule": 30, "refe": 0, "deljenja": 3}


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"bot_keepalive_seconds": 0.3, "bot_words_per_second": 1000})


def test_a_bot_reads_its_own_parties_and_the_standings(app, client):
    ana, bob = register(app, "ana"), register(app, "bob")
    auth = bearer(new_bot(ana, "robo"))
    # A partie the Club's computer players finish once the bot has left it.
    r = client.post("/api/bot/parties", headers=auth,
                    json={"game": "preferans", "settings": PREFERANS, "seats": [{"kind": "bot", "bot": "random"}] * 2})
    done = r.json()["id"]
    assert client.post(f"/api/bot/parties/{done}/leave", headers=auth).status_code == 200
    wait_for(lambda: bob.get(f"/api/parties/{done}").json()["status"] == "finished")
    # A running partie with a member.
    r = bob.post("/api/parties", json={"game": "preferans", "settings": PREFERANS,
                                       "seats": [{"kind": "member", "name": "robo"}, {"kind": "bot", "bot": "random"}]})
    running = r.json()["id"]
    assert client.post(f"/api/bot/parties/{running}/accept", headers=auth).json()["status"] == "running"
    # A partie it does not sit at.
    others = bob.post("/api/parties", json={"game": "preferans", "settings": PREFERANS,
                                            "seats": [{"kind": "bot", "bot": "random"}] * 2}).json()["id"]

    listed = client.get("/api/bot/archive", headers=auth).json()["parties"]
    assert [p["id"] for p in listed] == [done] and listed[0]["my_seat"] == 0 and listed[0]["result"]
    assert [p["id"] for p in client.get("/api/bot/archive?status=all", headers=auth).json()["parties"]] \
        == [running, done]
    sheet = client.get(f"/api/bot/parties/{done}/score-sheet", headers=auth).json()
    assert sheet["status"] == "finished" and sheet["players"][0] == "robo" and sheet["result"] \
        == bob.get(f"/api/parties/{done}/score-sheet").json()["result"]
    record = client.get(f"/api/bot/parties/{done}/record", headers=auth).json()
    assert record == bob.get(f"/api/parties/{done}/record").json() and "unfinished" not in record
    # The running table: the score sheet as every player reads it, the record without the others' cards.
    assert client.get(f"/api/bot/parties/{running}/score-sheet", headers=auth).json()["status"] == "running"
    rec = client.get(f"/api/bot/parties/{running}/record", headers=auth).json()
    deal = rec["deals"][-1]
    assert rec["unfinished"] and "seed" not in rec and deal["talon"] is None
    assert [hand is not None for hand in deal["hands"]] == [False, True, False]
    # Its owner still reads nothing of its running table.
    assert code(ana.get(f"/api/parties/{running}/score-sheet")) == "own_bot_table"

    # Bad requests: clear refusals, nothing changed.
    r = client.get(f"/api/bot/parties/{others}/score-sheet", headers=auth)
    assert r.status_code == 403 and code(r) == "not_a_player" and r.json()["error"]["message"]
    assert code(client.get(f"/api/bot/parties/{others}/record", headers=auth)) == "not_a_player"
    r = client.get("/api/bot/parties/424242/score-sheet", headers=auth)
    assert r.status_code == 404 and r.json()["error"]["message"]
    assert client.get(f"/api/bot/parties/{done}/score-sheet").status_code == 401
    assert client.get("/api/bot/archive?status=bogus", headers=auth).status_code == 422
    assert client.get("/api/bot/archive?game=poker", headers=auth).status_code == 422
    assert client.get("/api/bot/standings?period=forever", headers=auth).status_code == 422
    # The scopes: bot:read reads, a token with neither bot:read nor bot:play does not.
    reader = bearer(new_token(ana, "robo", ["bot:read"]))
    assert client.get(f"/api/bot/parties/{done}/score-sheet", headers=reader).status_code == 200
    assert client.get("/api/bot/standings", headers=reader).status_code == 200
    assert code(client.get(f"/api/bot/parties/{running}/stream", headers=reader)) == "missing_scope"
    challenger = bearer(new_token(ana, "robo", ["bot:challenge"]))
    for path in (f"/api/bot/parties/{done}/score-sheet", f"/api/bot/parties/{done}/record", "/api/bot/archive",
                 "/api/bot/standings"):
        r = client.get(path, headers=challenger)
        assert r.status_code == 403 and code(r) == "missing_scope" and r.json()["error"]["scope"] == "bot:read", path
    # The bots' standings: each bot with its owner, the members' never.
    table = client.get("/api/bot/standings?game=preferans", headers=auth).json()
    assert table["game"] == "preferans" and all(row["owner"] for row in table["members"])
    names = [(row["name"], row["owner"]) for row in table["members"]]
    assert names == [(row["name"], row["owner"])
                     for row in ana.get("/api/standings?game=preferans&bots=true").json()["members"]]
