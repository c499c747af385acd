"""The lobby's headings, the register form's password rule and the replay's sheet after a
deal, over HTTP (no browser); the client fixture is tests/support/pages.py's."""

from __future__ import annotations

import re

import pytest

from app.members.passwords import MAX_LENGTH, MIN_LENGTH
from tests.support.pages import PASSWORD, client, register  # noqa: F401


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


RULE = {
    "sr-Latn": f"Lozinka ima od {MIN_LENGTH} do {MAX_LENGTH} znakova i nije neka od najčešćih lozinki.",
    "en": f"A password has {MIN_LENGTH} to {MAX_LENGTH} characters and is not one of the most common passwords.",
}
IN_ERROR = {
    "sr-Latn": f"lozinka ima od {MIN_LENGTH} do {MAX_LENGTH} znakova i nije neka od najčešćih",
    "en": f"a password has {MIN_LENGTH} to {MAX_LENGTH} characters and is not one of the most common ones",
}


@pytest.mark.parametrize("lang", ["sr-Latn", "en"])
def test_the_register_form_states_the_password_rule_before_and_in_the_error(client, lang):  # noqa: F811
    page = client.get(f"/register?lang={lang}").text
    assert f'<p class="password-rule" id="password-rule">{RULE[lang]}</p>' in page
    assert 'aria-describedby="password-rule"' in page
    assert "password-rule" not in client.get(f"/login?lang={lang}").text
    for n, bad in enumerate(["x" * (MIN_LENGTH - 1), "y" * (MAX_LENGTH + 1), "password", "Qwerty123"]):
        r = client.post(f"/register?lang={lang}", data={"name": f"novi{n}", "password": bad, "password2": bad})
        assert r.status_code == 422, (bad, r.status_code)
        error = re.search(r'<p class="error" role="alert" id="form-error">([^<]*)</p>', r.text).group(1)
        assert IN_ERROR[lang] in error, error
        assert RULE[lang] in r.text  # and the rule is still there, by the field
    # the rule's limits hold exactly
    for n, good in enumerate(["z" * MIN_LENGTH, "w" * MAX_LENGTH]):
        r = client.post(f"/register?lang={lang}", data={"name": f"dobar{n}", "password": good, "password2": good},
                        follow_redirects=False)
        assert r.status_code == 303, r.text
        client.post("/logout")


def test_the_replay_of_a_deal_carries_the_sheet_after_it():
    """The replay endpoint's result (and papir) is the partie's after the replayed deal."""
    from app.games.registry import descriptor
    from app.games.simulate import random_partie
    from app.web.pages.replay import replay_deal

    for game, settings in (("lora", {}), ("preferans", {"bule": 30, "refe": 1})):
        partie = random_partie(game, 11, settings)
        record = partie.to_record(["a", "b", "c", "d"][: descriptor(game).seats])
        n = len(record["deals"])
        engine = descriptor(game).engine.new(record["settings"])
        for k, deal in enumerate(record["deals"]):
            engine.start_deal(deal["hands"], deal.get("talon"))
            for seat, word in deal["actions"]:
                engine.apply(seat, word)
            if k in (0, 1, n - 1):
                out = replay_deal(record, k)
                assert out["result"] == engine.result() and out["papir"] == descriptor(game).papir(engine)
                assert out["finished"] is (k == n - 1)
        assert replay_deal(record, 0)["result"] != replay_deal(record, n - 1)["result"]
