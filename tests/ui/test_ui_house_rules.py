"""House rules in the Club's pages: the proposal form offers the Club's Lora, the Serbian
table options or Croatian Lora, each explained in a line; the lists, the table and the
archive name them; a combination the rules refuse is a clear error in the page."""

from __future__ import annotations

import json
import re

from app.games.registry import descriptor
from tests.support.pages import client, register  # noqa: F401 (the pages' client fixture)
from tests.support.paths import ROOT

BOTS = {f"seat{i}": "bot" for i in range(1, 4)} | {f"seat{i}_bot": "pocetnik" for i in range(1, 4)}


def _propose(c, **fields):
    return c.post("/lobby/propose", data={"game": "lora", **BOTS, **fields}, follow_redirects=False)


def _partie(c, r) -> dict:
    assert r.status_code == 303 and r.headers["location"].startswith("/table/"), r.text
    return c.get(f"/api/parties/{r.headers['location'].rsplit('/', 1)[1]}").json()


def test_the_form_explains_every_choice_and_option(client):  # noqa: F811
    register(client, "ana")
    page = client.get("/lobby").text
    for f in descriptor("lora").settings:
        assert f'data-setting="lora.{f.key}"' in page
        if f.hint:
            assert f.hint("sr-Latn") in page
        for choice in f.options():
            assert choice.label("sr-Latn") in page
            if choice.hint:
                assert choice.hint("sr-Latn") in page
    assert 'data-when="lora.variant" data-when-value="klub"' in page  # options belong to house rules
    english = client.get("/lobby?lang=en").text
    assert "Croatian Lora" in english and "Contract choice" in english


def test_the_clubs_lora_stays_the_default(client):  # noqa: F811
    register(client, "ana")
    # the options of house rules are not read without house rules chosen
    partie = _partie(client, _propose(client, **{"lora.izbor": "on"}))
    assert partie["settings"] == {}


def test_house_rules_and_croatian_lora_are_proposed_and_named(client):  # noqa: F811
    register(client, "ana")
    house = _partie(client, _propose(client, **{"lora.variant": "klub", "lora.izbor": "on", "lora.dodatni": "on",
                                                 "lora.bez.dame": "on", "lora.parovi": "on"}))
    assert house["settings"] == {"variant": "klub", "izbor": True, "dodatni": True, "parovi": True, "bez": ["dame"]}
    croatian = _partie(client, _propose(client, **{"lora.variant": "hrvatska", "lora.izbor": "on"}))
    assert croatian["settings"] == {"variant": "hrvatska"}
    table = client.get(f"/table/{house['id']}").text
    assert "Kućna pravila, Izbor ugovora, Dodatna deljenja, Mala lora, bez: Dame, Parovi u žandaru" in table
    assert "Hrvatska lora" in client.get(f"/table/{croatian['id']}").text
    assert "Hrvatska lora" in client.get("/lobby/live").text
    assert "Hrvatska lora" in client.get(f"/archive/{croatian['id']}").text
    assert "Hrvatska lora" in client.get("/archive?who=all").text
    assert "Croatian Lora" in client.get(f"/archive/{croatian['id']}?lang=en").text


def test_options_the_rules_refuse_are_a_clear_error(client):  # noqa: F811
    register(client, "ana")
    r = _propose(client, **{"lora.variant": "klub", "lora.dodatni": "on"})
    assert r.status_code == 422 and "dodatni (four extra deals) needs izbor" in r.text
    every = {f"lora.bez.{code}": "on" for code in ("vise", "manje", "dame", "herc", "zandar", "kralj", "lora")}
    r = _propose(client, **{"lora.variant": "klub", **every})
    assert r.status_code == 422 and "bez may not leave out all seven" in r.text
    r = _propose(client, **{"lora.variant": "libijska", "lora.igraca": "5"})
    assert r.status_code == 422 and "igraca (players) is 3 or 4" in r.text
    r = _propose(client, **{"lora.variant": "klub", "lora.opklade": "on"})  # a Libyan option, not shown with klub
    assert r.status_code == 303
    assert _partie(client, r)["settings"] == {"variant": "klub"}
    assert [p for p in client.get("/api/lobby").json()["mine"] if p["settings"].get("variant") == "libijska"] == []


