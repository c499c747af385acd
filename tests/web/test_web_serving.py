"""Serving and words (issue 23, items 10 and 12): versioned static URLs with long-lived
cache headers and gzip, the Club's 404 page for browsers (JSON for the API), the rules in
the asked language, the computer players' names, Serbian plurals and dates."""

from __future__ import annotations

import gzip
import re
from datetime import date, datetime, timezone

from app.parties.lookup import BOT_NAMES
from app.web.i18n import date_text, ngettext_for
from app.web.strings import js_strings
from tests.support.pages import client, register  # noqa: F401

HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def assets_of(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', html)


def test_every_page_names_its_static_files_by_versioned_urls(client):  # noqa: F811
    for path in ("/", "/login"):
        assets = assets_of(client.get(path).text)
        assert assets and all(re.fullmatch(r"/static/[\w./-]+\?v=[0-9a-f]{10}", a) for a in assets), assets
    register(client, "ana")
    assets = assets_of(client.get("/lobby").text)
    assert any(a.startswith("/static/js/lobby.js?v=") for a in assets), assets
    assert all("?v=" in a for a in assets), assets


def test_versioned_static_files_are_cached_for_a_year_and_gzipped(client):  # noqa: F811
    css = next(a for a in assets_of(client.get("/").text) if a.startswith("/static/css/klub.css"))
    r = client.get(css, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert r.headers["content-encoding"] == "gzip" and "accept-encoding" in r.headers["vary"].lower()
    raw = client.get(css, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers and raw.content == r.content  # httpx decoded the gzip
    assert len(gzip.compress(raw.content)) < len(raw.content) / 2
    # the security headers stay on static files
    assert r.headers["x-content-type-options"] == "nosniff"
    # unversioned: the browser asks again (and gets a 304 while nothing changed)
    plain = client.get("/static/css/klub.css")
    assert plain.headers["cache-control"] == "no-cache"
    again = client.get("/static/css/klub.css", headers={"If-None-Match": plain.headers["etag"]})
    assert again.status_code == 304
    # the version is the file's content: another file, another version
    versions = {a.split("?v=")[1] for a in assets_of(client.get("/").text)}
    assert len(versions) == len(assets_of(client.get("/").text))


def test_unknown_pages_are_the_clubs_404_page_in_the_members_language(client):  # noqa: F811
    r = client.get("/no/such/page", headers=HTML)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert 'lang="sr-Latn"' in r.text and "Ta stranica ne postoji." in r.text and "Nešto nije u redu" in r.text
    rules = client.get("/rules/poker", headers=HTML)
    assert rules.status_code == 404 and "Ta stranica ne postoji." in rules.text
    en = client.get("/no/such/page?lang=en", headers=HTML)
    assert en.status_code == 404 and 'lang="en"' in en.text and "There is no such page." in en.text
    assert "There is no such page." in client.get("/nor/this", headers=HTML).text  # the language is remembered
    # the API and scripts keep JSON
    api = client.get("/api/no/such", headers=HTML)
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"
    plain = client.get("/no/such/page")  # no Accept: text/html (a program)
    assert plain.status_code == 404 and plain.json()["error"]["code"] == "not_found"
    assert client.get("/static/nothing.js", headers=HTML).headers["content-type"].startswith("application/json")
    # a member sees his own header on it
    register(client, "ana")
    page = client.get("/nothing-here", headers=HTML)
    assert page.status_code == 404 and 'data-me="ana"' in page.text


def test_rules_keep_the_asked_language(client):  # noqa: F811
    r = client.get("/rules?lang=en", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].endswith("?lang=en")
    page = client.get("/rules?lang=en")
    assert page.status_code == 200 and 'lang="en"' in page.text
    # the cookie is set: the rules' own links (no ?lang) stay in English
    assert client.cookies.get("klub_lang") == "en"
    assert 'lang="en"' in client.get("/rules/preferans").text


def test_the_front_page_names_every_game(client):  # noqa: F811
    sr = client.get("/").text
    assert "Lora, Lórum i Preferans" in sr
    assert "Lora, Lórum and Preferans" in client.get("/?lang=en").text


def test_serbian_plurals_and_dates():
    n_ = ngettext_for("sr-Latn")
    forms = {n: n_("declared {n} hand: made {made}, fell {fell}", "declared {n} hands: made {made}, fell {fell}", n,
                   made=0, fell=0).split(":")[0] for n in (1, 2, 4, 5, 11, 12, 21, 22, 25, 101)}
    assert forms == {1: "zvao 1 igru", 2: "zvao 2 igre", 4: "zvao 4 igre", 5: "zvao 5 igara", 11: "zvao 11 igara",
                     12: "zvao 12 igara", 21: "zvao 21 igru", 22: "zvao 22 igre", 25: "zvao 25 igara",
                     101: "zvao 101 igru"}
    en = ngettext_for("en")
    assert en("declared {n} hand: made {made}, fell {fell}", "declared {n} hands: made {made}, fell {fell}", 1,
              made=1, fell=0) == "declared 1 hand: made 1, fell 0"
    assert date_text(date(2026, 12, 2), "sr-Latn") == "2. 12. 2026."
    assert date_text(datetime(2026, 3, 9, 23, 0, tzinfo=timezone.utc), "sr-Latn") == "9. 3. 2026."
    assert date_text("2026-12-02T10:00:00+00:00", "en") == "Dec 2, 2026"


def test_moze_is_shown_with_its_diacritic_in_every_language():
    for lang in ("sr-Latn", "en"):
        assert js_strings(lang)["word:moze"].removeprefix("word:") == "može"


def test_computer_players_get_distinct_serbian_names(client):  # noqa: F811
    for names in BOT_NAMES.values():
        assert len(set(names)) == 4
    assert len({n for names in BOT_NAMES.values() for n in names}) == 16  # a name tells the level
    register(client, "ana")
    seats = {"seat1": "bot", "seat1_bot": "pocetnik", "seat2": "bot", "seat2_bot": "pocetnik",
             "seat3": "bot", "seat3_bot": "majstor"}
    r = client.post("/lobby/propose", data={"game": "lora", **seats}, follow_redirects=False)
    pid = int(r.headers["location"].rsplit("/", 1)[1])
    summary = client.get(f"/api/parties/{pid}").json()
    assert [s["name"] for s in summary["seats"]] == ["ana", "AI 2", "AI 3", "AI 4"]  # the API and records keep them
    shown = [s["bot_name"] for s in summary["seats"]]
    assert shown[0] is None and shown[1] in BOT_NAMES["pocetnik"] and shown[2] in BOT_NAMES["pocetnik"]
    assert shown[3] in BOT_NAMES["majstor"] and len(set(shown)) == 4
    lobby = client.get("/lobby").text
    # marked as computer players (issue 39): a mark named so before the short name
    assert f'aria-label="računar"></span>{shown[1]}</span>' in lobby and "AI 2" not in lobby
    assert f'aria-label="computer"></span>{shown[3]}</span>' in client.get("/lobby?lang=en").text
    assert client.get(f"/api/parties/{pid}/record").json()["players"][1] == "AI 2"


def test_blocking_work_runs_on_as_many_threads_as_set(settings):
    """KLUB_WORKER_THREADS caps the threads of the requests' and sockets' blocking work
    (anyio's default of 40 made them fight for the GIL at a round's start)."""
    import threading
    import time

    from fastapi.concurrency import run_in_threadpool
    from fastapi.testclient import TestClient

    from app.web.main import create_app

    app = create_app(settings.model_copy(update={"worker_threads": 2}))
    lock, running, most = threading.Lock(), [0], [0]

    def work() -> None:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1

    async def six_at_once() -> None:
        import asyncio

        await asyncio.gather(*(run_in_threadpool(work) for _ in range(6)))

    with TestClient(app) as c:
        c.portal.call(six_at_once)
    assert most[0] == 2
