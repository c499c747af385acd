"""The Club's pages over HTTP (no browser): both languages, forms, errors, static budget."""

from __future__ import annotations

import re

import pytest

from app.games.registry import descriptors
from app.web.i18n import catalog_ids, gettext_for
from tests.support.pages import PASSWORD, client, register  # noqa: F401 (the pages' client fixture)
from tests.support.paths import ROOT


def test_front_page_and_login_render_in_both_languages(client):  # noqa: F811
    r = client.get("/")
    assert r.status_code == 200 and "Klub" in r.text
    sr = client.get("/login")
    assert 'lang="sr-Latn"' in sr.text and "Prijava" in sr.text
    en = client.get("/login?lang=en")
    assert 'lang="en"' in en.text and "Log in" in en.text
    # the choice is remembered
    assert client.cookies.get("klub_lang") == "en"
    assert 'lang="en"' in client.get("/register").text
    r = client.get("/lang/sr-Latn?next=/login", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login"
    assert "Prijava" in client.get("/login").text


def test_register_login_logout_and_errors(client):  # noqa: F811
    register(client, "ana")
    lobby = client.get("/lobby")
    assert lobby.status_code == 200 and "ana" in lobby.text
    client.post("/logout", follow_redirects=False)
    assert client.get("/lobby", follow_redirects=False).status_code == 303
    bad = client.post("/login", data={"name": "ana", "password": "wrong-password"})
    assert bad.status_code == 401 and 'role="alert"' in bad.text and "Pogrešno ime ili lozinka" in bad.text
    taken = client.post("/register", data={"name": "ana", "password": PASSWORD, "password2": PASSWORD})
    assert taken.status_code == 409 and "To ime je zauzeto" in taken.text
    short = client.post("/register?lang=en", data={"name": "x", "password": PASSWORD, "password2": PASSWORD})
    assert short.status_code == 422 and "A name has 3 to 32" in short.text
    differ = client.post("/register?lang=sr-Latn", data={"name": "boki", "password": PASSWORD, "password2": "other-pass-2"})
    assert differ.status_code == 422 and "Lozinke se razlikuju" in differ.text
    ok = client.post("/login", data={"name": "ana", "password": PASSWORD, "next": "/archive"}, follow_redirects=False)
    assert ok.status_code == 303 and ok.headers["location"] == "/archive"
    # never redirect to another site
    ok = client.post("/login", data={"name": "ana", "password": PASSWORD, "next": "//evil.example"}, follow_redirects=False)
    assert ok.headers["location"] == "/lobby"


def test_propose_lora_against_computers_starts_the_table(client):  # noqa: F811
    register(client, "ana")
    r = client.post("/lobby/propose", data={"game": "lora", "seat1": "bot", "seat2": "bot", "seat3": "bot",
                                            "seat1_bot": "pocetnik", "seat2_bot": "random", "seat3_bot": "pocetnik", "timer": ""}, follow_redirects=False)
    assert r.status_code == 303 and re.fullmatch(r"/table/\d+", r.headers["location"])
    page = client.get(r.headers["location"])
    assert page.status_code == 200
    assert 'data-game="lora"' in page.text and 'id="klub-strings"' in page.text
    assert "<script>" not in page.text and " onclick=" not in page.text  # CSP: no inline scripts
    lobby = client.get("/lobby/live")
    assert "Lora #" in lobby.text


def test_invitation_accept_decline_and_errors_in_the_lobby(client):  # noqa: F811
    register(client, "boki")
    register(client, "ceca")
    register(client, "ana")
    bad = client.post("/lobby/propose", data={"game": "preferans", "preferans.bule": "60", "preferans.refe": "2",
                                              "seat1": "member", "seat1_name": "nobody", "seat2": "bot"})
    assert bad.status_code == 422 and "Nema člana s tim imenom" in bad.text
    r = client.post("/lobby/propose", data={"game": "preferans", "preferans.bule": "30", "preferans.refe": "1", "timer": "60",
                                            "seat1": "member", "seat1_name": "boki", "seat2": "member",
                                            "seat2_name": "ceca"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/lobby")
    client.post("/logout")
    client.post("/login", data={"name": "boki", "password": PASSWORD})
    live = client.get("/lobby/live").text
    assert "Čeka moj odgovor" in live and "bule 30" in live and "60 s" in live
    pid = re.search(r'action="/lobby/(\d+)/accept"', live).group(1)
    assert client.post(f"/lobby/{pid}/accept", follow_redirects=False).status_code == 303
    client.post("/logout")
    client.post("/login", data={"name": "ceca", "password": PASSWORD})
    r = client.post(f"/lobby/{pid}/accept", follow_redirects=False)
    assert r.headers["location"] == f"/table/{pid}"
    again = client.post(f"/lobby/{pid}/decline")
    assert again.status_code == 409 and "više nije otvoren" in again.text


def test_archive_rules_and_missing_pages(client):  # noqa: F811
    register(client, "ana")
    assert client.get("/archive").status_code == 200
    assert client.get("/archive?status=finished&who=all&lang=en").status_code == 200
    assert client.get("/archive/999").status_code == 404
    assert client.get("/table/999").status_code == 404
    for game in ("lora", "preferans"):
        sr = client.get(f"/rules/{game}?lang=sr-Latn")
        en = client.get(f"/rules/{game}?lang=en")
        assert sr.status_code == en.status_code == 200
        assert len(sr.text) > 6000 and len(en.text) > 6000
    assert "Dalje" in client.get("/rules/lora?lang=sr-Latn").text
    assert "Kontra" in client.get("/rules/preferans?lang=en").text
    assert client.get("/rules/poker").status_code == 404


def test_every_message_id_has_a_serbian_translation():
    from babel.messages.extract import extract_from_dir

    ids = catalog_ids("sr-Latn")
    missing = set()
    method_map = [("templates/**.html", "jinja2"), ("app/web/**.py", "python")]
    options = {"templates/**.html": {"extensions": ""}}
    for _f, _l, msg, _c, _ctx in extract_from_dir(ROOT, method_map, options_map=options, keywords={"_": None, "N_": None}):
        if isinstance(msg, str) and not ids.get(msg):
            missing.add(msg)
    assert not missing, sorted(missing)
    _ = gettext_for("sr-Latn")
    assert _("Lobby") == "Predvorje"


@pytest.mark.parametrize("game", [g.code for g in descriptors()])
def test_static_budget_of_a_table_page(client, game):  # noqa: F811
    """All JavaScript and CSS of a table page together at most 150 KB; the page loads its
    own game's script only."""
    register(client, "ana")
    descriptor = next(g for g in descriptors() if g.code == game)
    seats = {f"seat{i}": "bot" for i in range(1, descriptor.seats)}
    r = client.post("/lobby/propose", data={"game": game, **seats})
    assert r.status_code == 200 and "/table/" in str(r.url)
    urls = re.findall(r'(?:src|href)="(/static/[^"]+\.(?:js|css)\?v=[0-9a-f]+)"', r.text)
    assets = [u.split("?", 1)[0] for u in urls]
    scripts = {g.script for g in descriptors()}
    assert f"/static/js/{descriptor.script}" in assets
    assert not [a for a in assets if a.rsplit("/", 1)[-1] in scripts - {descriptor.script}]
    assert all(client.get(a).status_code == 200 for a in assets)
    total = sum(len(client.get(a).content) for a in assets)
    assert total <= 150 * 1024, total


def test_exhibition_is_watched_and_archived(client):  # noqa: F811
    register(client, "ana")
    r = client.post("/lobby/propose", data={"game": "lora", "exhibition": "on", "seat1": "member",
                                            "seat1_name": "nobody", "seat1_bot": "pocetnik"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/table/")
    pid = r.headers["location"].rsplit("/", 1)[1]
    summary = client.get(f"/api/parties/{pid}").json()
    assert summary["exhibition"] and summary["my_seat"] is None
    assert all(s["kind"] == "bot" for s in summary["seats"])
    page = client.get(f"/archive/{pid}")
    assert page.status_code == 200 and 'id="sheet-data"' in page.text and f"/api/parties/{pid}/record" in page.text
    replay = client.get(f"/ui/api/parties/{pid}/replay").json()
    assert replay["game"] == "lora" and replay["players"] == [s["name"] for s in summary["seats"]]


def test_replay_steps_of_a_record():
    from app.games.simulate import random_partie
    from app.web.pages.replay import replay_deal

    partie = random_partie("preferans", 7, {"bule": 30, "refe": 1})
    record = partie.to_record(["a", "b", "c"])
    out = replay_deal(record, 0)
    assert out["deals"] == len(record["deals"]) and out["deal"] == 0
    steps = out["steps"]
    assert len(steps) == len(record["deals"][0]["actions"]) + 1
    assert sorted(sum(steps[0]["hands"], [])) == sorted(sum(record["deals"][0]["hands"], []))
    assert steps[-1]["table"]["phase"] == "kraj"
    lora = random_partie("lora", 3, {}).to_record(["a", "b", "c", "d"])
    last = replay_deal(lora, None)
    assert last["deal"] == 27 and last["steps"][-1]["table"]["points"] is not None


def test_scripts_only_use_translated_texts_and_no_inline_code():
    """Every literal K.T("...") of the scripts is in the page catalog (so Serbian shows),
    and no template has inline script or style (the Content-Security-Policy forbids them)."""
    from app.web.strings import JS_STRINGS

    ids = set()
    for js in (ROOT / "static" / "js").rglob("*.js"):  # the games' sheets under games/ too
        ids |= set(re.findall(r'K\.T\("([^"]+)"', js.read_text()))
    ids = {i for i in ids if i != "word:"}
    own = {key for g in descriptors() for key in g.texts}  # the games' own texts (their descriptors')
    assert ids <= set(JS_STRINGS) | own, sorted(ids - set(JS_STRINGS) - own)
    catalog = catalog_ids("sr-Latn")
    assert all(catalog.get(s) for s in JS_STRINGS), [s for s in JS_STRINGS if not catalog.get(s)]
    assert all(t.sr and t.en for g in descriptors() for t in g.texts.values())
    for tpl in (ROOT / "templates").rglob("*.html"):
        text = tpl.read_text()
        assert not re.search(r"<script(?![^>]*\b(src|type=\"application/json\"))", text), tpl
        assert not re.search(r"\son[a-z]+=", text), tpl
        assert "style=" not in text, tpl


def test_table_errors_reach_the_page_in_its_language():
    """A table socket's error frame (code + English message) is shown in the member's language."""

    from app.web.strings import js_strings

    sr, en = js_strings("sr-Latn"), js_strings("en")
    assert sr["error:not_your_turn"] == "Niste na potezu."
    assert en["error:not_your_turn"] == "It is not your turn."
    assert sr["error:stale_version"] != en["error:stale_version"]
    table_js = (ROOT / "static" / "js" / "table.js").read_text()
    assert "`error:${f.code}`" in table_js


def test_the_proposal_form_times_decisions_when_other_people_play(client):  # noqa: F811
    """The form's default timer is 60 s when another member (or an open
    seat) plays, off against computer players alone; "off" stays a choice of the form."""
    register(client, "boki")
    client.post("/logout")
    register(client, "ana")
    lobby = client.get("/lobby")
    assert re.search(r'<option value="auto" selected>60 s sa članovima', lobby.text), "the default is 60 s with members"

    def propose(**form):
        r = client.post("/lobby/propose", data={"game": "lora", **form}, follow_redirects=False)
        assert r.status_code == 303, r.text
        pid = re.search(r"(?:proposed=|/table/)(\d+)", r.headers["location"]).group(1)
        return client.get(f"/api/parties/{pid}").json()["timer"]

    with_boki = {"seat1": "member", "seat1_name": "boki", "seat2": "bot", "seat3": "bot"}
    assert propose(timer="auto", **with_boki) == 60
    assert propose(timer="auto", seat1="open", seat2="bot", seat3="bot") == 60
    assert propose(timer="auto", seat1="bot", seat2="bot", seat3="bot") is None
    assert propose(timer="", **with_boki) is None  # switched off
    assert propose(timer="120", **with_boki) == 120
