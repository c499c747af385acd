"""A whole tournament evening in a real browser in which a player leaves his table (issue 36,
items 5 to 7; rulings T3, T8, T10, T11): a preferans duplikat of two rounds of three hands
for six members, two tables a round.

Before the start "Povuci" says that the registration would be undone. While round 1 runs,
a member of one table finds nothing of the other (no link on the tournament page; its
table and archive pages are the plain "hidden table" page with the way back to the
tournament). A member leaves his table through the page ("Napusti partiju", whose
confirmation says that he withdraws from the tournament): the computer player finishes his
seat, round 2 seats him nowhere, and the standings mark him as withdrawn. Round 2 runs past
its deadline (written into the database): the table page says that the round's time is up
and the computer players finish the evening.

The two members with pages say their words over the API with their own sessions, as the
four others do, so the evening stays short. Tests wait on state, never on time.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import httpx

from app.games.registry import descriptor
from tests.support.browser import api_member, log_in, member_session, register, table_of
from tests.support.ui import close_watched, shot, watched_page
from tests.support.web import wait_for

OPTIONAL = descriptor("preferans").engine.optional_words  # no otpis or offers: every hand is played


def _play(members: list[httpx.Client], server, tid: int, round_no: int, seed: int) -> None:
    """The members' random legal words (none optional) until every table of theirs is over."""
    tables: dict[int, dict[int, httpx.Client]] = {}
    for member in members:
        pid = table_of(member, server, tid, round_no)
        tables.setdefault(pid, {})[member.get(f"/api/parties/{pid}/view").json()["seat"]] = member
    rng = random.Random(seed)
    done: set[int] = set()
    for _ in range(20000):
        for pid, seats in tables.items():
            if pid in done:
                continue
            for seat, member in seats.items():
                st = member.get(f"/api/parties/{pid}/view").json()
                if st["finished"]:
                    done.add(pid)
                    break
                if seat in st["to_act"] and st["legal"]:
                    words = [w for w in st["legal"] if w not in OPTIONAL] or st["legal"]
                    member.post(f"/api/parties/{pid}/actions", json={"word": rng.choice(words), "version": st["version"]})
        if len(done) == len(tables):
            return
    raise AssertionError("the round did not finish")


def _detail(client: httpx.Client, tid: int) -> dict:
    return client.get(f"/api/tournaments/{tid}").json()


