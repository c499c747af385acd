"""Issue 39, item 3: a bot writes in its table's chat (scope bot:chat, rate-limited), its
messages marked as a bot's with its owner; a member mutes a bot's chat (the history and
his table socket leave it out) and reads it again."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.support.api import error_code as code
from tests.support.bots import bearer, new_bot, new_token
from tests.support.web import member, recv, ws_connect

PREFERANS = {"bule": 30, "refe": 0, "deljenja": 3}


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"bot_keepalive_seconds": 0.3, "bot_chat_per_minute": 4})


def test_a_bot_chats_and_a_member_mutes_it(live_server):
    server = live_server
    ana, bob, carl = (member(server.url, n) for n in ("ana", "bob", "carl"))
    token = new_bot(ana, "robo", ["bot:play", "bot:chat"])
    robo = httpx.Client(base_url=server.url, headers=bearer(token), timeout=30)
    r = bob.post("/api/parties", json={"game": "preferans", "settings": PREFERANS,
                                       "seats": [{"kind": "member", "name": "robo"}, {"kind": "member", "name": "carl"}]})
    pid = r.json()["id"]
    assert robo.post(f"/api/parties/{pid}/accept").status_code == 401  # the members' path wants a session
    assert robo.post(f"/api/bot/parties/{pid}/accept").status_code == 200
    assert carl.post(f"/api/parties/{pid}/accept").json()["status"] == "running"

    # Bad messages: clear refusals, nothing written, nothing counted.
    for text, status in (("", 422), ("   ", 422), ("two\nlines", 422), ("x" * 2001, 422)):
        r = robo.post(f"/api/bot/parties/{pid}/chat", json={"text": text})
        assert r.status_code == status and r.json()["error"]["message"], text
    r = robo.post(f"/api/bot/parties/{pid}/chat", json={})
    assert r.status_code == 422
    no_chat = bearer(new_token(ana, "robo", ["bot:play"]))
    r = robo.post(f"/api/bot/parties/{pid}/chat", json={"text": "zdravo"}, headers=no_chat)
    assert r.status_code == 403 and code(r) == "missing_scope" and r.json()["error"]["scope"] == "bot:chat"
    elsewhere = bob.post("/api/parties", json={"game": "preferans", "settings": PREFERANS,
                                               "seats": [{"kind": "bot", "bot": "random"}] * 2}).json()["id"]
    r = robo.post(f"/api/bot/parties/{elsewhere}/chat", json={"text": "zdravo"})
    assert r.status_code == 403 and code(r) == "not_a_player"
    assert bob.get(f"/api/parties/{pid}/chat").json()["messages"] == []

    async def main():
        async with await ws_connect(server, pid, bob) as ws:
            await recv(ws)

            async def next_chat():
                while (frame := await recv(ws))["type"] != "chat":
                    pass
                return frame["message"]

            r = await asyncio.to_thread(robo.post, f"/api/bot/parties/{pid}/chat", json={"text": "Dobar dan, ja sam bot"})
            assert r.status_code == 201, r.text
            said = r.json()
            assert said["from"] == "robo" and said["bot"] is True and said["bot_owner"] == "ana"
            assert await next_chat() == said
            # bob mutes robo: its next message does not reach him, carl's does.
            assert (await asyncio.to_thread(bob.put, "/api/bots/robo/mute")).json() == {"bot": "robo", "muted": True}
            assert (await asyncio.to_thread(robo.post, f"/api/bot/parties/{pid}/chat", json={"text": "opet ja"})).status_code == 201
            await asyncio.to_thread(carl.post, f"/api/parties/{pid}/chat", json={"text": "ja sam carl"})
            heard = await next_chat()
            assert heard["from"] == "carl" and "bot" not in heard

    asyncio.run(main())
    assert [m["text"] for m in bob.get(f"/api/parties/{pid}/chat").json()["messages"]] == ["ja sam carl"]
    assert bob.get("/api/bots/muted").json() == {"bots": ["robo"]}
    assert [m["text"] for m in carl.get(f"/api/parties/{pid}/chat").json()["messages"]] \
        == ["Dobar dan, ja sam bot", "opet ja", "ja sam carl"]
    # The rate: 4 a minute; the fifth is refused with Retry-After and not written.
    robo.post(f"/api/bot/parties/{pid}/chat", json={"text": "treća"})
    robo.post(f"/api/bot/parties/{pid}/chat", json={"text": "četvrta"})
    r = robo.post(f"/api/bot/parties/{pid}/chat", json={"text": "peta"})
    assert r.status_code == 429 and code(r) == "chat_rate_limited" and int(r.headers["Retry-After"]) >= 1
    assert "peta" not in [m["text"] for m in carl.get(f"/api/parties/{pid}/chat").json()["messages"]]
    # Unmuted: bob reads it all again. Muting what is no bot is refused.
    assert bob.delete("/api/bots/robo/mute").json() == {"bot": "robo", "muted": False}
    assert len(bob.get(f"/api/parties/{pid}/chat").json()["messages"]) == 5
    for name in ("carl", "nobody"):
        r = bob.put(f"/api/bots/{name}/mute")
        assert r.status_code == 404 and code(r) == "no_such_bot" and r.json()["error"]["message"]
    assert bob.get("/api/bots/muted").json() == {"bots": []}
    # The bot reads the chat with its messages marked too.
    messages = robo.get(f"/api/bot/parties/{pid}/chat").json()["messages"]
    assert [bool(m.get("bot")) for m in messages] == [True, True, False, True, True]
