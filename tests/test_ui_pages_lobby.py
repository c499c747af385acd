"""The lobby's headings over HTTP (no browser); the fixtures are tests/test_ui_pages.py's."""

from __future__ import annotations

import re

from tests.test_ui_pages import PASSWORD, client, register  # noqa: F401


def login(c, name: str) -> None:
    c.post("/logout")
    r = c.post("/login", data={"name": name, "password": PASSWORD}, follow_redirects=False)
    assert r.status_code == 303, r.text


def headings(c, pid: int) -> list[str]:
    """Under which headings of the lobby's live part the partie is listed for this member."""
    live = c.get("/lobby/live").text
    return re.findall(rf'<article class="proposal (\w+)" data-partie="{pid}">', live)


def withdraw_forms(c, pid: int) -> int:
    return c.get("/lobby/live").text.count(f'action="/lobby/{pid}/withdraw"')


def test_each_member_sees_a_proposal_under_his_own_heading(client):  # noqa: F811
    for name in ("boki", "ceca", "dule", "eva", "ana"):
        register(client, name)
    r = client.post("/lobby/propose", data={"game": "lora", "seat1": "member", "seat1_name": "boki", "seat2": "member",
                                            "seat2_name": "ceca", "seat3": "open"}, follow_redirects=False)
    assert r.status_code == 303
    pid = int(client.get("/api/lobby").json()["mine"][0]["id"])
    assert headings(client, pid) == ["mine"] and withdraw_forms(client, pid) == 1

    login(client, "boki")
    assert headings(client, pid) == ["invitation"]
    assert client.post(f"/lobby/{pid}/accept", follow_redirects=False).status_code == 303
    # an accepted invitation: the proposer's "my proposals" only for the proposer
    live = client.get("/lobby/live").text
    assert headings(client, pid) == ["accepted"] and withdraw_forms(client, pid) == 0
    assert "Moji predlozi" not in live and "Prihvaćeno: čekaju se ostali igrači" in live
    lobby = client.get("/api/lobby").json()
    assert [p["id"] for p in lobby["accepted"]] == [pid] and lobby["mine"] == [] and lobby["invitations"] == []
    assert "Accepted: waiting for the other players" in client.get("/lobby/live?lang=en").text

    login(client, "ceca")
    assert headings(client, pid) == ["invitation"]
    client.post(f"/lobby/{pid}/decline")
    assert headings(client, pid) == []  # declined: not hers in any way

    login(client, "eva")
    assert headings(client, pid) == ["open"]
    login(client, "dule")
    assert headings(client, pid) == ["open"]
    assert client.post(f"/lobby/{pid}/join", follow_redirects=False).status_code == 303
    assert headings(client, pid) == ["accepted"] and withdraw_forms(client, pid) == 0
    login(client, "eva")
    assert headings(client, pid) == []  # no open seat left

    login(client, "ana")
    assert headings(client, pid) == ["mine"] and withdraw_forms(client, pid) == 1
    lobby = client.get("/api/lobby").json()
    assert [p["id"] for p in lobby["mine"]] == [pid] and lobby["accepted"] == []