def test_a_member_leaves_his_table_and_is_withdrawn(browser, server):  # noqa: F811
    from sqlalchemy import select

    from app.db import Database
    from app.db.models import Partie, TournamentRound
    from app.members.service import ensure_admin

    db = Database(server.db_url)
    ensure_admin(db, "voditeljka", "voditeljka-lozinka-1")
    admin = watched_page(browser)
    log_in(admin, server, "voditeljka", "voditeljka-lozinka-1")
    start = (datetime.now(timezone.utc) + timedelta(hours=1)).isoformat()
    r = admin.request.post(server.url + "/api/tournaments", headers={"Origin": server.url}, data={
        "name": "Napuštena večer", "game": "preferans", "format": "duplikat", "rounds": 2, "hands": 3,
        "timer": 60, "round_minutes": 60, "pause_minutes": 0, "start_at": start})
    assert r.status == 201, r.text()
    tid = r.json()["id"]

    pages, names = [], []
    for prefix in ("odlazi", "ostaje"):
        pg = watched_page(browser)
        names.append(register(pg, server, prefix))
        pg.goto(server.url + f"/tournaments/{tid}")
        pg.click(".join-tournament")
        pg.wait_for_selector(".leave-tournament")
        pages.append(pg)
    leaver, stayer = pages
    gone = names[0]
    # "Povuci" before the start: the confirmation says the registration is undone
    leaver.click("details.tournament-leave summary")
    assert "poništava" in leaver.inner_text("#tournament-leave-form")
    api_members = [api_member(server, f"veče{i}t{tid}", tid) for i in range(4)]
    sessions = [member_session(stayer, server), *api_members]
    assert admin.request.post(server.url + f"/api/tournaments/{tid}/start",
                              headers={"Origin": server.url}).json()["current_round"] == 1

    # T8, T11: a member of one table finds nothing of the other while the round runs
    stayer.goto(server.url + f"/tournaments/{tid}")
    stayer.wait_for_selector("#tournament-live a.my-table")
    mine = table_of(stayer, server, tid, 1)
    leaver_table = table_of(leaver, server, tid, 1)
    with db.read() as s:
        tables = list(s.scalars(select(Partie.id).where(Partie.tournament_id == tid, Partie.tournament_round == 1)))
    assert len(tables) == 2 and mine in tables
    other = next(p for p in tables if p != mine)
    links = stayer.eval_on_selector_all("#tournament-live a", "els => els.map(e => e.getAttribute('href'))")
    assert f"/table/{mine}" in links
    assert not [h for h in links if h.endswith(f"/{other}")], links
    for path in (f"/table/{other}", f"/archive/{other}"):
        stayer.goto(server.url + path)
        assert "1" in stayer.inner_text("#hidden-table")
        assert stayer.get_attribute("#hidden-table-tournament", "href") == f"/tournaments/{tid}"
        assert stayer.locator("#table").count() == 0
    shot(stayer, "tournament-hidden-table")

    # T10: he leaves his table through the page; its confirmation says he withdraws
    leaver.goto(server.url + f"/table/{leaver_table}")
    leaver.wait_for_selector("#leave-choice:not([hidden])")
    leaver.click("#leave-choice summary")
    leaver.wait_for_selector("#leave-form .leave-tournament-note")
    assert "turnir" in leaver.inner_text("#leave-form .leave-tournament-note")
    shot(leaver, "tournament-leave-confirm")
    leaver.click("#leave-form button[type=submit]")
    leaver.wait_for_url("**/lobby")
    own = member_session(leaver, server)
    seat = next(x for x in own.get(f"/api/parties/{leaver_table}").json()["seats"] if x["name"] == gone)
    assert seat["taken_over"] and seat["computer"]
    me = _detail(own, tid)["me"]
    assert me["withdrawn"] and not me["registered"] and not me["may_join"]

    # the others play round 1 to its end; the computer player finishes his seat meanwhile
    _play(sessions, server, tid, 1, seed=36)
    data = wait_for(lambda: (d := _detail(own, tid))["current_round"] == 2 and d, timeout=30)  # no pause
    assert not data["rounds_played"][0]["overdue"]
    seated = {s["name"] for tb in data["rounds_played"][1]["tables"] for s in tb["seats"] if s["member"]}
    assert len(seated) == 5 and gone not in seated
    leaver.goto(server.url + f"/tournaments/{tid}")
    row = leaver.locator(f"table.tournament-standings tr[data-player='{gone}']")
    assert "withdrawn" in row.get_attribute("class") and "povukao se" in row.inner_text()
    assert leaver.locator("#tournament-live a.my-table").count() == 0
    assert leaver.locator(".leave-tournament").count() == 0
    shot(leaver, "tournament-withdrawn")

    # T3: round 2 runs past its deadline; the table says so, and the computer finishes
    stayer.goto(server.url + f"/table/{table_of(stayer, server, tid, 2)}")
    stayer.wait_for_function("() => window.Klub && Klub.table && Klub.table.view")
    with db.write() as s:
        s.get(TournamentRound, (tid, 2)).deadline_at = datetime.now(timezone.utc) - timedelta(minutes=1)
    note = stayer.wait_for_selector("#timeout-note:not([hidden])", timeout=30000)
    assert note.inner_text() == "Vreme kola je isteklo: računar završava partiju"
    shot(stayer, "tournament-round-time-up")
    wait_for(lambda: _detail(own, tid)["status"] == "finished", timeout=60)
    final = {x["name"]: x for x in _detail(own, tid)["standings"]}
    assert final[gone]["withdrawn"] and final[gone]["rank"] is None
    assert sum(1 for x in final.values() if x["withdrawn"]) == 1

    db.write_engine.dispose()
    own.close()
    for member in sessions:
        member.close()
    for pg in (admin, leaver, stayer):
        close_watched(pg)

