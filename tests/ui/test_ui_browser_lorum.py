"""Lórum in a real browser: a member plays a whole partie against three computer
players by clicking legal cards, sees Kvart's chain, the Fast train and the bank, and ends
with the score sheet of 28 rows of chips and the bank (beside the table and in the archive).

The fixtures are tests/conftest.py's, the helpers tests/support/browser.py's (Playwright, Debian's Chromium).
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser import lora_public_cards, register, table, wait_ready
from tests.support.ui import POLL_MS, shot

SHOWN = """() => {
  const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent : null; };
  const needs = document.querySelector("#center .needs");
  return {version: Klub.table.version, title: text("#table-info .contract-name"), bank: text("#bank b"),
          needs: needs ? needs.dataset.needs : null};
}"""


@pytest.mark.soak  # a whole partie in the browser: make soak (CI runs it)
def test_lorum_partie_against_three_computer_players(page, server):  # noqa: F811
    register(page, server, "lori")
    page.check("#propose-form input[name=game][value=lorum]")
    assert page.is_hidden("#propose-form select[name='preferans.bule']")  # only the timer setting
    for i in (1, 2, 3):
        page.select_option(f"select[name=seat{i}]", "bot")
        page.select_option(f"select[name=seat{i}_bot]", "pocetnik")
    page.click("#propose-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/table/\d+$"))
    partie_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#sheet table.lorum-sheet")
    assert page.locator("#sheet tbody tr").count() == 28
    assert page.locator("a[href^='/rules/lorum']").count() == 1
    plays = 0
    seen: set[int] = set()
    while True:
        wait_ready(page)
        t = table(page)
        if t["finished"]:
            break
        if not t["ready"]:
            continue  # the table moved on since wait_ready (a dalje said by itself)
        deal = t["view"]["deal"]
        if t["legal"] == ["dalje"]:
            # no card to play: the table says dalje by itself (Fast train, Domino)
            page.wait_for_function(f"() => Klub.table.version > {t['version']} || Klub.table.finished", timeout=15000, polling=POLL_MS)
            continue
        assert set(t["dom"]) <= lora_public_cards(t["view"]), deal["index"]
        assert set(t["clickable"]) == set(t["legal"]) - {"dalje"}
        # the contract's title, the bank and what Kvart or the train needs, as the view says
        shown = page.evaluate(SHOWN)
        if shown["version"] == t["version"]:
            assert shown["title"] == deal["contract_title"]
            assert shown["bank"] == str(deal["bank"])
            if deal["contract"] == 4:
                assert shown["needs"] == (deal["next_card"] or "")
            elif deal["contract"] == 5:
                assert shown["needs"] == (deal["next_rank"] or "")
        if deal["contract"] not in seen:
            seen.add(deal["contract"])
            if deal["contract"] == 4:
                if deal["next_card"]:
                    assert set(t["clickable"]) == {deal["next_card"]}
                shot(page, "lorum-kvart")
            elif deal["contract"] == 5:
                shot(page, "lorum-train")
            elif deal["contract"] == 7:
                page.wait_for_selector("#center .layout-row")
                shot(page, "lorum-domino")
        cards = page.locator("#hand button.card.legal")
        if cards.count() == 0:
            print("no legal card in the DOM:", t["legal"], deal["index"], t["version"], page.evaluate("Klub.table.version"))
            continue
        cards.nth(plays % cards.count()).click()
        plays += 1
        page.wait_for_function(f"() => Klub.table.version > {t['version']} || Klub.table.finished", timeout=15000, polling=POLL_MS)
    assert seen == {1, 2, 3, 4, 5, 6, 7}
    page.wait_for_selector(".partie-over")
    shot(page, "lorum-finished")
    score = table(page)["view"]["result"]
    assert len(score["deals"]) == 28
    for d in score["deals"]:
        assert sum(d["transfers"]) + d["bank"] == 0
    # the last deal is a Domino: its winner took the bank, all chips are between the players
    assert score["bank"] == 0 and sum(score["totals"]) == 0
    assert page.inner_text("#bank b") == "0"

    def check_sheet(root: str) -> None:
        page.wait_for_selector(f"{root} table.lorum-sheet")
        assert page.locator(f"{root} tbody tr td.pts:not(.empty)").count() == 28 * 4
        banks = page.eval_on_selector_all(f"{root} tbody td.bank-col .run", "els => els.map(e => Number(e.textContent))")
        running = 0
        expected = []
        for d in score["deals"]:
            running += d["bank"]
            expected.append(running)
        assert banks == expected and banks[-1] == 0 and max(banks) > 0
        totals = page.eval_on_selector_all(f"{root} tfoot tr.totals td:not(.bank-col)", "els => els.map(e => Number(e.textContent))")
        assert totals == score["totals"]
        places = page.eval_on_selector_all(f"{root} tfoot tr.places td:not(.bank-col)", "els => els.map(e => parseInt(e.textContent))")
        assert places == score["places"]
        assert places == [1 + sum(1 for o in totals if o > mine) for mine in totals]  # highest total wins

    check_sheet("#sheet")
    # the archive: the same sheet with the bank beside the last deal's replay, and the
    # replay of a Kvart deal
    page.goto(server.url + f"/archive/{partie_id}#deal=28")
    check_sheet("#final-sheet")
    page.select_option("#replay select.deal-pick", "0")
    page.wait_for_function("() => document.querySelector('#replay .replay-title').textContent.endsWith('Herc')")
    page.wait_for_selector("#replay .replay-hand")
    assert page.locator("#replay .replay-hand .card").count() == 32
    for title in ("Dame", "Bez štihova", "Kvart"):
        page.click("#replay button[data-step='next-deal']")
        page.wait_for_function(f"() => document.querySelector('#replay .replay-title').textContent.endsWith('{title}')")
    page.click("#replay button[data-step='end']")
    assert page.locator("#replay .replay-mid .card").count() >= 1
    shot(page, "archive-lorum")
