"""Libyan Lora and Lórum's extras in a real browser: a member proposes a three-player Libyan
partie with bets from the lobby's form and plays it to its end against two computer
players (his bets and answers by the buttons, the kitty's card at its place, void deals
on the sheet); and a Lórum partie with 101 and makk, to its end.

The fixtures are tests/conftest.py's, the helpers tests/support/browser.py's (Playwright, Debian's Chromium).
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser import play_to_end, register
from tests.support.ui import shot

CARD = re.compile(r"^[789TJQKA][SDHC]$")


@pytest.mark.soak  # a whole partie in the browser: make soak (CI runs it)
@pytest.mark.parametrize("players", [3, 4])
def test_a_libyan_partie_with_bets(page, server, players):  # noqa: F811
    register(page, server, f"libijac{players}")
    page.check("#propose-form input[name=game][value=lora]")
    page.select_option("#propose-form select[name='lora.variant']", "libijska")
    page.select_option("#propose-form select[name='lora.igraca']", str(players))
    page.check("#propose-form input[name='lora.opklade']")
    assert page.locator(".seat-line[data-seat='3']").is_hidden() == (players == 3)  # three players: two beside me
    for i in range(1, players):
        page.select_option(f"select[name=seat{i}]", "bot")
        page.select_option(f"select[name=seat{i}_bot]", "pocetnik")
    page.click("#propose-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/table/\d+$"))
    partie_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#sheet table.lora-sheet")
    assert page.locator("#seat-top").count() == (players == 4) and page.locator("#sheet thead th").count() == 2 + players
    assert "Libijska lora" in page.inner_text(".table-rules")
    total = 8 * players
    seen = {"bet": 0, "answer": 0, "kitty": 0, "kitty_shown": 0}

    def on_words(t):
        deal = t["view"]["deal"]
        legal = t["legal"]
        # a void deal dealt again keeps its number in the schedule
        assert page.inner_text("#table-info .deal-no") == f"Deljenje {deal['slot'] + 1} od {total}"
        if all(CARD.match(w) for w in legal):
            return None
        if deal.get("kitty"):
            seen["kitty_shown"] += 1
            assert page.locator("#center .kitty .card").count() == len(deal["kitty"])
        if legal[-1] == "ne kladim":
            words = page.locator("#controls .bet-words button.word")
            assert words.count() == len(legal)
            if not seen["bet"]:
                shot(page, "libijska-bet")
            seen["bet"] += 1
            return words.nth(len(legal) - 1 if seen["bet"] % 3 else 0)  # mostly no bet, now and then kladim
        if set(legal) <= {"kontra", "rekontra", "moze"}:
            seen["answer"] += 1
            assert page.locator("#controls .bet-answers button.word").count() == len(legal)
            return page.locator(f"#controls button.word[data-word='{legal[0] if seen['answer'] % 4 == 0 else 'moze'}']")
        assert all(w.startswith("kitty ") for w in legal), legal
        assert deal["dealer"] == t["seat"] and deal.get("kitty_turn")
        if not seen["kitty"]:
            shot(page, "libijska-kitty")
        seen["kitty"] += 1
        return page.locator(f"#controls .kitty-words button.word[data-word='{legal[0]}']")

    end = play_to_end(page, on_words)
    assert seen["bet"] >= 6 * players  # every contract with bets, each dealer's
    # My own layout deal reaches the kitty's place: a card of it by its button, or, when
    # nothing of it fits, the dalje the page says by itself (the read may not catch that turn).
    record = page.request.get(f"{server.url}/api/parties/{partie_id}/record").json()
    kitty_words = [w for d in record["deals"] for s, w in d["actions"] if s == 0 and w.startswith("kitty ")]
    assert len(kitty_words) >= seen["kitty"] and (len(kitty_words) >= 1) == (players == 3)
    result = end["view"]["result"]
    voids = sum(1 for d in result["deals"] if d.get("void"))
    slots = end["view"]["slots"]  # a void deal is dealt again in its slot; the third void ends it
    assert len(result["deals"]) == len(slots) and slots[-1] == total - 1 and len(set(slots)) == total
    page.wait_for_selector(".partie-over")
    shot(page, "libijska-finished")
    totals = page.eval_on_selector_all("#sheet tfoot tr.totals td", "els => els.map(e => Number(e.textContent))")
    assert totals == result["totals"]
    rows = page.eval_on_selector_all("#sheet tbody td.contract", "els => els.map(e => e.textContent)")
    assert len(rows) == len(result["deals"]) and sum("(poništeno)" in r for r in rows) == voids
    # the deals list names each deal's bets
    page.click("#sheet button.tab-button[data-tab='deals']")
    page.wait_for_selector("#sheet .deal-list")
    with_bets = sum(1 for bets in end["view"]["bets"] if bets and any(b["word"] not in (None, "ne kladim") for b in bets))
    assert with_bets >= 1 and page.locator("#sheet .deal-list .deal-bets").count() == with_bets
    page.goto(server.url + f"/archive/{partie_id}")
    page.wait_for_selector("#final-sheet table.lora-sheet")
    assert "Libijska lora" in page.inner_text("h1 + .archive-meta")


@pytest.mark.soak  # a whole partie in the browser: make soak (CI runs it)
def test_a_lorum_partie_with_101_and_makk(page, server):  # noqa: F811
    register(page, server, "lorumas")
    page.check("#propose-form input[name=game][value=lorum]")
    page.check("#propose-form input[name='lorum.sto_jedan']")
    page.check("#propose-form input[name='lorum.makk']")
    for i in (1, 2, 3):
        page.select_option(f"select[name=seat{i}]", "bot")
        page.select_option(f"select[name=seat{i}_bot]", "pocetnik")
    page.click("#propose-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/table/\d+$"))
    page.wait_for_selector("#sheet table.lorum-sheet")
    assert page.locator("#sheet tbody tr").count() == 36
    seen = {"101": 0}

    def watch(t):
        deal = t["view"]["deal"]
        assert all(CARD.match(w) for w in t["legal"]), t["legal"]  # Lórum asks only for cards
        if deal.get("contract") != "sto_jedan":
            return None
        seen["101"] += 1
        assert page.inner_text("#pile-total") == str(deal["total"])
        assert len(deal["hand"]) <= 4
        if seen["101"] == 3:
            shot(page, "lorum-101")

    end = play_to_end(page, watch)
    assert seen["101"] >= 4  # my turns in the four 101 deals
    result = end["view"]["result"]
    assert [d["contract"] for d in result["deals"][5:9]] == ["hairy_monkey", "sto_jedan", "makk", "domino"]
    assert len(result["deals"]) == 36
    page.wait_for_selector(".partie-over")
    totals = page.eval_on_selector_all("#sheet tfoot tr.totals td", "els => els.map(e => Number(e.textContent))")
    assert totals[:4] == result["totals"]
