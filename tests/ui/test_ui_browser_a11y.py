"""Accessibility in Chromium (issue 39): axe-core (the npm package, tests/support/axe.py) on
the main pages and the tables of every game, on a phone and a desktop, fails on any
violation; every target a finger taps on a phone is 24 px at least (WCAG 2.5.8). Every
other browser test is checked by axe too, on each page it opens (the ``browser`` fixture)."""

from __future__ import annotations

import pytest

from app.db.database import Database
from app.ratings.service import rate_pending
from tests.support import axe
from tests.support.archive import seed_partie
from tests.support.ui import api, close_watched, watched_page

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
SEATS = {"lora": 4, "preferans": 3, "lorum": 4}
PASSWORD = "secret-pass-1"


def member_with_tables(browser, server, name: str) -> tuple[list[dict], dict[str, int]]:
    """A member registered through the page's API, with a partie of each game against computer players."""
    pg = watched_page(browser)
    pg.goto(server.url + "/login")
    assert api(pg, "POST", "/api/auth/register", {"name": name, "password": PASSWORD})["status"] == 201
    tables = {}
    for game, seats in SEATS.items():
        r = api(pg, "POST", "/api/parties", {"game": game, "seats": [{"kind": "bot", "bot": "pocetnik"}] * (seats - 1)})
        assert r["status"] == 201, r
        tables[game] = r["body"]["id"]
    cookies = pg.context.cookies()
    close_watched(pg)
    return cookies, tables


def pages_of(name: str, tables: dict[str, int]) -> list[str]:
    return ["/lobby", "/archive", "/standings", "/tournaments", "/rules", "/rules/preferans", "/account",
            f"/members/{name}", *(f"/table/{t}" for t in tables.values()), *(f"/archive/{t}" for t in tables.values())]


def settle(pg, path: str) -> None:
    if path.startswith("/table/"):  # the table drawn from its first state
        pg.wait_for_function("() => window.Klub && Klub.table && Klub.table.view && !Klub.table.pausing", timeout=30000)
    pg.wait_for_load_state("networkidle")


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_axe_finds_nothing_on_the_main_pages_and_tables(browser, server, device):
    axe.need_axe()
    name = f"axe{device['viewport']['width']}"
    cookies, tables = member_with_tables(browser, server, name)
    pg = watched_page(browser, cookies=cookies, **device)
    found = []
    for path in pages_of(name, tables):
        pg.goto(server.url + path)
        settle(pg, path)
        found += [{"url": path, "violations": axe.violations_now(pg)}]
    # The Lora table's other states: the last trick shown, the partie ended (its final page).
    pg.goto(server.url + f"/table/{tables['lora']}")
    settle(pg, "/table/")
    pg.locator("#end-choice summary").click()
    found += [{"url": "the end's confirmation", "violations": axe.violations_now(pg)}]
    pg.locator("#end-form button[type=submit]").click()
    pg.wait_for_url("**/lobby")
    pg.goto(server.url + f"/table/{tables['lora']}")
    pg.wait_for_function("() => window.Klub && Klub.table && Klub.table.status === 'abandoned'", timeout=30000)
    found += [{"url": "a partie ended early", "violations": axe.violations_now(pg)}]
    # Logged out: the front page, the forms.
    pg.context.clear_cookies()
    for path in ("/", "/login", "/register"):
        pg.goto(server.url + path)
        found += [{"url": path, "violations": axe.violations_now(pg)}]
    found = [f for f in found if f["violations"]]
    assert not found, "axe-core found accessibility violations:\n" + axe.describe(found)
    close_watched(pg)


# Each visible control a finger taps: 24 x 24 px at least, unless it is a link inside a
# sentence (WCAG 2.5.8's inline exception) or a box whose label around it is the target.
SMALL_TARGETS = """() => {
  const small = [];
  const controls = document.querySelectorAll("a[href], button, select, input:not([type=hidden]), textarea, summary, [role=button], [tabindex='0']");
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!r.width || !r.height || r.right <= 0 || r.bottom <= 0 || style.visibility === "hidden" || el.closest("[hidden], .sr-only")) continue;
    let target = el;
    if ((el.type === "checkbox" || el.type === "radio") && el.closest("label")) target = el.closest("label");
    const t = target.getBoundingClientRect();
    if (t.width >= 24 && t.height >= 24) continue;
    if (el.tagName === "A") {  // a link in running text
      const block = el.parentElement.closest("p, li, td, dd, small, span, label");
      if (block && block.textContent.trim().length > el.textContent.trim().length + 2 && style.display === "inline") continue;
    }
    small.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${el.className} "${(el.textContent || el.value || "").trim().slice(0, 30)}" ${Math.round(t.width)}x${Math.round(t.height)}`);
  }
  return small;
}"""


def test_every_target_on_a_phone_is_24_px_at_least(browser, server):
    cookies, tables = member_with_tables(browser, server, "prst")
    seed_partie(server, "prst", "lora")  # a finished, rated partie: the standings list its players, links in cells
    db = Database(server.db_url)
    assert rate_pending(db) == 1
    db.dispose()
    pg = watched_page(browser, cookies=cookies, **PHONE)
    pg.goto(server.url + "/standings?game=lora")
    assert pg.locator("tr[data-member=prst] a").count() == 1
    small = {}
    for path in pages_of("prst", tables):
        pg.goto(server.url + path)
        settle(pg, path)
        if found := pg.evaluate(SMALL_TARGETS):
            small[path] = found
    pg.context.clear_cookies()
    for path in ("/", "/login", "/register"):
        pg.goto(server.url + path)
        if found := pg.evaluate(SMALL_TARGETS):
            small[path] = found
    assert not small, "\n".join(f"{path}: {t}" for path, found in small.items() for t in found)
    close_watched(pg)
