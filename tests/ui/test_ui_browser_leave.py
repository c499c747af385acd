"""A member in control of his tables, in a real browser (issue 23, item 5): he ends at
once a partie he plays with computer players only, leaves a partie with another member
(a computer player takes his seat), and gives the seat an invitee declined to a computer
player instead of withdrawing the proposal. Each ended or left partie leaves "Moji stolovi"."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import register
from tests.support.ui import close_watched, own_server, shot, watched_page


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from own_server(tmp_path_factory, "leave")


def api(pg, server, method: str, path: str, data=None) -> dict:
    """The JSON API with the page's session (a write says where it comes from: CSRF)."""
    r = pg.request.fetch(server.url + path, method=method, data=data, headers={"Origin": server.url})
    assert r.ok, (path, r.status, r.text())
    return r.json()


def my_tables(pg, server) -> list[str]:
    pg.goto(server.url + "/lobby")
    return pg.eval_on_selector_all("#lobby-live .tables-list a.table-link", "els => els.map(e => e.getAttribute('href'))")


def propose_with(pg, server, invitee: str) -> int:
    seats = [{"kind": "member", "name": invitee}, {"kind": "bot", "bot": "pocetnik"}, {"kind": "bot", "bot": "pocetnik"}]
    return api(pg, server, "POST", "/api/parties", {"game": "lora", "seats": seats})["id"]


def test_a_partie_with_computer_players_only_is_ended_from_its_table(browser, server):  # noqa: F811
    pg = watched_page(browser)
    register(pg, server, "sam")
    pg.check("#propose-form input[name=game][value=lora]")
    for i in (1, 2, 3):
        pg.select_option(f"select[name=seat{i}]", "bot")
    pg.click("#propose-form button[type=submit]")
    pg.wait_for_url(re.compile(r".*/table/\d+$"))
    pid = int(pg.url.rsplit("/", 1)[1])
    assert my_tables(pg, server) == [f"/table/{pid}"]
    pg.goto(f"{server.url}/table/{pid}")
    pg.wait_for_selector("#end-choice:not([hidden])")
    assert pg.locator("#leave-choice").is_hidden()
    pg.click("#end-choice summary")
    pg.click("#end-form button[type=submit]")
    pg.wait_for_url("**/lobby")
    assert my_tables(pg, server) == []
    assert pg.inner_text("#unread-count") == "0"
    assert api(pg, server, "GET", f"/api/parties/{pid}")["status"] == "abandoned"
    close_watched(pg)


def test_a_member_leaves_a_partie_and_a_computer_player_takes_his_seat(browser, server):  # noqa: F811
    boki = watched_page(browser)
    boki_name = register(boki, server, "boki")
    ana = watched_page(browser)
    register(ana, server, "ana")
    pid = propose_with(ana, server, boki_name)
    assert api(boki, server, "POST", f"/api/parties/{pid}/accept")["status"] == "running"
    ana.goto(f"{server.url}/table/{pid}")
    ana.wait_for_selector("#leave-choice:not([hidden])")
    assert ana.locator("#end-choice").is_hidden()  # another member plays here
    ana.click("#leave-choice summary")
    ana.wait_for_selector("#leave-form button[type=submit]")
    shot(ana, "table-leave-confirm")
    ana.click("#leave-form button[type=submit]")
    ana.wait_for_url("**/lobby")
    assert f"/table/{pid}" not in my_tables(ana, server)
    # boki's table shows ana's seat played by a computer; the partie goes on
    seat = api(boki, server, "GET", f"/api/parties/{pid}")["seats"][0]
    assert seat["taken_over"] and seat["computer"]
    boki.goto(f"{server.url}/table/{pid}")
    boki.wait_for_function("() => window.Klub && Klub.table && Klub.table.seats.length && Klub.table.seats[0].taken_over")
    boki.wait_for_selector("#end-choice:not([hidden])")  # no other member plays here now: he may end it
    assert boki.locator("#leave-choice").is_hidden()
    assert api(boki, server, "GET", f"/api/parties/{pid}")["status"] == "running"
    close_watched(ana)
    close_watched(boki)


def test_a_declined_seat_is_given_to_a_computer_player(browser, server):  # noqa: F811
    ceca = watched_page(browser)
    ceca_name = register(ceca, server, "ceca")
    ana = watched_page(browser)
    register(ana, server, "ana")
    pid = propose_with(ana, server, ceca_name)
    api(ceca, server, "POST", f"/api/parties/{pid}/decline")
    ana.goto(server.url + "/lobby")
    proposal = ana.locator(f"article.proposal.mine[data-partie='{pid}']")
    proposal.locator(".declined-seat .seat-to-bot").wait_for()
    assert proposal.locator(".declined-seat .seat-to-open").is_visible()
    assert proposal.locator("form[action$='/withdraw'] button").is_visible()
    proposal.locator(".declined-seat .seat-to-bot").click()
    ana.wait_for_url(f"**/table/{pid}")  # every seat filled: the partie starts
    summary = api(ana, server, "GET", f"/api/parties/{pid}")
    assert summary["status"] == "running" and summary["seats"][1]["kind"] == "bot"
    close_watched(ana)
    close_watched(ceca)
