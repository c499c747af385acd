"""Issue 39, "must show": a bot written from docs/bots.md alone (its getting-started and
its reference), as an outside program: plain HTTP (httpx) against a served Club.

Its owner registers (with the Origin header), creates the bot and a token; the bot opens
its event stream and is found online by a member, plays a whole partie from its table's
stream, chats at that table, leaves a second partie (the member's challenge) in the middle
of its first deal, declines a third with a reason, then reads its own finished score
sheet, record and list of parties, and the bots' standings."""

from __future__ import annotations

import json
import queue
import random
import threading
import time

import httpx
import pytest

from tests.support.web import wait_for

PASSWORD = "klupska-lozinka-7"
SHORT = {"bule": 30, "refe": 0, "deljenja": 3}  # a preferans partie of three hands


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"bot_keepalive_seconds": 0.3})


def ndjson(response):
    for text in response.iter_lines():
        if text.strip():
            yield json.loads(text)


class EventStream(threading.Thread):
    """GET /api/bot/stream in a thread: its lines (keep-alives left out) in a queue."""

    def __init__(self, url: str, token: str):
        super().__init__(daemon=True)
        self.http = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
        self.lines: queue.Queue = queue.Queue()
        self.stop = threading.Event()

    def run(self) -> None:
        with self.http.stream("GET", "/api/bot/stream") as r:
            assert r.status_code == 200, r.read()
            for obj in ndjson(r):
                if self.stop.is_set():
                    return
                if obj["type"] != "keepalive":
                    self.lines.put(obj)

    def next(self, kind: str) -> dict:
        while (obj := self.lines.get(timeout=20))["type"] != kind:
            pass
        return obj


def play(bot: httpx.Client, pid: int, rng: random.Random, leave_after: int | None = None) -> list[dict]:
    """Play the bot's seat from the table's stream, a random legal word whenever it is to
    act; with ``leave_after``, leave the partie as soon as it has said that many words."""
    said, frames = 0, []
    with bot.stream("GET", f"/api/bot/parties/{pid}/stream") as r:
        assert r.status_code == 200
        seat = None
        for frame in ndjson(r):
            frames.append(frame)
            if frame["type"] == "end":
                break
            if frame["type"] == "state":
                seat = frame["seat"]
            if frame["type"] not in ("state", "event") or frame["finished"] or seat not in frame["to_act"]:
                continue
            word = rng.choice(frame["legal"])
            v = frame["version"]
            body = {"word": word, "version": v, "action_id": f"{pid}:{seat}:{v}"}
            while (r2 := bot.post(f"/api/bot/parties/{pid}/actions", json=body)).status_code == 429:
                time.sleep(float(r2.headers["Retry-After"]))  # the words' rate: wait as told, send it again
            if r2.status_code == 409:
                continue  # the table moved on: the stream brings the new state
            assert r2.status_code == 200, r2.text
            said += 1
            if said == leave_after:  # the deal goes on without it: the stream ends with an end line (status left)
                r2 = bot.post(f"/api/bot/parties/{pid}/leave")
                assert r2.status_code == 200 and r2.json()["status"] == "running", r2.text
    return frames


