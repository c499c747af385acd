"""House rules in a real browser: a member proposes Croatian Lora and a partie with the
contract choice and the extra deals from the lobby's form and plays each to its end
against three computer players: he names his contracts, says his predictions, turns his
blind cards, and the sheets count the house rules' deals their way.

The fixtures are tests/conftest.py's, the helpers tests/support/browser.py's (Playwright, Debian's Chromium).
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser import play_to_end, register
from tests.support.ui import shot

CARD = re.compile(r"^[789TJQKA][SDHC]$")


def _propose(page, **settings: str) -> str:
    page.check("#propose-form input[name=game][value=lora]")
    page.select_option("#propose-form select[name='lora.variant']", settings.pop("variant"))
    for name in settings:
        page.check(f"#propose-form input[name='lora.{name}']")
    for i in (1, 2, 3):
        page.select_option(f"select[name=seat{i}]", "bot")
        page.select_option(f"select[name=seat{i}_bot]", "pocetnik")
    page.click("#propose-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/table/\d+$"))
    return page.url.rsplit("/", 1)[1]


@pytest.mark.soak  # a whole partie in the browser: make soak (CI runs it)
def test_a_croatian_partie_with_predictions_and_blind_deals(page, server):  # noqa: F811
    register(page, server, "hrvat")
    partie_id = _propose(page, variant="hrvatska")
    page.wait_for_selector("#sheet table.lora-sheet")
    assert page.locator("#sheet tbody tr").count() == 32
    assert "Hrvatska lora" in page.inner_text(".table-rules")
    seen = {"prognoza": 0, "slepi": 0}

    def on_deal(t):
        deal = t["view"]["deal"]
        assert page.inner_text("#table-info .deal-no").endswith("od 32")
        if all(w.startswith("prognoza ") for w in t["legal"]):
            words = page.locator("#controls button.word[data-word^='prognoza ']")
            assert words.count() == 9 == len(t["legal"])  # 0 to 8 tricks
            if not seen["prognoza"]:
                shot(page, "hrvatska-prognoza")
            seen["prognoza"] += 1
            return words.nth(deal["index"] % 9)
        if deal.get("blind"):
            # face down: no card of mine in the page, only how many are left, and the top
            # card is turned by a button
            assert deal["hand"] == [] and len(t["legal"]) == 1 and CARD.match(t["legal"][0])
            assert page.locator("#hand .card").count() == 0
            assert t["legal"][0] not in t["dom"]
            assert page.locator("#seat-me .backs").count() == 1
            if not seen["slepi"]:
                shot(page, "hrvatska-slepi")
            seen["slepi"] += 1
            return page.locator(f"#controls button.word[data-word='{t['legal'][0]}']")
        predictions = deal.get("predictions")
        if predictions and predictions[t["seat"]] is not None:
            assert f"{predictions[t['seat']]}" in page.inner_text("#seat-me .prediction")
        return None

    end = play_to_end(page, on_deal)
    assert seen["prognoza"] == 4 and seen["slepi"] == 4 * 8  # one of each per dealer; eight blind cards each
    result = end["view"]["result"]
    assert len(result["deals"]) == 32 and end["view"]["highest_wins"] is True
    page.wait_for_selector(".partie-over")
    shot(page, "hrvatska-finished")
    totals = page.eval_on_selector_all("#sheet tfoot tr.totals td", "els => els.map(e => Number(e.textContent))")
    assert totals == result["totals"]
    # positive points are good: a plus is drawn as good, and the highest total is first
    assert page.locator("#sheet td.pts.good").count() >= 1
    best = max(range(4), key=lambda s: result["totals"][s])
    assert result["places"][best] == 1
    names = page.eval_on_selector_all("#sheet tbody td.contract", "els => els.map(e => e.textContent)")
    assert names[:8] == ["Što više", "Što manje", "Kralj herc i zadnji štih", "Babe", "Herc", "Lora", "Prognoza", "Slepi"]
    page.goto(server.url + f"/archive/{partie_id}#deal=32")
    page.wait_for_selector("#final-sheet table.lora-sheet")
    assert "Hrvatska lora" in page.inner_text("h1 + .archive-meta")


@pytest.mark.soak  # a whole partie in the browser: make soak (CI runs it)
def test_contract_choice_with_extra_deals(page, server):  # noqa: F811
    register(page, server, "birac")
    _propose(page, variant="klub", izbor="on", dodatni="on")
    page.wait_for_selector("#sheet table.lora-sheet")
    assert page.locator("#sheet tbody tr").count() == 32
    chosen: list[str] = []

    def on_deal(t):
        if not all(w.startswith("ugovor ") for w in t["legal"]):
            return None
        deal = t["view"]["deal"]
        words = page.locator("#controls button.word[data-word^='ugovor ']")
        assert words.count() == len(t["legal"]) == len(deal["choices"])
        labels = [words.nth(i).inner_text() for i in range(words.count())]
        for word, label in zip(t["legal"], labels):  # each button names its contract
            assert deal["choice_titles"][word.split()[1]] in label, (word, label)
        if not chosen:
            shot(page, "izbor-choice")
        word = t["legal"][-1]
        chosen.append(word.split()[1])
        return page.locator(f"#controls button.word[data-word='{word}']")

    end = play_to_end(page, on_deal)
    # seven own choices, each contract once, and one more in the extra deals
    assert len(chosen) == 8 and len(set(chosen[:7])) == 7
    assert len(end["view"]["result"]["deals"]) == 32
    page.wait_for_selector(".partie-over")
    shot(page, "izbor-finished")
    names = page.eval_on_selector_all("#sheet tbody td.contract", "els => els.map(e => e.textContent)")
    assert "?" not in names and len(names) == 32, "|".join(names)
