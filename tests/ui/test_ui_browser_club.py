"""Club life in a real browser: two members (two browser contexts) play a preferans
partie to its end by clicking, see their new ratings on /standings and their profiles
(with the chart), and one asks for a revanš that the other accepts from a live notice,
without reloading his page.

The shortest real partie: preferans at bule 30, refe 0, against a computer player who
answers at random ("random"); the members pass every hand ("dalje", "ne pratim") and
one of them proposes an otpis between hands, which ends the partie once everyone agrees
(an otpis refused waits for the next hand, P12). Tests wait on state, never on time.
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser import register
from tests.support.ui import api, say_something, shot
from tests.support.web import wait_for

PREFERANS = "preferans"


@pytest.fixture
def two(browser):  # noqa: F811
    """Two browser contexts (two members), each failing the test on a JavaScript error or
    a CSP violation."""
    contexts, pages, errors = [], [], []
    for _ in range(2):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
        pg = ctx.new_page()
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
        contexts.append(ctx)
        pages.append(pg)
    yield pages
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors or CSP violations: {errors}"


def play_to_the_end(ana, boki) -> None:
    def step() -> bool:
        going = [say_something(ana, True), say_something(boki, False)]
        return not any(going)

    wait_for(step, timeout=240, step=0.02)


def test_a_partie_the_ratings_the_profiles_and_a_revans(two, server):  # noqa: F811
    ana, boki = two
    ana_name, boki_name = register(ana, server, "ana"), register(boki, server, "boki")
    # boki waits in the lobby: the invitation shows there without a reload (no polling)
    boki.goto(server.url + "/lobby")
    boki.wait_for_function("() => Klub.notices && Klub.notices.connected")
    boki.evaluate("() => { window.stayed = true; }")
    body = {"game": PREFERANS, "settings": {"bule": 30, "refe": 0},
            "seats": [{"kind": "member", "name": boki_name}, {"kind": "bot", "bot": "random"}]}
    proposed = api(ana, "POST", "/api/parties", body)
    assert proposed["status"] == 201, proposed
    pid = proposed["body"]["id"]
    boki.wait_for_selector(f"#lobby-live .invitation[data-partie='{pid}'] button.accept")
    boki.wait_for_function("() => document.getElementById('unread-count').dataset.count === '1'")
    assert boki.evaluate("() => window.stayed === true")
    boki.click(f"#lobby-live .invitation[data-partie='{pid}'] button.accept")
    boki.wait_for_url(f"**/table/{pid}")
    ana.goto(f"{server.url}/table/{pid}")
    for pg in (ana, boki):
        pg.wait_for_selector("#sheet .papir .p-player")
        pg.wait_for_function("() => Klub.table && Klub.table.status === 'running'")

    play_to_the_end(ana, boki)
    for pg in (ana, boki):
        pg.wait_for_function("() => Klub.table.finished")
        pg.wait_for_selector("#rematch-form:not([hidden]) button.rematch")
    shot(ana, "club-partie-over")

    # the ratings of the finished partie: on the standings, and in both profiles with a chart
    def rated(pg) -> bool:
        pg.goto(f"{server.url}/standings?game={PREFERANS}")
        for name in (ana_name, boki_name):
            row = pg.locator(f"tr[data-member='{name}']")
            if row.count() != 1 or row.locator("td:nth-child(3)").inner_text().strip() in ("", "–"):
                return False
        return True

    wait_for(lambda: rated(ana), timeout=30, step=0.2)
    assert rated(boki)
    shot(boki, "club-standings")
    for pg, name in ((ana, ana_name), (boki, boki_name)):
        pg.goto(f"{server.url}/members/{name}")
        card = pg.locator(f".rating-card[data-game='{PREFERANS}']")
        assert card.locator("svg.rating-chart circle.dot").count() == 1
        standing = api(pg, "GET", f"/api/standings?game={PREFERANS}")["body"]
        mine = next(m for m in standing["members"] if m["name"] == name)
        assert card.locator(".rating-value").inner_text() == str(mine["rating"])
        assert pg.locator(f".stats-table tr[data-game='{PREFERANS}'] .stat-parties").inner_text() == "1"
        assert pg.locator(f".recent-table tr[data-partie='{pid}'] a[href='/archive/{pid}']").count() == 1
    shot(boki, "club-profile")

    # boki stays on his profile; ana asks for a revanš at the table
    boki.wait_for_function("() => Klub.notices && Klub.notices.connected")
    boki.evaluate("() => { window.stayed = true; }")
    ana.goto(f"{server.url}/table/{pid}")
    ana.wait_for_function("() => Klub.table && Klub.table.finished")
    ana.click("#rematch-form button.rematch")
    ana.wait_for_url(re.compile(r".*/lobby\?proposed=\d+$"))
    new = int(ana.url.rsplit("=", 1)[1])
    ana.wait_for_function("() => Klub.notices && Klub.notices.connected")
    ana.evaluate("() => { window.stayed = true; }")
    toast = boki.locator(f".toast[data-kind='invited'][data-partie='{new}']")
    toast.wait_for()
    assert "revanš" in toast.inner_text().lower() and ana_name in toast.inner_text()
    assert boki.evaluate("() => window.stayed === true")  # it came without a reload
    assert boki.inner_text("#unread-count") == "1"
    shot(boki, "club-rematch-notice")
    toast.locator("button.toast-accept").click()
    boki.wait_for_url(f"**/table/{new}")
    # ana hears that it started, in the lobby she is on: the table is in her list
    ana.wait_for_selector(f".toast[data-kind='started'][data-partie='{new}']")
    ana.wait_for_selector(f"#lobby-live .tables-list a[href='/table/{new}']")
    assert ana.evaluate("() => window.stayed === true")
    seats = api(ana, "GET", f"/api/parties/{new}")["body"]["seats"]
    assert [s["name"] for s in seats] == [ana_name, boki_name, "AI 3"]  # ana asked: she deals first
