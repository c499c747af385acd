"""The reference bot (examples/bot_client.py) in its own process against a served Club.

A member invites the bot to a preferans partie and then to a Lora partie; the bot accepts
each from its event stream and plays them to their end with the Club's pocetnik code
(--level pocetnik), while the member plays his own seat over the table socket and the
Club's computer players the rest. Midway through the first partie the network between
the bot and the Club is cut: the bot opens its streams again, resumes the table from the
last version it read, and sends again the word it may have lost (same action id). Every
line the bot read is then audited as the leak tests audit frames (tests/support/web.py
LeakCheck against the whole record): no card its seat may not see.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import uuid

import pytest

from app.db import Database
from tests.support.audit import choose as member_choice
from tests.support.audit import full_record
from tests.support.bots import CuttableRelay, new_bot
from tests.support.web import ROOT, LeakCheck, ServerProcess, member, recv, wait_for, ws_connect

PREFERANS = {"bule": 30, "refe": 0, "deljenja": 3}  # three hands
LORA = {"variant": "klub", "bez": ["vise", "manje", "dame", "herc", "zandar", "lora"]}  # four deals of kralj


async def play_member_seat(server, pid: int, client, rng: random.Random, cut_at: int | None, relay) -> int:
    """The member's seat, random legal words over the table socket, to the partie's end;
    the relay of the bot is cut once the table reaches version ``cut_at``."""
    async with await ws_connect(server, pid, client, compression=None) as ws:
        frame = await recv(ws)
        seat, table, pending = frame["seat"], frame, None
        while not table.get("finished"):
            if cut_at is not None and table["version"] >= cut_at and not relay.cuts:
                relay.cut()
            if pending is None and seat in table.get("to_act", ()) and table["legal"]:
                word = member_choice(rng, table["game"] if "game" in table else "x", table["legal"], 0, 99)
                pending = uuid.uuid4().hex
                await ws.send(json.dumps({"type": "action", "word": word, "version": table["version"], "id": pending}))
            frame = await recv(ws, timeout=60)
            if frame["type"] in ("event", "state"):
                table = {**table, **frame}
            elif frame["type"] in ("ack", "error"):
                pending = None
        return table["version"]


def test_the_reference_bot_plays_preferans_and_lora_through_a_dropped_network(settings, tmp_path):
    server = ServerProcess(settings)
    server.env["KLUB_BOT_KEEPALIVE_SECONDS"] = "1"
    server.start()
    relay = CuttableRelay(server.port).start()
    db = Database(settings.database_url)
    log = tmp_path / "bot.jsonl"
    proc = None
    try:
        owner = member(server.url, "vlasnik")
        token = new_bot(owner, "robo", ["bot:play"])
        host = member(server.url, "domacin")
        proc = subprocess.Popen(
            [sys.executable, "examples/bot_client.py", "--url", relay.url, "--token", token, "--level", "pocetnik",
             "--log", str(log), "--parties", "2"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        rng = random.Random(27)
        parties = []
        for game, settings_, seats, cut_at in (
            ("preferans", PREFERANS, [{"kind": "member", "name": "robo"}, {"kind": "bot", "bot": "random"}], 12),
            ("lora", LORA, [{"kind": "member", "name": "robo"}, {"kind": "bot", "bot": "random"},
                            {"kind": "bot", "bot": "random"}], None),
        ):
            r = host.post("/api/parties", json={"game": game, "settings": settings_, "seats": seats})
            assert r.status_code == 201, r.text
            pid = r.json()["id"]
            wait_for(lambda: host.get(f"/api/parties/{pid}").json()["status"] == "running")  # the bot accepted
            asyncio.run(play_member_seat(server, pid, host, rng, cut_at, relay))
            parties.append((game, pid))
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0, out
        for game, pid in parties:
            summary = host.get(f"/api/parties/{pid}").json()
            assert summary["status"] == "finished", summary
            assert summary["seats"][1]["name"] == "robo" and summary["seats"][1]["bot_owner"] == "vlasnik"
            assert f"partie {pid} finished" in out, out
        first = parties[0][1]
        assert relay.cuts == 1 and f"partie {first} resumed from version" in out, out
        # Every line the bot read, audited against the whole record of its partie.
        frames: dict[int, list] = {pid: [] for _, pid in parties}
        for text in log.read_text().splitlines():
            entry = json.loads(text)
            if entry["partie"] is not None:
                frames[entry["partie"]].append((entry["seat"], entry["frame"]))
        for game, pid in parties:
            check = LeakCheck(full_record(db, pid))
            events = [f for _, f in frames[pid] if f["type"] == "event"]
            versions = [f["version"] for f in events]
            assert versions == sorted(set(versions)), "an event line twice, or out of order"
            assert events[-1]["finished"] and frames[pid][-1][1]["type"] == "end"
            for seat, frame in frames[pid]:
                assert seat == 1
                check.check(seat, frame)
        # The bot said its words itself (none by the Club's computer player for it).
        with db.read() as s:
            from sqlalchemy import func, select

            from app.db.models import Action

            for _, pid in parties:
                sources = dict(s.execute(select(Action.source, func.count()).where(Action.partie_id == pid, Action.seat == 1)
                                         .group_by(Action.source)).all())
                assert set(sources) == {"member"} and sources["member"] > 5, sources
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        relay.close()
        server.close()
        db.dispose()


def test_the_reference_bot_applies_view_changes_and_starts_again_without_the_view_before():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bot_client", ROOT / "examples" / "bot_client.py")
    bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bot)
    state = {"type": "state", "version": 4, "view": {"version": 4, "hand": ["AS"], "deal": 0}}
    event = {"type": "event", "version": 5, "view_changes": {"version": 5, "hand": []}, "view_removed": ["deal"]}
    assert bot.view_after(state, event) == {"version": 5, "hand": []}
    assert state["view"] == {"version": 4, "hand": ["AS"], "deal": 0}
    whole = {"type": "event", "version": 9, "view": {"version": 9}}
    assert bot.view_after(None, whole) == {"version": 9}
    for before in (None, {"type": "state", "version": 4}, {**state, "version": 3}):  # no view, or a gap
        with pytest.raises(bot.NeedState):
            bot.view_after(before, event)