def test_libyan_lora_with_three_players_takes_three_seats(client):  # noqa: F811
    register(client, "ana")
    page = client.get("/lobby").text
    assert "Libijska lora" in page and 'data-seats-field' in page and "Opklade" in page
    partie = _partie(client, _propose(client, **{"lora.variant": "libijska", "lora.igraca": "3", "lora.opklade": "on"}))
    assert partie["settings"] == {"variant": "libijska", "igraca": 3, "opklade": True}
    assert len(partie["seats"]) == 3  # the form's third computer seat is not taken
    table = client.get(f"/table/{partie['id']}").text
    assert 'data-seats="3"' in table and "seats-3" in table
    view = client.get(f"/api/parties/{partie['id']}/view").json()["view"]
    assert len(view["deal"]["hand"]) == 10 and view["deal"]["kitty"] is None and view["deal"]["kitty_size"] == 2
    four = _partie(client, _propose(client, **{"lora.variant": "libijska", "lora.igraca": "4"}))
    assert four["settings"] == {"variant": "libijska"} and len(four["seats"]) == 4


def test_a_libyan_bet_is_answered_with_moze_as_it_is_said(client):  # noqa: F811
    """The answers to a Libyan bet are the record's words (``moze`` without its diacritic);
    their buttons read them through the page's catalog, as every word of the table:
    "kontra", "rekontra", "može", in both languages (issue 36)."""
    register(client, "ana")
    partie = _partie(client, _propose(client, **{"lora.variant": "libijska", "lora.opklade": "on"}))
    for lang in ("sr-Latn", "en"):
        page = client.get(f"/table/{partie['id']}?lang={lang}").text
        strings = json.loads(re.search(r'id="klub-strings">(.*?)</script>', page, re.S).group(1))
        # K.T("word:" + w) (static/js/common.js): the catalog's text without its "word:" prefix
        shown = [strings.get(f"word:{w}", f"word:{w}").removeprefix("word:") for w in ("kontra", "rekontra", "moze")]
        assert shown == ["kontra", "rekontra", "može"], lang
    script = (ROOT / "static" / "js" / "lora.js").read_text()
    answers = [line for line in script.splitlines() if "bet-answers" in line]
    assert answers and all('button(w, K.T("word:" + w))' in line for line in answers), answers


def test_the_archive_filters_the_clubs_rules_from_house_rules(client):  # noqa: F811
    register(client, "ana")
    club = _partie(client, _propose(client))
    house = _partie(client, _propose(client, **{"lora.variant": "klub", "lora.kralj_sesti": "on"}))
    croatian = _partie(client, _propose(client, **{"lora.variant": "hrvatska"}))
    preferans = client.post("/lobby/propose", data={"game": "preferans", "seat1": "bot", "seat1_bot": "pocetnik",
                                                    "seat2": "bot", "seat2_bot": "pocetnik"}, follow_redirects=False)
    assert preferans.status_code == 303, preferans.text
    preferans_id = int(preferans.headers["location"].rsplit("/", 1)[1])

    def listed(query: str) -> set[int]:
        return {p["id"] for p in client.get(f"/api/archive?{query}").json()["parties"]}

    assert listed("rules=house") == {house["id"], croatian["id"]}
    # a game without house rules is always played by the Club's
    assert listed("rules=club") == {club["id"], preferans_id}
    assert listed("rules=house&game=preferans") == set()
    assert listed("rules=club&game=lora") == {club["id"]}
    assert client.get("/api/archive?rules=tablic").status_code == 422
    page = client.get("/archive?who=all&game=lora&rules=house").text
    assert f'data-partie="{croatian["id"]}"' in page and f'data-partie="{club["id"]}"' not in page
    assert 'data-rules="house"' in page and "kućna pravila" in page
    # the other filters keep the rules chosen
    assert 'href="/archive?who=me&status=all&game=lora&rules=house&kind="' in page
    assert "the Club&#39;s rules" in client.get("/archive?who=all&lang=en").text
    # Preferans has no house rules: no rules filter beside it
    assert 'data-rules="house"' not in client.get("/archive?who=all&game=preferans").text
