"""A Club evening in a real browser: an admin announces a Lora duplikat of two rounds of a
short Lora (`bez` leaves out all but Žandar, a deal over once the J♣ is taken) from the
tournaments page; eight members register (two from their pages, six over the API with
their own sessions); round 1 starts and each hears of his table (a toast with the way to
it, the tournament page's own "to my table"); they play to the end, with no computer
player at any table; the standings, the secret and a board's traveller follow.

One member plays by clicking on his table page; the seven others say their words over
the API with their own sessions, so the evening stays short. Tests wait on state, never
on time.
"""

from __future__ import annotations

import random
import re

import httpx

from tests.support.browser import (
    api_member,
    log_in,
    member_session,
    register,
    table,
    table_of,
)
from tests.support.ui import close_watched, shot, watched_page

LEFT_OUT = ("vise", "manje", "dame", "herc", "kralj", "lora")  # Žandar alone: four short deals


def _api_word(seats: dict, partie_id: int, rng: random.Random) -> bool:
    """The word of the member whose turn it is at one table (``seats``: seat -> his
    session); True once the partie is over."""
    anyone = next(iter(seats.values()))
    st = anyone.get(f"/api/parties/{partie_id}/view").json()
    if st["finished"]:
        return True
    for seat in st["to_act"]:
        member = seats.get(seat)
        if member is None:
            continue  # the clicking member's turn
        mine = st if member is anyone else member.get(f"/api/parties/{partie_id}/view").json()
        if mine["legal"]:
            member.post(f"/api/parties/{partie_id}/actions",
                        json={"word": rng.choice(mine["legal"]), "version": mine["version"]})
    return False


def _click_word(page) -> bool:
    """One card of the clicking member, when his table waits for him; True once it is over."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    t = table(page)
    if t["finished"]:
        return True
    if t["ready"] and t["legal"] and t["clickable"]:
        version = t["version"]
        try:  # the read may be a moment old (the trick's pause): read again rather than wait
            page.locator(f"#hand button.card[data-card='{t['clickable'][0]}']:not([disabled])").click(timeout=3000)
        except PlaywrightTimeout:
            return False
        page.wait_for_function(f"() => Klub.table.version > {version} || Klub.table.finished", timeout=15000)
    return False


def _play_round(clicker, others, server, tid: int, round_no: int, seed: int) -> None:
    tables: dict[int, dict] = {}
    opened: list[httpx.Client] = []  # the page members' sessions, closed after the round
    for who in others:
        partie_id = table_of(who, server, tid, round_no)
        member = who if isinstance(who, httpx.Client) else member_session(who, server)
        if member is not who:
            opened.append(member)
        tables.setdefault(partie_id, {})[member.get(f"/api/parties/{partie_id}/view").json()["seat"]] = member
    rng = random.Random(seed)
    done: set[int] = set()
    clicked_done = False
    for _ in range(20000):
        for partie_id, seats in tables.items():
            if partie_id not in done and _api_word(seats, partie_id, rng):
                done.add(partie_id)
        if not clicked_done:
            clicked_done = _click_word(clicker)
        if clicked_done and len(done) == len(tables):
            for member in opened:
                member.close()
            return
    raise AssertionError("the round did not finish")


def test_an_evening_of_lora_duplikat(browser, server):  # noqa: F811
    from app.db import Database
    from app.members.service import ensure_admin

    db = Database(server.db_url)
    ensure_admin(db, "voditelj", "voditelj-lozinka-1")
    db.write_engine.dispose()
    admin = watched_page(browser)
    log_in(admin, server, "voditelj", "voditelj-lozinka-1")
    admin.goto(server.url + "/tournaments")
    form = admin.locator("#tournament-form")
    form.locator("input[name=name]").fill("Sreda uveče")
    form.locator("input[name=game][value=lora]").check()
    form.locator("select[name='lora.variant']").select_option("klub")
    for code in LEFT_OUT:
        form.locator(f"input[name='lora.bez.{code}']").check()
    form.locator("input[name=format][value=duplikat]").check()
    form.locator("input[name=rounds]").fill("2")
    form.locator("input[name=pause_minutes]").fill("0")
    form.locator("button[type=submit]").click()
    admin.wait_for_url(re.compile(r".*/tournaments/\d+$"))
    tid = int(admin.url.rsplit("/", 1)[1])
    assert "duplikat" in admin.inner_text(".format-sentence").lower() or "same cards" in admin.inner_text(
        ".format-sentence") or "iste karte" in admin.inner_text(".format-sentence")
    commitment = admin.inner_text("code.commitment")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)

    members = []
    for i in range(2):
        pg = watched_page(browser)
        register(pg, server, f"turnir{i}x")
        pg.goto(server.url + "/tournaments")
        pg.click(f"article[data-tournament='{tid}'] .join-tournament")
        pg.wait_for_url(re.compile(rf".*/tournaments/{tid}$"))
        assert pg.locator(".leave-tournament").count() == 1
        members.append(pg)
    clicker, watcher = members
    api_members = [api_member(server, f"turnir{i}a{tid}", tid) for i in range(6)]
    others = [watcher, *api_members]
    watcher.goto(server.url + "/lobby")  # he hears of the round by a toast
    clicker.goto(server.url + f"/tournaments/{tid}")  # his tournament page changes by itself
    clicker.wait_for_selector(".round-state[data-round='0']")
    admin.goto(server.url + f"/tournaments/{tid}")
    admin.click("button.start-round")

    toast = watcher.wait_for_selector(".toast[data-kind=round]", timeout=30000)
    assert "1" in toast.inner_text()
    clicker.wait_for_selector("#tournament-live a.my-table", timeout=30000)
    shot(clicker, "tournament-round-1")
    clicker.click("#tournament-live a.my-table")  # the live part may be read again meanwhile: a locator
    clicker.wait_for_url(re.compile(r".*/table/\d+$"))
    clicker.wait_for_selector("#sheet table.lora-sheet")
    # eight members, two tables of four: no computer player sits anywhere
    data = admin.request.get(f"{server.url}/api/tournaments/{tid}").json()
    assert [len([s for s in t["seats"] if s["member"]]) for t in data["rounds_played"][0]["tables"]] == [4, 4]

    _play_round(clicker, others, server, tid, 1, seed=1)
    # round 2 starts at once (no pause): the toast takes the clicking member to his new table
    clicker.click(".toast[data-kind=round] a.toast-open", timeout=30000)
    clicker.wait_for_url(re.compile(r".*/table/\d+$"))
    assert int(clicker.url.rsplit("/", 1)[1]) == table_of(clicker, server, tid, 2)
    _play_round(clicker, others, server, tid, 2, seed=2)

    clicker.goto(server.url + f"/tournaments/{tid}")
    clicker.wait_for_selector(".round-state[data-status=finished]", state="attached", timeout=30000)
    rows = clicker.locator("table.tournament-standings tbody tr")
    assert rows.count() == 8
    assert clicker.locator("code.secret").count() == 1 and clicker.inner_text("code.commitment") == commitment
    shot(clicker, "tournament-finished")
    # a traveller: the first deal of round 1 at both tables, side by side, with replays
    clicker.click(".round[data-round='1'] a.traveller-link >> nth=0")
    clicker.wait_for_selector("table.traveller-table")
    assert clicker.locator("table.traveller-table tbody tr").count() == 2
    assert clicker.locator("table.traveller-table a.replay-link").count() == 2
    shot(clicker, "tournament-traveller")
    for pg in [admin, *members]:
        close_watched(pg)
    for member in api_members:
        member.close()
