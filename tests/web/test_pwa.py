"""The Club as an installable app over HTTP (issue 26; tests/ui/test_ui_browser_app.py runs it in
Chromium): the manifest in both languages, its icons, the service worker's headers and
configuration, the offline page, the logout that clears the cache, the iPhone's guide."""

from __future__ import annotations

import json
import re
import struct

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.web import pwa
from tests.support.security import client_for
from tests.support.security import check_headers, csp_directives
from tests.support.paths import ROOT



@pytest.fixture
def app(tmp_path):
    from tests.support.migrated import migrated_sqlite
    from app.web.main import create_app

    url = migrated_sqlite(tmp_path / "klub.db")
    return create_app(Settings(database_url=url, argon2_time_cost=1, argon2_memory_kib=1024, _env_file=None))


@pytest.fixture
def client(app):
    with TestClient(app, headers={"Origin": app.state.club.settings.site_origin}) as c:
        yield c


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def worker_config(script: str) -> dict:
    """The ``const KLUB = {...};`` line the server puts before the worker's code."""
    first, _, _ = script.partition("\n")
    assert first.startswith("const KLUB = ") and first.endswith(";")
    return json.loads(first.removeprefix("const KLUB = ").removesuffix(";"))


def test_the_manifest_in_each_language(client):
    sr = client.get("/manifest.webmanifest?lang=sr-Latn")
    en = client.get("/manifest.webmanifest?lang=en")
    for r in (sr, en):
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/manifest+json")
        assert r.headers["cache-control"] == "no-cache"
        check_headers(r)
    sr, en = sr.json(), en.json()
    assert (sr["lang"], en["lang"]) == ("sr-Latn", "en")
    assert (sr["name"], en["name"]) == ("Klub, kartaški klub", "Klub, the card club")
    assert sr["short_name"] == en["short_name"] == "Klub"
    assert "Onlajn klub" in sr["description"] and "online club" in en["description"]
    for m in (sr, en):
        assert m["display"] == "standalone" and m["start_url"] == "/lobby" and m["scope"] == "/"
        assert m["id"] == "/lobby"  # one app in both languages
        assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"]) and re.fullmatch(r"#[0-9a-f]{6}", m["background_color"])
    # Without ?lang= the language cookie decides, as for the pages; Serbian by default.
    assert client.get("/manifest.webmanifest").json()["lang"] == "sr-Latn"
    client.cookies.set("klub_lang", "en")
    assert client.get("/manifest.webmanifest").json()["name"] == "Klub, the card club"


def test_the_manifests_icons_are_pngs_of_their_sizes(client):
    icons = client.get("/manifest.webmanifest").json()["icons"]
    assert {(i["sizes"], i["purpose"]) for i in icons} == {
        ("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable"),
    }
    for icon in icons:
        assert re.fullmatch(r"/static/icons/[a-z0-9-]+\.png\?v=[0-9a-f]{10}", icon["src"]), icon
        r = client.get(icon["src"])
        assert r.status_code == 200 and r.headers["content-type"] == "image/png" and icon["type"] == "image/png"
        assert "immutable" in r.headers["cache-control"]
        side = int(icon["sizes"].split("x")[0])
        assert png_size(r.content) == (side, side)
    apple = re.search(r'<link rel="apple-touch-icon" href="([^"]+)"', client.get("/login").text).group(1)
    assert png_size(client.get(apple).content) == (180, 180)


