"""Corrected rules texts, over HTTP (no browser)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.support.pages import client  # noqa: F401


def text_of(c: TestClient, path: str) -> str:
    r = c.get(path)
    assert r.status_code == 200, path
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", r.text))


def test_lorum_rules_say_french_cards_replace_the_hungarian_ones(client):  # noqa: F811
    """The Hungarian text announces the French replacement (hearts = herc ...): the Serbian
    page says the same as the English one, not the reverse."""
    sr = text_of(client, "/rules/lorum?lang=sr-Latn")
    en = text_of(client, "/rules/lorum?lang=en")
    assert "The Hungarian deck is replaced by the French one" in en
    assert "Mađarske karte zamenjuju francuske" not in sr
    assert "Umesto mađarskih karata igra se francuskim: srca = herc ♥" in sr


def test_preferans_rules_name_the_follower_who_never_falls(client):  # noqa: F811
    """Two followers without kontra each need 2 tricks: the one who never falls is the other
    follower after a kontra (and the called player), in both languages."""
    sr = text_of(client, "/rules/preferans?lang=sr-Latn")
    en = text_of(client, "/rules/preferans?lang=en")
    assert "a follower without kontra never falls" not in en
    assert "pratilac bez kontre nikad ne padaju" not in sr
    assert "The called player never falls, nor, after a kontra, the other follower" in en
    assert "Pozvani nikad ne pada, a ni drugi pratilac posle kontre" in sr
    # the quota just before it stays
    assert "each needs 2 tricks of his own or falls" in en
    assert "svaki treba 2 svoja štiha, inače pada" in sr


def test_preferans_rules_count_an_accepted_nudim_4_to_the_caller(client):  # noqa: F811
    sr = text_of(client, "/rules/preferans?lang=sr-Latn")
    en = text_of(client, "/rules/preferans?lang=en")
    assert "all four tricks are counted to the caller" in en
    assert "sva četiri štiha se računaju onome koji je zvao" in sr
