"""The replay's analysis in a real browser: "Analiza" under the replay of a finished Lora
deal, "Računa se…" while the server computes, then the table of decisions with the
biggest mistakes marked; a row's click shows its step. Lórum counts chips and preferans
tricks (its bids and choices points); while a partie runs its players open the analysis
of its ended deals from the table, the others may not. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re

import pytest

from app.analysis.deal import analyse_deal
from app.parties.lookup import BOT_NAMES
from tests.support.archive import close_page, member, open_page, seed_partie, server  # noqa: F401
from tests.support.browser import register
from tests.support.ui import shot

WORD_CELLS = """rows => rows.map(r => ({
  step: Number(r.dataset.step), seat: Number(r.dataset.seat), mistake: r.classList.contains("mistake"),
  player: r.querySelector(".an-player").textContent,
  word: [...r.querySelectorAll(".an-word [data-card]")].map(c => c.dataset.card).join(" "),
  best: [...r.querySelectorAll(".an-best [data-card]")].map(c => c.dataset.card).join(" "),
  saved: r.querySelector(".an-saved").textContent}))"""


def a_deal_with_mistakes(record: dict) -> tuple[int, dict]:
    for k in range(4, len(record["deals"])):  # from Žandar tref on, random play errs somewhere
        analysis = analyse_deal(record, k)
        if any(r["mistake"] for r in analysis["rows"]):
            return k, analysis
    raise AssertionError("random play made no mistake")


def test_the_analysis_of_a_finished_deal_marks_its_biggest_mistakes(browser, server, member):  # noqa: F811
    partie = seed_partie(server, member[0], "lora")
    players = [member[0], "AI 2", "AI 3", "AI 4"]
    k, expected = a_deal_with_mistakes(partie["engine"].to_record(players))
    # the page names the computer players as the screens do (the record keeps "AI n")
    players = [member[0], *(f"Računar {BOT_NAMES['pocetnik'][seat]}" for seat in (1, 2, 3))]
    pg = open_page(browser, member)
    pg.goto(f"{server.url}/archive/{partie['id']}#deal={k + 1}&step=0")
    pg.wait_for_selector("#replay .replay-hand")
    assert f"Analiza · Deljenje {k + 1}" in pg.inner_text("#analysis h2")
    pg.click("#analysis button.analysis-go")
    assert pg.inner_text("#analysis .analysis-status") == "Računa se…"  # the first answer is always 202
    pg.wait_for_selector("#analysis table.analysis-table", timeout=120_000)
    shown = pg.eval_on_selector_all("#analysis tbody tr", WORD_CELLS)
    rows = expected["rows"]
    assert [r["step"] for r in shown] == [r["step"] for r in rows]
    # the player column: a computer player's mark and short name (issue 39)
    assert [r["player"] for r in shown] == [players[r["seat"]].removeprefix("Računar ") for r in rows]
    assert [r["word"] for r in shown] == [r["word"] for r in rows]  # every choice of Lora's Club rules is a card
    assert [r["best"] for r in shown] == [r["best"] for r in rows]
    assert [float(re.sub(r"[^0-9.]", "", r["saved"])) for r in shown] == [r["saved"] for r in rows]
    mistakes = [r["step"] for r in rows if r["mistake"]]
    assert 1 <= len(mistakes) <= 3 and [r["step"] for r in shown if r["mistake"]] == mistakes
    worst = max(rows, key=lambda r: r["saved"])
    assert worst["step"] in mistakes and worst["saved"] > 0
    assert pg.locator("#analysis tr.mistake .mistake-mark").count() == len(mistakes)
    lost = pg.eval_on_selector_all("#analysis .an-lost", "els => els.map(e => e.textContent)")
    assert lost == [f"{players[s]} {x:g}" for s, x in enumerate(expected["lost"])]
    shot(pg, "replay-lora-analysis-1366")

    # a mistake's row shows its step in the replay, and is marked as the step shown
    pg.click(f"#analysis tr[data-step='{worst['step']}']")
    pg.wait_for_function(f"() => document.querySelector('#replay .step-no').textContent.startsWith('Korak {worst['step']} ')")
    assert pg.locator("#analysis tr.current").get_attribute("data-step") == str(worst["step"])
    log = pg.inner_text("#replay .replay-log")
    assert log.startswith(f"{players[worst['seat']]}:"), log
    # another deal: its own button again
    pg.click("#replay button[data-step='next-deal']")
    pg.wait_for_function(f"() => document.querySelector('#analysis h2').textContent.includes('Deljenje {k + 2}')")
    assert pg.locator("#analysis button.analysis-go").count() == 1
    assert pg.locator("#analysis table").count() == 0
    close_page(pg)

    # in English, the cached analysis comes at once
    pg = open_page(browser, member)
    pg.goto(f"{server.url}/archive/{partie['id']}?lang=en#deal={k + 1}&step=0")
    pg.wait_for_selector("#replay .replay-hand")
    pg.click("#analysis button:has-text('Analysis')")
    pg.wait_for_selector("#analysis table.analysis-table")
    assert pg.locator("#analysis tbody tr").count() == len(rows)
    assert "Points lost" in pg.inner_text("#analysis thead")
    close_page(pg)


def test_a_player_opens_the_analysis_of_an_ended_deal_while_the_partie_runs_and_a_kibic_may_not(browser, server, member):  # noqa: F811
    """The table's deals list links each ended deal to its analysis (the archive's replay at
    that deal, the analysis asked for at once); the replay shows the ended deals only. A
    member who does not play sees no analysis there, and the API refuses him."""
    running = seed_partie(server, member[0], "lora", stop=lambda e: e.deal_index >= 2 and e.seats_to_act() == [0])
    players = [member[0], "AI 2", "AI 3", "AI 4"]
    record = running["engine"].to_record(players)
    expected = analyse_deal(record, 1)  # the second deal has ended; the third is being played
    pg = open_page(browser, member)
    pg.goto(f"{server.url}/table/{running['id']}")
    pg.click("button.tab-button[data-tab='deals']")
    links = pg.locator("a.deal-analysis")
    links.first.wait_for()
    assert sorted(links.evaluate_all("as => as.map(a => a.dataset.deal)")) == ["0", "1"]  # ended deals only
    link = pg.locator("a.deal-analysis[data-deal='1']")
    assert link.inner_text() == "2" and link.get_attribute("title") == "Analiza deljenja 2"  # the deal's number
    shot(pg, "table-deals-analysis-links-1366")
    link.click()
    pg.wait_for_url(f"**/archive/{running['id']}#deal=2*")
    pg.wait_for_selector("#analysis table.analysis-table", timeout=120_000)
    assert "Analiza · Deljenje 2" in pg.inner_text("#analysis h2")
    shown = pg.eval_on_selector_all("#analysis tbody tr", WORD_CELLS)
    assert [(r["step"], r["word"], r["best"]) for r in shown] == [(r["step"], r["word"], r["best"]) for r in expected["rows"]]
    # the replay offers the two ended deals, not the one in play
    assert pg.locator("#replay select.deal-pick option").count() == 2
    assert pg.locator("#replay button[data-step='next-deal']").is_disabled()
    shot(pg, "replay-running-partie-analysis-1366")
    close_page(pg)

    # a member who does not play in it: the replay, but no analysis
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    kibic = ctx.new_page()
    register(kibic, server, "kibic")
    kibic.goto(f"{server.url}/archive/{running['id']}#deal=2&step=0&analysis=1")
    kibic.wait_for_selector("#replay .replay-hand")
    assert kibic.locator("#analysis").count() == 0
    assert kibic.get_by_role("button", name="Analiza").count() == 0
    answer = kibic.evaluate(f"""() => fetch("/api/parties/{running['id']}/deals/1/analysis")
        .then(async r => [r.status, (await r.json()).error.code])""")
    assert answer == [403, "not_a_player"]
    kibic.goto(f"{server.url}/table/{running['id']}")
    kibic.click("button.tab-button[data-tab='deals']")
    kibic.wait_for_selector(".deal-list tbody tr")
    assert kibic.locator("a.deal-analysis").count() == 0
    ctx.close()


@pytest.mark.parametrize("game, settings, lost", [("lorum", {}, "Izgubljeni žetoni"),
                                                   ("preferans", {"bule": 30, "refe": 1}, "Izgubljeni štihovi")])
def test_lorum_counts_what_a_card_lost_in_chips_and_preferans_in_tricks(browser, server, member, game, settings, lost):  # noqa: F811
    """The same table of decisions; its words say žetoni (Lórum) or štihovi (preferans)."""
    # A fixed seed: random play can leave a preferans partie without a played hand for long.
    partie = seed_partie(server, member[0], game, settings, seed=f"analysis-{game}")
    players = [member[0], "AI 2", "AI 3", "AI 4"][:partie["engine"].n_seats]
    record = partie["engine"].to_record(players)
    k = next(k for k in range(3, len(record["deals"])) if any(r["values"] for r in analyse_deal(record, k)["rows"]))
    expected = analyse_deal(record, k)
    pg = open_page(browser, member)
    pg.goto(f"{server.url}/archive/{partie['id']}#deal={k + 1}&step=0")
    pg.wait_for_selector("#replay .replay-hand")
    assert lost in pg.inner_text("#analysis .analysis-note")
    pg.click("#analysis button.analysis-go")
    pg.wait_for_selector("#analysis table.analysis-table", timeout=120_000)
    shown = pg.eval_on_selector_all("#analysis tbody tr", WORD_CELLS)
    assert [r["step"] for r in shown] == [r["step"] for r in expected["rows"]]
    valued = [(s["word"], s["best"], r["word"], r["best"]) for s, r in zip(shown, expected["rows"]) if r["values"] and "unit" not in r]
    assert valued and all(sw == w and sb == b for sw, sb, w, b in valued)  # the cards as cards
    words = pg.eval_on_selector_all("#analysis tbody tr", "rows => rows.map(r => [r.querySelector('.an-word').textContent, r.querySelector('.an-best').textContent, r.querySelector('.an-saved').textContent])")
    for (word, best, saved), r in zip(words, expected["rows"]):
        assert word and (best == "nije analizirano") == (r["values"] is None)
        assert (" poena" in saved) == ("unit" in r)  # preferans' bids and choices: in points
    assert lost in pg.inner_text("#analysis thead")
    # a column per unit, named by what it holds (issue 39): preferans' bids in points apart
    heads = pg.eval_on_selector_all("#analysis thead th[data-unit]", "els => els.map((e) => [e.dataset.unit, e.textContent])")
    units = sorted({r["unit"] for r in expected["rows"] if "unit" in r})
    assert heads == [[{"lorum": "chips", "preferans": "tricks"}[game], lost]] + [[u, "Izgubljeni poeni (licitacija i izbori)"] for u in units]
    assert pg.inner_text("#analysis .analysis-lost").startswith(f"{lost} u ovom deljenju:")
    in_points = [r for r in expected["rows"] if "unit" in r]
    assert bool(in_points) == (game == "preferans")
    if in_points:  # their sums apart, and how they are valued
        assert pg.inner_text("#analysis .analysis-lost-other").startswith("Izgubljeni poeni u licitaciji i izborima ovog deljenja:")
        assert "očekivanom rezultatu igrača" in pg.inner_text("#analysis .analysis-method")
        units = pg.eval_on_selector_all("#analysis tbody tr", "rows => rows.map(r => r.dataset.unit)")
        assert units == [r.get("unit", "") for r in expected["rows"]]
    shot(pg, f"replay-{game}-analysis-1366")
    close_page(pg)
