"""Revanš: ``POST /api/parties/{id}/rematch`` and the pages' form (``/lobby/{id}/rematch``).

The same game, settings, timer and players; the seats turned round so that the member
who asks sits at seat 0 (docs/rulings.md, "Club"); computer players at their levels,
seated at once; the other members invited.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.members.cookies import form_token
from tests.support.club import Seat, store_finished
from tests.support.web import PASSWORD

LORA, PREFERANS = "lora", "preferans"


@pytest.fixture
def people(app):
    """A logged-in client per member: ana, boki, ceca, dule."""
    origin = app.state.club.settings.site_origin
    clients = {}
    with TestClient(app, headers={"Origin": origin}) as first:
        clients["ana"] = first
        for name in ("boki", "ceca", "dule"):
            clients[name] = TestClient(app, headers={"Origin": origin})
        for name, c in clients.items():
            r = c.post("/api/auth/register", json={"name": name, "password": PASSWORD})
            assert r.status_code == 201, r.text
        yield clients


def test_the_asker_sits_first_and_the_table_keeps_its_order(app, people):
    db = app.state.club.db
    old = store_finished(db, LORA, [Seat("ana"), Seat("boki"), Seat(bot="majstor"), Seat("ceca")], timer=60)
    r = people["boki"].post(f"/api/parties/{old}/rematch")
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["id"] != old and new["game"] == LORA and new["status"] == "proposed"
    assert new["proposer"] == "boki" and new["my_seat"] == 0 and new["timer"] == 60
    old_summary = people["boki"].get(f"/api/parties/{old}").json()
    assert new["settings"] == old_summary["settings"]
    # old seats 1, 2, 3, 0: everyone keeps his neighbours, boki deals first
    assert [s["name"] for s in new["seats"]] == ["boki", "AI 2", "ceca", "ana"]
    assert [s["answer"] for s in new["seats"]] == ["accepted", "accepted", "invited", "invited"]
    assert new["seats"][1]["kind"] == "bot" and new["seats"][1]["computer"]
    with db.read() as s:
        from app.db.models import PartieSeat

        assert s.get(PartieSeat, (new["id"], 1)).bot == "majstor"  # the same level
    # the others accept as any invitation; the partie starts
    assert people["ceca"].post(f"/api/parties/{new['id']}/accept").json()["status"] == "proposed"
    assert people["ana"].post(f"/api/parties/{new['id']}/accept").json()["status"] == "running"


def test_settings_timer_and_every_asker(app, people):
    db = app.state.club.db
    settings = {"bule": 40, "refe": 1}
    old = store_finished(db, PREFERANS, [Seat("ana"), Seat("boki"), Seat("ceca")], settings=settings, timer=30)
    expected = {"ana": ["ana", "boki", "ceca"], "boki": ["boki", "ceca", "ana"], "ceca": ["ceca", "ana", "boki"]}
    made = set()
    for asker, order in expected.items():
        new = people[asker].post(f"/api/parties/{old}/rematch").json()
        assert [s["name"] for s in new["seats"]] == order
        assert new["settings"]["bule"] == 40 and new["settings"]["refe"] == 1 and new["timer"] == 30
        made.add(new["id"])
        people[asker].post(f"/api/parties/{new['id']}/withdraw")  # each asker alone: no open revanš waits
    assert len(made) == 3


def test_asking_for_a_revans_already_proposed_accepts_it(app, people):
    db = app.state.club.db
    old = store_finished(db, PREFERANS, [Seat("ana"), Seat("boki"), Seat(bot="iskusan")])
    first = people["ana"].post(f"/api/parties/{old}/rematch")
    assert first.status_code == 201 and first.json()["status"] == "proposed"
    again = people["ana"].post(f"/api/parties/{old}/rematch")  # a second click: the same proposal
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    second = people["boki"].post(f"/api/parties/{old}/rematch")
    assert second.status_code == 200 and second.json()["id"] == first.json()["id"]
    assert second.json()["status"] == "running"  # boki's click was his acceptance


def test_computer_players_are_seated_at_once(app, people):
    db = app.state.club.db
    old = store_finished(db, LORA, [Seat(bot="iskusan"), Seat("dule"), Seat(bot="pocetnik"), Seat(bot="majstor")])
    new = people["dule"].post(f"/api/parties/{old}/rematch").json()
    assert new["status"] == "running"  # nobody to wait for
    assert [s["name"] for s in new["seats"]] == ["dule", "AI 2", "AI 3", "AI 4"]
    from app.db.models import PartieSeat

    with db.read() as s:
        assert [s.get(PartieSeat, (new["id"], i)).bot for i in (1, 2, 3)] == ["pocetnik", "majstor", "iskusan"]


def test_a_revans_is_for_the_players_of_a_finished_partie(app, people):
    db = app.state.club.db
    old = store_finished(db, PREFERANS, [Seat("ana"), Seat("boki"), Seat()])
    r = people["dule"].post(f"/api/parties/{old}/rematch")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_player"
    running = people["ana"].post("/api/parties", json={"game": LORA, "seats": [{"kind": "bot"}] * 3}).json()
    assert running["status"] == "running"
    r = people["ana"].post(f"/api/parties/{running['id']}/rematch")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    proposed = people["ana"].post("/api/parties", json={"game": PREFERANS, "seats": [
        {"kind": "member", "name": "boki"}, {"kind": "bot"}]}).json()
    r = people["boki"].post(f"/api/parties/{proposed['id']}/rematch")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    r = people["ana"].post("/api/parties/99999/rematch")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_partie"
    exhibition = store_finished(db, LORA, [Seat(), Seat(), Seat(), Seat()], exhibition=True)
    r = people["ana"].post(f"/api/parties/{exhibition}/rematch")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_player"


def _csrf(client: TestClient, app) -> str:
    return form_token(client.cookies.get(app.state.club.settings.cookie_name))


def test_the_pages_offer_a_revans_to_the_players_of_a_finished_partie(app, people):
    db = app.state.club.db
    old = store_finished(db, LORA, [Seat("ana"), Seat("boki"), Seat(), Seat()])
    ana, dule = people["ana"], people["dule"]
    page = ana.get(f"/archive/{old}?lang=en").text
    assert f'action="/lobby/{old}/rematch"' in page and "Rematch" in page and "Revanš" not in page
    assert f'action="/lobby/{old}/rematch"' not in dule.get(f"/archive/{old}").text
    table = ana.get(f"/table/{old}").text
    assert 'id="rematch-form"' in table and 'id="rematch-form" hidden' not in table  # over: shown
    running = ana.post("/api/parties", json={"game": LORA, "seats": [{"kind": "bot"}] * 3}).json()["id"]
    assert 'id="rematch-form" hidden' in ana.get(f"/table/{running}").text  # shown by table.js at the end
    assert f'action="/lobby/{running}/rematch"' not in ana.get(f"/archive/{running}").text
    # the form: a new proposal, then the lobby; without the form token nothing happens
    assert ana.post(f"/lobby/{old}/rematch", data={}).status_code == 403
    r = ana.post(f"/lobby/{old}/rematch", data={"csrf": _csrf(ana, app)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/lobby?proposed=")
    new = int(r.headers["location"].rsplit("=", 1)[1])
    summary = ana.get(f"/api/parties/{new}").json()
    assert [s["name"] for s in summary["seats"]] == ["ana", "boki", "AI 3", "AI 4"]
    assert people["boki"].get("/api/lobby").json()["invitations"][0]["id"] == new
    # a refused revanš is the lobby with the reason
    r = dule.post(f"/lobby/{old}/rematch?lang=en", data={"csrf": _csrf(dule, app)}, follow_redirects=False)
    assert r.status_code == 403 and "Only a player of this partie may ask for a rematch." in r.text
    # against computer players alone it starts at once: the table
    solo = store_finished(db, LORA, [Seat("dule"), Seat(), Seat(), Seat()])
    r = dule.post(f"/lobby/{solo}/rematch", data={"csrf": _csrf(dule, app)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/table/")
