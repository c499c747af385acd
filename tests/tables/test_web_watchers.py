"""Who watches, and what is unread (issue 23, item 4), on a live uvicorn: the table tells
everyone at it the spectators' names as they come and go; a turn at the table a member
sits at is neither counted nor told as unread; the members of a partie that ended hear it."""

from __future__ import annotations

import asyncio

from websockets.asyncio.client import connect

from tests.support.notices import frame_of, notices
from tests.support.web import cookie_header, member, recv


async def table_socket(server, client, pid: int):
    headers = {"Origin": server.origin, "Cookie": cookie_header(client)}
    return await connect(f"{server.ws_url}/ws/parties/{pid}", additional_headers=headers, open_timeout=10)


async def watchers_frame(ws, names: list[str]) -> dict:
    """Frames until a ``watchers`` frame naming exactly ``names``."""
    while True:
        f = await frame_of(ws, ftype="watchers")
        if f["watchers"] == names:
            return f


def _post(client, path: str, body: dict | None = None) -> dict:
    r = client.post(path, json=body) if body is not None else client.post(path)
    assert r.status_code in (200, 201), r.text
    return r.json()


def test_the_table_names_its_spectators_to_players_and_spectators(live_server):
    ana, boki, ceca = (member(live_server.url, n) for n in ("ana", "boki", "ceca"))
    pid = _post(ana, "/api/parties", {"game": "lora", "seats": [{"kind": "bot"}] * 3})["id"]

    async def main():
        async with await table_socket(live_server, ana, pid) as a:
            state = await frame_of(a, ftype="state")
            assert state["watchers"] == []  # nobody watches yet
            async with await table_socket(live_server, ceca, pid) as c:
                assert (await frame_of(c, ftype="state"))["watchers"] == ["ceca"]  # he sees himself
                await watchers_frame(a, ["ceca"])
                async with await table_socket(live_server, boki, pid) as b:
                    assert (await frame_of(b, ftype="state"))["watchers"] == ["boki", "ceca"]
                    await watchers_frame(a, ["boki", "ceca"])
                    await watchers_frame(c, ["boki", "ceca"])
                    async with await table_socket(live_server, boki, pid) as b2:  # a second tab: one boki
                        assert (await frame_of(b2, ftype="state"))["watchers"] == ["boki", "ceca"]
                await watchers_frame(a, ["ceca"])  # boki closed his last tab
                await watchers_frame(c, ["ceca"])
            await watchers_frame(a, [])

    asyncio.run(main())


def test_a_turn_at_the_table_i_sit_at_is_not_unread(live_server):
    ana, boki = member(live_server.url, "ana"), member(live_server.url, "boki")
    pid = _post(ana, "/api/parties", {"game": "lora", "seats": [{"kind": "bot"}] * 3})["id"]

    def my_turn() -> dict | None:
        view = ana.get(f"/api/parties/{pid}/view").json()
        return view if view["legal"] else None

    async def main():
        async with await notices(live_server, ana) as n:
            f = await recv(n)
            while f.get("turns") != [pid]:  # the computer players play until her turn
                f = await recv(n)
            assert f["count"] == 1
            async with await table_socket(live_server, ana, pid) as t:
                assert (await recv(t))["type"] == "state"
                f = await frame_of(n, ftype="unread")  # she sits at the table: not unread
                assert f["turns"] == [] and f["count"] == 0
                # She plays; the computer players play; her turn comes again at this table.
                view = await asyncio.to_thread(my_turn)
                await asyncio.to_thread(_post, ana, f"/api/parties/{pid}/actions",
                                        {"word": view["legal"][0], "version": view["version"]})
                while True:
                    f = await recv(t)
                    if f["type"] == "event" and f["legal"]:
                        break
                # A notice after that turn's: no frame before it tells or counts a turn. A
                # count read after boki's invitation committed may already hold it (the
                # count is the database's at the moment the batch is read).
                body = {"game": "lora", "seats": [{"kind": "member", "name": "ana"}, {"kind": "bot"}, {"kind": "bot"}]}
                other = (await asyncio.to_thread(_post, boki, "/api/parties", body))["id"]
                while True:
                    f = await recv(n)
                    assert not (f["type"] == "notice" and f["kind"] == "turn"), f
                    if f["type"] == "notice" and f["kind"] == "invited":
                        break
                    assert f["turns"] == [] and f["count"] == len(f["invitations"]) and f["invitations"] in ([], [other]), f
                assert f["invitations"] == [other] and f["turns"] == [] and f["count"] == 1
            # She left the table: her turn there waits for her again.
            f = await frame_of(n, ftype="unread")
            assert f["turns"] == [pid] and f["count"] == 2

    asyncio.run(main())


def test_the_members_of_an_ended_partie_are_told(live_server):
    """Preferans between members: all pass, then an otpis accepted by both ends the partie."""
    names = ("ana", "boki", "ceca")
    ana, boki, ceca = (member(live_server.url, n) for n in names)
    viewer = member(live_server.url, "dule")
    seats = [{"kind": "member", "name": "boki"}, {"kind": "member", "name": "ceca"}]
    pid = _post(ana, "/api/parties", {"game": "preferans", "settings": {"bule": 30, "refe": 1}, "seats": seats})["id"]
    _post(boki, f"/api/parties/{pid}/accept")
    _post(ceca, f"/api/parties/{pid}/accept")
    players = {0: ana, 1: boki, 2: ceca}

    def say(seat: int, word: str) -> None:
        c = players[seat]
        view = c.get(f"/api/parties/{pid}/view").json()
        assert word in view["legal"], (word, view["legal"])
        _post(c, f"/api/parties/{pid}/actions", {"word": word, "version": view["version"]})

    async def main():
        async with await notices(live_server, ana) as a, await notices(live_server, ceca) as c, \
                await notices(live_server, viewer) as d:
            await recv(a), await recv(c), await recv(d)
            for seat in (1, 2, 0):
                await asyncio.to_thread(say, seat, "dalje")
            await asyncio.to_thread(say, 0, "otpis")
            await asyncio.to_thread(say, 1, "prihvatam")
            await asyncio.to_thread(say, 2, "prihvatam")
            for ws in (a, c):
                f = await frame_of(ws, "ended")
                assert f["partie"] == pid and f["game"] == "preferans" and f["game_name"] and f["count"] == 0
            # Someone who did not play hears nothing of it (a ping is answered after the notices).
            await d.send('{"type": "ping"}')
            f = await recv(d)
            assert f["type"] == "pong", f

    asyncio.run(main())


def test_a_member_is_seated_at_a_table_while_his_seat_socket_is_open_there():
    from app.tables.viewers import Viewers

    viewers = Viewers()
    viewers.open(1, 7, "ana", seated=True)
    viewers.open(1, 7, "ana", seated=True)  # a second tab
    viewers.open(2, 7, "ana", seated=False)  # watching another table
    viewers.open(1, 8, "boris", seated=False)
    assert viewers.is_seated(7, 1) and not viewers.is_seated(7, 2) and not viewers.is_seated(8, 1)
    assert not viewers.is_seated(7, 3) and viewers.seated_at(7) == {1}
    viewers.close(1, 7)
    assert viewers.is_seated(7, 1)  # one tab is still open
    viewers.close(1, 7)
    assert not viewers.is_seated(7, 1) and viewers.seated_at(7) == set()
