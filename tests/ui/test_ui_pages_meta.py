"""Each page its own meta description, in both languages (issue 39: Lighthouse's SEO)."""

from __future__ import annotations

import html
import re

from tests.support.pages import client, register  # noqa: F401

DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)">')


def description(c, path: str, lang: str) -> str:
    r = c.get(path, params={"lang": lang}, headers={"Accept": "text/html"})
    assert r.status_code == 200, (path, r.status_code)
    found = DESCRIPTION.findall(r.text)
    assert len(found) == 1, (path, lang, found)
    return html.unescape(found[0])


def test_every_page_has_its_own_description_in_both_languages(client):  # noqa: F811
    outside = ["/", "/login", "/register", "/rules", "/rules/preferans"]
    texts = {lang: {p: description(client, p, lang) for p in outside} for lang in ("sr-Latn", "en")}
    register(client, "ana")
    r = client.post("/lobby/propose", data={"game": "lora", "seat1": "bot", "seat2": "bot", "seat3": "bot"},
                    follow_redirects=False)
    pid = int(r.headers["location"].rsplit("/", 1)[1])
    inside = ["/lobby", f"/table/{pid}", "/archive", f"/archive/{pid}", "/standings", "/tournaments", "/account",
              "/members/ana", "/leagues"]
    for lang in texts:
        texts[lang].update({p: description(client, p, lang) for p in inside})
    for lang, by_page in texts.items():
        assert all(len(t) >= 30 for t in by_page.values()), by_page
        # its own: no two pages say the same
        assert len(set(by_page.values())) == len(by_page), by_page
    for page in texts["en"]:
        assert texts["en"][page] != texts["sr-Latn"][page], page
    assert "Lora #" in texts["en"][f"/table/{pid}"] and "u Klubu" in texts["sr-Latn"][f"/table/{pid}"]
    assert texts["sr-Latn"]["/lobby"].startswith("Vaše predvorje") and texts["en"]["/lobby"].startswith("Your lobby")