def test_an_outside_bot_written_from_the_docs(live_server):
    url, rng = live_server.url, random.Random(39)
    # Getting started: the owner registers (a browser's Origin on every write), makes a bot and a token.
    ana = httpx.Client(base_url=url, headers={"Origin": url}, timeout=30)
    assert ana.post("/api/auth/register", json={"name": "ana", "password": PASSWORD}).status_code == 201
    assert ana.post("/api/bots", json={"name": "Kibernetik"}).status_code == 201
    r = ana.post("/api/bots/Kibernetik/tokens", json={"scopes": ["bot:play", "bot:challenge", "bot:chat", "bot:read"],
                                                      "days": 30, "label": "test"})
    token = r.json()["token"]
    assert token.startswith("kbt_")
    bot = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    me = bot.get("/api/bot/account").json()
    assert me["name"] == "Kibernetik" and me["owner"] == "ana" and me["limits"]["chat_per_minute"] >= 1
    events = EventStream(url, token)
    events.start()
    assert events.next("hello")["bot"] == "Kibernetik"

    # A member finds it online.
    bob = httpx.Client(base_url=url, headers={"Origin": url}, timeout=30)
    assert bob.post("/api/auth/register", json={"name": "bob", "password": PASSWORD}).status_code == 201
    online = bob.get("/api/bots/online").json()["bots"]
    assert [(b["name"], b["owner"]) for b in online] == [("Kibernetik", "ana")]
    assert [b["name"] for b in bot.get("/api/bot/online").json()["bots"]] == ["Kibernetik"]

    # The first partie: it proposes one against two of the Club's computer players, says
    # hello in the chat and plays it to its end.
    r = bot.post("/api/bot/parties", json={"game": "preferans", "settings": SHORT,
                                           "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201 and r.json()["status"] == "running", r.text
    first = r.json()["id"]
    chat = bot.post(f"/api/bot/parties/{first}/chat", json={"text": "Dobar dan svima"})
    assert chat.status_code == 201 and chat.json()["bot"] is True and chat.json()["bot_owner"] == "ana"
    frames = play(bot, first, rng)
    assert frames[0]["type"] == "state" and frames[-1] == {"type": "end", "version": frames[-1]["version"],
                                                          "status": "finished"}
    assert any(f["type"] == "chat" for f in frames) or bot.get(f"/api/bot/parties/{first}/chat").json()["messages"]

    # The second: bob challenges it; it accepts from its event stream and leaves in the middle of the first deal.
    r = bob.post("/api/bots/Kibernetik/challenge", json={"game": "preferans", "settings": SHORT, "level": "random"})
    assert r.status_code == 201, r.text
    second = r.json()["id"]
    assert events.next("invitation")["partie"]["id"] == second
    assert bot.post(f"/api/bot/parties/{second}/accept").json()["status"] == "running"
    frames = play(bot, second, rng, leave_after=1)
    assert frames[-1]["type"] == "end" and frames[-1]["status"] == "left"
    seats = bob.get(f"/api/parties/{second}").json()
    assert seats["status"] == "running" and seats["seats"][1]["taken_over"] and seats["seats"][1]["name"] == "Kibernetik"
    assert [p["id"] for p in bot.get("/api/bot/parties").json()["playing"]] == []

    # The third: declined, with a reason bob reads.
    third = bob.post("/api/bots/Kibernetik/challenge", json={"game": "lora"}).json()["id"]
    assert events.next("invitation")["partie"]["id"] == third
    r = bot.post(f"/api/bot/parties/{third}/decline", json={"reason": "Igram samo preferans"})
    assert r.status_code == 200
    assert bob.get(f"/api/parties/{third}").json()["seats"][1]["decline_reason"] == "Igram samo preferans"

    # It reads its own finished partie, its list of parties and the bots' standings.
    sheet = bot.get(f"/api/bot/parties/{first}/score-sheet").json()
    assert sheet["status"] == "finished" and sheet["players"][0] == "Kibernetik" and sheet["result"]
    record = bot.get(f"/api/bot/parties/{first}/record").json()
    assert record["players"][0] == "Kibernetik" and "unfinished" not in record and "seed" not in record
    finished = bot.get("/api/bot/archive").json()["parties"]
    assert [p["id"] for p in finished] == [first]
    wait_for(lambda: bot.get("/api/bot/standings?game=preferans").json()["members"])
    standings = bot.get("/api/bot/standings?game=preferans").json()["members"]
    assert [(row["name"], row["owner"]) for row in standings] == [("Kibernetik", "ana")]
    # Never what it may not read: bob's running table where it no longer plays is its own partie still
    # (its seat, its hand only), a stranger's table is not.
    rec = bot.get(f"/api/bot/parties/{second}/record").json()
    assert rec["unfinished"] and [h is not None for h in rec["deals"][-1]["hands"]] == [False, True, False]
    stranger = bob.post("/api/parties", json={"game": "lorum", "seats": [{"kind": "bot", "bot": "random"}] * 3}).json()
    r = bot.get(f"/api/bot/parties/{stranger['id']}/score-sheet")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_player"
    events.stop.set()
    events.join(timeout=5)
