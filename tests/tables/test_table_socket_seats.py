"""A player's arrival or departure reaches the table's other sockets as itself: the seat,
away or not, and the seats' version it made (``Partie.seats_version``,
app/tables/presence.py). A socket applies it to the seats it shows without reading the
table again, only when it is the next version; an older one is ignored, and one after a
gap (the missing change is still on its way from the other instance) reads the seats."""

from __future__ import annotations

import asyncio
import json

from app.tables import reads
from tests.support.web import member, recv, ws_connect


def test_an_arrival_is_shown_without_a_read_and_an_older_notice_never_replaces_newer_seats(live_server, monkeypatch):
    ana, boki = member(live_server.url, "ana"), member(live_server.url, "boki")
    pid = ana.post(
        "/api/parties", json={"game": "lora", "seats": [{"kind": "member", "name": "boki"}] + [{"kind": "bot"}] * 2}
    ).json()["id"]
    assert boki.post(f"/api/parties/{pid}/accept").status_code == 200
    club = live_server.club
    reads_by = []
    table_state = reads.table_state

    def counted(club_, partie_id, who):
        reads_by.append(who.name if who else None)
        return table_state(club_, partie_id, who)

    monkeypatch.setattr(reads, "table_state", counted)

    async def seats_frame(ws) -> dict:
        while (frame := await recv(ws))["type"] != "seats":
            pass
        return frame

    async def nothing_more(ws) -> None:
        """The socket sent nothing since: the answer to a ping is the next frame."""
        await ws.send(json.dumps({"type": "ping"}))
        assert (await recv(ws))["type"] == "pong"

    async def main():
        async with await ws_connect(live_server, pid, ana) as watcher:
            first = await recv(watcher)
            assert first["type"] == "state" and not first["seats"][1]["away"]
            async with await ws_connect(live_server, pid, boki) as ws:
                await recv(ws)
            gone = await seats_frame(watcher)  # boki's socket closed: away
            assert gone["seats"][1]["away"] and gone["seats_version"] == first["seats_version"] + 1
            del reads_by[:]
            async with await ws_connect(live_server, pid, boki) as ws:
                mine = await recv(ws)
                back = await seats_frame(watcher)
                assert not back["seats"][1]["away"] and back["seats_version"] == gone["seats_version"] + 1
                assert reads_by == ["boki"]  # his own socket's first read only: ana's socket read nothing
                # his own socket showed the seats his arrival left (newer than its first frame's)
                assert mine["seats_version"] == gone["seats_version"]
                assert (await seats_frame(ws))["seats_version"] == back["seats_version"]

                # A notice published late by the other instance: older than the seats shown.
                def change(away: bool, version: int) -> dict:
                    return {"kind": "seats", "presence": [{"seat": 1, "away": away, "seats_version": version}]}

                club.notify_partie(pid, change(True, gone["seats_version"]))
                await nothing_more(watcher)
                assert reads_by == ["boki"]
                # One after a gap: the seats are read (the database has every change)
                club.notify_partie(pid, change(True, back["seats_version"] + 2))
                read = await seats_frame(watcher)
                assert not read["seats"][1]["away"] and read["seats_version"] == back["seats_version"]
                assert reads_by.count("ana") == 1
                # a notice without its seats (a vote, a takeover...) reads them
                club.notify_partie(pid, {"kind": "seats"})
                read = await seats_frame(watcher)
                assert read["seats"] == back["seats"] and read["seats_version"] == back["seats_version"]
                assert reads_by.count("ana") == 2

    asyncio.run(main())
