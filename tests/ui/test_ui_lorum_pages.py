"""Lórum in the Club's pages: the propose form offers it, its table and archive
pages render, its rules page exists in Serbian and English."""

from __future__ import annotations

import re

from tests.support.pages import client, register  # noqa: F401  (the pages' test client, reused)


def test_the_form_offers_lorum_and_starts_its_table(client):  # noqa: F811
    register(client, "ana")
    lobby = client.get("/lobby")
    assert 'name="game" value="lorum"' in lobby.text and "Lórum" in lobby.text
    r = client.post("/lobby/propose", data={"game": "lorum", "seat1": "bot", "seat2": "bot", "seat3": "bot",
                                            "seat1_bot": "pocetnik", "seat2_bot": "pocetnik", "seat3_bot": "pocetnik",
                                            "timer": "60"}, follow_redirects=False)
    assert r.status_code == 303 and re.fullmatch(r"/table/\d+", r.headers["location"]), r.text
    pid = r.headers["location"].rsplit("/", 1)[1]
    summary = client.get(f"/api/parties/{pid}").json()
    assert summary["game"] == "lorum" and len(summary["seats"]) == 4 and summary["timer"] == 60
    page = client.get(r.headers["location"])
    assert page.status_code == 200 and 'data-game="lorum"' in page.text and "Lórum #" in page.text
    assert 'href="/rules/lorum"' in page.text
    assert "<script>" not in page.text and " onclick=" not in page.text and "style=" not in page.text
    assert "Lórum #" in client.get("/lobby/live").text
    # its score sheet and replay while it runs (the deal in play is not replayed)
    archive = client.get(f"/archive/{pid}")
    assert archive.status_code == 200 and "Lórum #" in archive.text and 'id="sheet-data"' in archive.text
    assert client.get(f"/ui/api/parties/{pid}/replay").json()["game"] == "lorum"


def test_lorum_rules_page_in_both_languages(client):  # noqa: F811
    sr = client.get("/rules/lorum?lang=sr-Latn")
    en = client.get("/rules/lorum?lang=en")
    assert sr.status_code == en.status_code == 200
    assert "Pravila Loruma" in sr.text and "banku" in sr.text and "Brzi voz" in sr.text
    assert "Rules of Lórum" in en.text and "bank" in en.text and "D receives 8" in en.text
    assert len(sr.text) > 6000 and len(en.text) > 6000
    # the rules of every game link to each other
    assert 'href="/rules/lorum"' in client.get("/rules/lora").text


def test_replay_of_a_lorum_record_shows_the_bank_and_kvart():
    from app.games.simulate import random_partie
    from app.web.pages.replay import replay_deal

    record = random_partie("lorum", 5, {}).to_record(["a", "b", "c", "d"])
    kvart = replay_deal(record, 3)
    assert kvart["game"] == "lorum" and kvart["steps"][0]["table"]["contract"] == 4
    assert kvart["steps"][-1]["table"]["chains"] and "bank" in kvart["steps"][-1]["table"]
    train = replay_deal(record, 4)["steps"][-1]["table"]
    assert train["train"] and train["contract_title"] == "Brzi voz"
    assert sorted(sum(replay_deal(record, 6)["steps"][0]["hands"], [])) == sorted(sum(record["deals"][6]["hands"], []))
