"""Issue 39, items 3-5 on the pages: a bot's profile challenges it (the bot API's challenge)
and shows its answer with the reason of a decline; the pages word the bot API's new error
codes in both languages."""

from __future__ import annotations

import re

import pytest

from app.web.i18n import gettext_for
from app.web.strings import ERROR_TEXTS, error_text
from tests.support.api import register
from tests.support.bots import bearer, new_bot, stream_lines as lines


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"bot_keepalive_seconds": 0.3})


def form_post(c, page: str, action: str, data: dict):
    """Post a page's form as a browser does: with the token the page carries."""
    token = re.search(r'name="csrf" value="([^"]+)"', c.get(page).text).group(1)
    return c.post(action, data={**data, "csrf": token}, follow_redirects=False)


def test_a_bots_profile_challenges_it_and_shows_its_answer(app, client):
    ana, bob = register(app, "ana"), register(app, "bob")
    auth = bearer(new_bot(ana, "robo"))
    page = bob.get("/members/robo").text
    assert 'id="challenge-form"' in page and "Bot člana ana." in page and 'data-online="0"' in page
    # offline: refused in the page, with the page's wording, nothing proposed
    r = form_post(bob, "/members/robo", "/members/robo/challenge", {"game": "lora"})
    assert r.status_code == 409 and error_text(gettext_for("sr-Latn"), "bot_offline") in r.text
    assert bob.get("/api/lobby").json()["mine"] == []
    # a member's profile has no challenge; its owner's neither (fair play)
    assert 'id="challenge-form"' not in bob.get("/members/ana").text
    assert 'id="challenge-form"' not in ana.get("/members/robo").text
    r = form_post(bob, "/members/robo", "/members/ana/challenge", {"game": "lora"})
    assert r.status_code == 404 and "Ne postoji bot sa tim imenom." in r.text
    with client.stream("GET", "/api/bot/stream", headers=auth) as events:
        frames = lines(events)
        assert next(frames)["type"] == "hello"
        assert 'data-online="1"' in bob.get("/members/robo").text
        r = form_post(bob, "/members/robo", "/members/robo/challenge", {"game": "nema-te-igre"})
        assert r.status_code == 422 and bob.get("/api/lobby").json()["mine"] == []
        r = form_post(bob, "/members/robo", "/members/robo/challenge", {"game": "lora"})
        assert r.status_code == 303, r.text
        pid = int(re.search(r"challenge=(\d+)", r.headers["location"]).group(1))
        invitation = next(f for f in frames if f["type"] != "keepalive")
        assert invitation["type"] == "invitation" and invitation["partie"]["id"] == pid
    page = bob.get(f"/members/robo?challenge={pid}").text
    assert "robo još nije odgovorio na vaš izazov." in page
    assert client.post(f"/api/bot/parties/{pid}/decline", headers=auth, json={"reason": "danas samo preferans"}).status_code == 200
    page = bob.get(f"/members/robo?challenge={pid}").text
    assert "robo je odbio vaš izazov: „danas samo preferans“" in page
    assert '<q class="decline-reason">danas samo preferans</q>' in bob.get("/lobby/live").text  # the lobby too
    # someone else's challenge is not shown to him
    assert "izazov:" not in register(app, "cica").get(f"/members/robo?challenge={pid}").text


def test_the_bot_apis_error_codes_are_worded_in_both_languages():
    sr, en = gettext_for("sr-Latn"), gettext_for("en")
    for code in ("bot_offline", "chat_rate_limited", "invalid_reason", "no_such_bot"):
        assert code in ERROR_TEXTS
        english, serbian = error_text(en, code), error_text(sr, code)
        assert english and serbian and english != serbian, code
        assert "{" not in english + serbian, code
    assert "200" in error_text(en, "invalid_reason")  # the reason's most characters (app/parties/declines.py)
