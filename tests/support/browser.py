"""A member in a real browser (Playwright, Debian's Chromium): registered and logged in through
the forms, the table script's state read at one moment, waiting for the table, a partie played to
its end by clicking, and a tournament's members beside the browser (their own API sessions).
The served Club, the pages and the browser are in tests/support/ui.py and tests/conftest.py."""

from __future__ import annotations

import itertools
import re
import time

import httpx

from tests.support.ui import PASSWORD, POLL_MS
from tests.support.web import wait_for

_names = itertools.count(1)


def register(page, server, prefix="igrac") -> str:
    name = f"{prefix}{next(_names)}{int(time.time()) % 10000}"
    page.goto(server.url + "/register")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("#auth-form button[type=submit]")
    page.wait_for_url("**/lobby")
    return name


READY = "() => window.Klub && Klub.table && (Klub.table.finished || (Klub.table.canAct() && !Klub.table.pausing))"


def wait_ready(page, timeout=30000):
    page.wait_for_function(READY, timeout=timeout, polling=POLL_MS)


def table(page) -> dict:
    """What the table script holds, and the cards in the DOM, read at one moment.

    ``ready`` is READY at that same moment: between ``wait_ready`` and this read the table
    may have said ``dalje`` by itself and the bots played on (a pause may then show the last
    deal's cards), so a loop that checks the DOM against the view skips a read that is not ready.
    """
    return page.evaluate(
        f"() => ({{ready: ({READY})(), finished: Klub.table.finished,"
        " legal: Klub.table.legal, version: Klub.table.version,"
        " seat: Klub.table.seat, view: Klub.table.view, shown: Klub.table.shownDeal || null,"
        " dom: [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card),"
        " clickable: [...document.querySelectorAll('#hand button.card:not([disabled])')].map(e => e.dataset.card)})"
    )


def lora_public_cards(view) -> set[str]:
    deal = view["deal"]
    out = set(deal.get("hand") or [])
    out |= {w for _, w in deal["actions"] if w != "dalje"}
    return out


def wait_sel(page, selector: str, timeout: int = 20000) -> None:
    """wait_for_selector that tells what the table script held when it timed out."""
    try:
        page.wait_for_selector(selector, timeout=timeout)
    except Exception:
        state = page.evaluate(
            "() => JSON.stringify({seat: Klub.table.seat, legal: Klub.table.legal, sending: Klub.table.sending,"
            " pausing: !!Klub.table.pausing, toAct: Klub.table.toAct, version: Klub.table.version,"
            " offer: Klub.table.view && Klub.table.view.offer, online: !document.getElementById('table-app')"
            ".classList.contains('offline')})"
        )
        raise AssertionError(f"{selector} not there; table: {state}; errors: {page.js_errors}") from None


def log_in(pg, server, name: str, password: str) -> None:
    pg.goto(server.url + "/login")
    pg.fill("input[name=name]", name)
    pg.fill("input[name=password]", password)
    pg.click("#auth-form button[type=submit]")
    pg.wait_for_url("**/lobby")


def wait_after(page, version: int) -> None:
    page.wait_for_function(f"() => Klub.table.version > {version} || Klub.table.finished", timeout=15000, polling=POLL_MS)


def play_to_end(page, on_deal) -> dict:
    """Play to the end: the legal card or word on the page. ``on_deal(table)`` checks each
    read and returns the button to click, or None for a legal card of the hand."""
    plays = 0
    while True:
        wait_ready(page)
        t = table(page)
        if t["finished"]:
            return t
        if not t["ready"]:
            continue
        if t["legal"] in (["dalje"], ["kitty dalje"]):
            wait_after(page, t["version"])  # said by itself
            continue
        button = on_deal(t)
        if button is None:
            cards = page.locator("#hand button.card:not([disabled])")
            assert cards.count() == len(t["legal"]), (t["legal"], t["view"]["deal"]["index"])
            button = cards.nth(plays % cards.count())
        button.click()
        plays += 1
        wait_after(page, t["version"])


def member_session(pg, server) -> httpx.Client:
    """An HTTP client with the member's own session (his browser's cookies)."""
    cookies = {c["name"]: c["value"] for c in pg.context.cookies(server.url)}
    return httpx.Client(base_url=server.url, cookies=cookies, headers={"Origin": server.url}, timeout=30)


def api_member(server, name: str, tid: int) -> httpx.Client:
    """A member who registers and joins the tournament over the API (his own session)."""
    member = httpx.Client(base_url=server.url, headers={"Origin": server.url}, timeout=30)
    r = member.post("/api/auth/register", json={"name": name, "password": "lozinka-turnir-1"})
    assert r.status_code == 201, r.text
    r = member.post(f"/api/tournaments/{tid}/register")
    assert r.status_code == 200, r.text
    return member


def table_of(who, server, tid: int, round_no: int) -> int:
    """``who``: a page (his browser's session) or an API member's client."""
    get = who.get if isinstance(who, httpx.Client) else (lambda path: who.request.get(server.url + path))

    def look():
        data = get(f"/api/tournaments/{tid}").json()
        r = next((r for r in data["rounds_played"] if r["round"] == round_no), None)
        return r and r["my_table"]
    return wait_for(look, timeout=30)


def propose_against_bots(page, server, game: str) -> str:
    page.goto(server.url + "/lobby")
    page.check(f"#propose-form input[name=game][value={game}]")
    seats = 4 if game == "lora" else 3
    for i in range(1, seats):
        page.select_option(f"select[name=seat{i}]", "bot")
        page.select_option(f"select[name=seat{i}_bot]", "pocetnik")
    page.click("#propose-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/table/\d+$"))
    return page.url