def test_the_icons_are_what_the_drawing_script_makes():
    """static/icons/*.png are tools/draw_icons.py's output (the small ones, redrawn here)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("draw_icons", ROOT / "tools" / "draw_icons.py")
    draw = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(draw)
    for name, (px, maskable) in draw.ICONS.items():
        if px <= 192:
            assert (ROOT / "static" / "icons" / name).read_bytes() == draw.png(px, draw.render(px, maskable)), name
    # A maskable icon is felt to every edge; an "any" icon has transparent corners.
    assert draw.render(64, True)[1:5][3] == 255 and draw.render(64, False)[1:5][3] == 0


def test_every_page_links_the_manifest_in_its_language(client, app):
    ana = client_for(app, "ana")
    pages = [(client, "/?lang=en", "en"), (client, "/login?lang=sr-Latn", "sr-Latn"), (ana, "/lobby", "sr-Latn"),
             (ana, "/account", "sr-Latn"), (client, "/offline?lang=en", "en")]
    for c, path, lang in pages:
        html = c.get(path).text
        assert f'<link rel="manifest" href="/manifest.webmanifest?lang={lang}">' in html, path
        assert '<meta name="theme-color" content="#5a3620">' in html, path
        assert re.search(r'<script src="/static/js/common\.js\?v=[0-9a-f]+"></script>', html), path  # it registers the worker
        if path != "/offline?lang=en":  # the offline page has no header but the Club's name
            assert 'id="install-app" hidden' in html, path  # shown only when the browser offers it
    assert pwa.THEME_COLOR == "#5a3620"


def test_the_worker_is_served_at_the_root_and_never_keeps_the_api_or_the_sockets(client):
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"  # the browser asks for a new worker each time
    # At the root, the worker's scope is the whole site: no Service-Worker-Allowed needed.
    assert r.headers.get("service-worker-allowed") in (None, "/")
    check_headers(r)
    config = worker_config(r.text)
    assert "/api" in config["never"] and "/ws" in config["never"] and "/lobby/live" in config["never"]
    kept = config["precache"] + list(config["offline"].values())
    assert not [u for u in kept if u.startswith(("/api", "/ws", "/ui/api"))]
    assert all(re.fullmatch(r"/static/[\w/.-]+\?v=[0-9a-f]{10}", u) for u in config["precache"]), config["precache"]
    assert config["offline"] == {"sr-Latn": "/offline?lang=sr-Latn", "en": "/offline?lang=en"}
    assert config["static"] == "/static/" and "/logout" in config["forgetOn"]
    assert config["langCookie"] == "klub_lang" and config["defaultLang"] == "sr-Latn"
    # The code caches in one place, the versioned static files; a page only goes to the network.
    code = (ROOT / "app" / "web" / "sw.js").read_text()
    assert code.count("cache.put(") == 1 and "searchParams.has(\"v\")" in code
    assert "/api" not in code and "/ws" not in code  # the paths come from the configuration alone


def test_the_workers_version_follows_what_it_keeps(client, monkeypatch):
    first = worker_config(client.get("/sw.js").text)["version"]
    assert worker_config(client.get("/sw.js").text)["version"] == first  # the same while nothing changes
    monkeypatch.setattr(pwa, "PRECACHED_STATIC", (*pwa.PRECACHED_STATIC, "icons/klub-192.png"))
    assert worker_config(client.get("/sw.js").text)["version"] != first


def test_the_content_security_policy_allows_the_worker_and_the_manifest(client):
    csp = csp_directives(client.get("/lobby").headers["content-security-policy"])
    assert csp["worker-src"] == "worker-src 'self'" and csp["manifest-src"] == "manifest-src 'self'"
    assert "'self'" in csp["script-src"]  # common.js registers it; no inline script anywhere


def test_the_offline_page_is_the_same_for_everyone(client, app):
    ana = client_for(app, "clan7731")
    for lang, title in (("sr-Latn", "Nema veze"), ("en", "No connection")):
        r = ana.get(f"/offline?lang={lang}")
        assert r.status_code == 200 and f"<title>{title} · Klub</title>" in r.text
        assert f'<html lang="{lang}">' in r.text and 'id="offline"' in r.text
        assert "clan7731" not in r.text and 'name="csrf"' not in r.text and "/logout" not in r.text
        assert "set-cookie" not in r.headers  # the worker fetches both: the member's language stays
        assert r.text == client.get(f"/offline?lang={lang}").text  # a member's copy is anyone's
        check_headers(r)


def test_a_logout_clears_the_browsers_cache(client, app):
    page = client_for(app, "ana")
    from app.members.cookies import form_token

    r = page.post("/logout", data={"csrf": form_token(page.cookies.get("klub_session"))}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["clear-site-data"] == '"cache"'
    api = client_for(app, "bojan")
    r = api.post("/api/auth/logout")
    assert r.status_code == 200 and r.headers["clear-site-data"] == '"cache"'


def test_the_account_page_tells_how_to_install_on_an_iphone(client, app):
    ana = client_for(app, "ana")
    sr = ana.get("/account?lang=sr-Latn").text
    assert "Dodaj na početni ekran" in sr and "Safari" in sr and 'id="iphone-guide"' in sr
    en = ana.get("/account?lang=en").text
    assert "Add to Home Screen" in en and "Install the app" in en
