"""The archive's replay in a real browser (Playwright driving Debian's Chromium).

Lora's layout and Lórum's Domino are drawn as the four suit rows of the table; the sheet
or papir beside the replay is the one after the replayed deal; a finished partie opens on
its final reckoning (the replay from the first deal on request), an unfinished partie's
replay on its first deal, and the page remembers the deal and step it shows; the archive
list gives each partie's date and result line.

The parties are written straight into the live server's database: a member's seat and
three (or two) computer seats, the log of a partie of random legal words, so the tests
need not play 28 deals first. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
import secrets

import pytest

from tests.support.archive import (  # noqa: F401 (its fixtures)
    WIDE,
    close_page,
    member,
    open_page,
    random_log,
    seed_partie,
    server,
)
from tests.support.ui import shot

PHONE = {"width": 390, "height": 844}
LAYOUT_DEAL = 6  # the seventh deal: Lora's layout (contract 7), Lórum's Domino
SUIT_ROWS = ["S", "H", "C", "D"]  # the order the table draws the layout's rows in


def seed_of_deals(game: str, settings: dict, deals: int) -> str:
    """A fresh seed whose random partie plays at least ``deals`` deals: a preferans partie of
    random words (kontra upon kontra) sometimes ends its bule in two hands."""
    from app.games.registry import descriptor

    settings = descriptor(game).normalize_settings(settings)
    while True:
        seed = secrets.token_hex(16)
        engine, _ = random_log(game, seed, settings)
        if engine.deal_index >= deals:
            return seed


def result_after(game: str, partie: dict, k: int) -> dict:
    """The engine's result after deal ``k`` of a seeded partie (every word up to its end)."""
    from app.parties.engines import new_engine

    engine = new_engine(game, partie["settings"], partie["seed"])
    for seat, word in partie["log"]:
        if engine.deal_index > k or engine.finished:
            break
        engine.apply(seat, word)
    return engine.result()


def replay_state(pg) -> dict:
    return pg.evaluate("""() => {
      const box = document.getElementById("replay");
      return {title: (box.querySelector(".replay-title") || {}).textContent || "",
              step: (box.querySelector(".step-no") || {}).textContent || "", hash: location.hash};
    }""")


def from_first_deal(pg) -> None:
    """A finished partie opens on its final reckoning: replay it from the first deal."""
    pg.click("#replay button[data-step='first-deal']")
    pg.wait_for_function("() => document.querySelector('#replay select.deal-pick').value === '0'")


def goto_deal(pg, k: int) -> None:
    """Forward to deal ``k`` with the replay's own buttons (deal 1 is shown first)."""
    for n in range(1, k + 1):
        pg.click("#replay button[data-step='next-deal']")
        pg.wait_for_function(f"() => /\\b{n + 1} od 28/.test(document.querySelector('#replay .replay-title').textContent)")


def layout_rows(pg) -> list[dict]:
    return pg.eval_on_selector_all(
        "#replay .replay-mid .layout-row",
        "rows => rows.map(r => ({suit: r.dataset.suit, cards: [...r.querySelectorAll('[data-card]')].map(c => c.dataset.card)}))",
    )


def check_layout(pg, actions: list, n: int) -> None:
    """The replay's layout after ``n`` words of the deal: four suit rows (spades, hearts,
    clubs, diamonds, as the table draws them), each holding that suit's cards played so far."""
    played = [w for _, w in actions[:n] if w != "dalje"]
    rows = layout_rows(pg)
    assert [r["suit"] for r in rows] == SUIT_ROWS, rows
    for r in rows:
        assert all(c[1] == r["suit"] for c in r["cards"]), r
        assert sorted(r["cards"]) == sorted(c for c in played if c[1] == r["suit"]), r
    start = pg.inner_text("#replay .replay-mid .layout-start")
    assert start.endswith("10" if played[0][0] == "T" else played[0][0]), start


@pytest.mark.parametrize("game", ["lora", "lorum"])
def test_the_layout_deal_is_replayed_as_four_suit_rows(browser, server, member, game):  # noqa: F811
    partie = seed_partie(server, member[0], game)
    record = partie["engine"].to_record(["a", "b", "c", "d"])
    actions = record["deals"][LAYOUT_DEAL]["actions"]
    for viewport, size in ((WIDE, "1366"), (PHONE, "390")):
        pg = open_page(browser, member, viewport)
        pg.goto(f"{server.url}/archive/{partie['id']}")
        pg.wait_for_selector("#replay .replay-hand")
        from_first_deal(pg)
        goto_deal(pg, LAYOUT_DEAL)
        # halfway through the deal: rows of several cards, the card just played marked
        half = len(actions) // 2
        for _ in range(half):
            pg.click("#replay button[data-step='next']")
        pg.wait_for_function(f"() => document.querySelector('#replay .step-no').textContent.startsWith('Korak {half} ')")
        check_layout(pg, actions, half)
        seat, word = actions[half - 1]
        if word != "dalje":
            assert pg.locator(f"#replay .layout-row .card.just[data-card='{word}']").count() == 1
        shot(pg, f"replay-{game}-layout-{size}")
        # at its end every card played lies in its suit's row
        pg.click("#replay button[data-step='end']")
        check_layout(pg, actions, len(actions))
        close_page(pg)


@pytest.mark.parametrize("game", ["lora", "preferans"])
def test_the_sheet_beside_the_replay_is_the_one_after_the_replayed_deal(browser, server, member, game):  # noqa: F811
    settings = {"bule": 30, "refe": 1} if game == "preferans" else {}
    partie = seed_partie(server, member[0], game, settings, seed=seed_of_deals(game, settings, 4))
    final = partie["engine"].result()
    for viewport, size in ((WIDE, "1366"), (PHONE, "390")):
        pg = open_page(browser, member, viewport)
        pg.goto(f"{server.url}/archive/{partie['id']}")
        pg.wait_for_selector("#replay .replay-hand")
        from_first_deal(pg)
        for k in (0, 1, 2):
            if k:
                pg.click("#replay button[data-step='next-deal']")
            after = result_after(game, partie, k)
            if game == "lora":
                pg.wait_for_function(f"() => document.querySelectorAll('#final-sheet td.pts:not(.empty)').length === {4 * (k + 1)}")
                totals = pg.eval_on_selector_all("#final-sheet tfoot tr.totals td", "els => els.map(e => Number(e.textContent))")
                assert totals == after["totals"] != final["totals"]
                current = pg.eval_on_selector_all("#final-sheet tbody tr.current", "els => els.map(e => e.dataset.deal)")
                assert current == [str(k)]
            else:
                expected = [str(x) for x in after["results"]]
                pg.wait_for_function(
                    "(want) => JSON.stringify([...document.querySelectorAll('#final-sheet .p-result b')]"
                    ".map(e => e.textContent)) === JSON.stringify(want)", arg=expected)
                assert after["results"] != final["results"]
                assert pg.locator("#final-sheet .p-place").count() == 0  # no places before the end
            assert f"{k + 1}" in pg.inner_text("#final-sheet .sheet-after")
            if k == 1:
                shot(pg, f"replay-{game}-sheet-{size}")
                # each game's own word for a deal: preferans plays hands (ruke)
                words = {"lora": ("Deljenje", "Sledeće deljenje"), "preferans": ("Ruka", "Sledeća ruka")}[game]
                assert pg.inner_text("#replay .deal-pick-label").startswith(words[0])
                assert pg.inner_text("#replay button[data-step='next-deal']").startswith(words[1])
        close_page(pg)


def test_an_unfinished_partie_is_replayed_from_its_first_deal_and_the_page_remembers_where(browser, server, member):  # noqa: F811
    partie = seed_partie(server, member[0], "lora", stop=lambda e: e.deal_index >= 9 and e.seats_to_act() == [0])
    assert not partie["engine"].finished
    pg = open_page(browser, member)
    pg.goto(f"{server.url}/archive/{partie['id']}")
    pg.wait_for_selector("#replay .replay-hand")
    state = replay_state(pg)
    assert "1 od 28" in state["title"] and state["step"].startswith("Korak 0 "), state
    goto_deal(pg, 3)
    assert pg.evaluate("() => document.activeElement.dataset.step") == "next-deal"  # the focus stays
    for _ in range(5):
        pg.click("#replay button[data-step='next']")
    pg.wait_for_function("() => document.querySelector('#replay .step-no').textContent.startsWith('Korak 5 ')")
    assert re.fullmatch(r"#deal=4&step=5", replay_state(pg)["hash"])
    # a reload, and a visit without the hash in the same tab, come back to deal 4, step 5
    for url in (pg.url, f"{server.url}/archive/{partie['id']}"):
        pg.goto(server.url + "/archive")
        pg.goto(url)
        pg.wait_for_function("() => document.querySelector('#replay .step-no') && "
                             "document.querySelector('#replay .step-no').textContent.startsWith('Korak 5 ')")
        assert "4 od 28" in replay_state(pg)["title"]
    # the sheet beside it is the one after deal 4
    assert pg.locator("#final-sheet td.pts:not(.empty)").count() == 16
    close_page(pg)
    # another tab (a new session storage) without the hash opens on the first deal again
    pg = open_page(browser, member)
    pg.goto(f"{server.url}/archive/{partie['id']}")
    pg.wait_for_selector("#replay .replay-hand")
    assert "1 od 28" in replay_state(pg)["title"]
    close_page(pg)


@pytest.mark.parametrize("game", ["lora", "preferans"])
def test_a_finished_partie_opens_on_its_final_reckoning(browser, server, member, game):  # noqa: F811
    settings = {"bule": 30, "refe": 1} if game == "preferans" else {}
    partie = seed_partie(server, member[0], game, settings, seed=seed_of_deals(game, settings, 4))
    final = partie["engine"].result()
    deals = len(partie["engine"].to_record(["a", "b", "c", "d"][:len(final["places"])])["deals"])
    pg = open_page(browser, member)
    pg.goto(f"{server.url}/archive/{partie['id']}")
    # the sheet as it ended, with the places, beside the end of the last deal
    pg.wait_for_selector("#final-sheet .sheet-final")
    assert pg.inner_text("#final-sheet .sheet-final") == "Konačan obračun"
    if game == "preferans":
        assert pg.eval_on_selector_all("#final-sheet .p-result b", "els => els.map(e => Number(e.textContent))") == \
            final["results"]
        places = pg.eval_on_selector_all("#final-sheet > .reckoning-box tr.places td", "els => els.map(e => e.textContent)")
    else:
        assert pg.eval_on_selector_all("#final-sheet tfoot tr.totals td", "els => els.map(e => Number(e.textContent))") \
            == final["totals"]
        places = pg.eval_on_selector_all("#final-sheet tr.places td", "els => els.map(e => e.textContent)")
    assert places == [f"{p}." for p in final["places"]]
    assert pg.eval_on_selector("#replay select.deal-pick", "e => e.value") == str(deals - 1)
    step = pg.inner_text("#replay .step-no")
    last = step.rsplit("/", 1)[1].strip()
    assert step.endswith(f"{last} / {last}"), step
    shot(pg, "archive-first-view" if game == "lora" else "archive-first-view-preferans")
    # the replay from the first deal, on request
    from_first_deal(pg)
    assert pg.inner_text("#replay .step-no").startswith("Korak 0 ")
    assert pg.locator("#final-sheet .sheet-final").count() == 0
    assert "1" in pg.inner_text("#final-sheet .sheet-after")
    close_page(pg)
    # the archive list: its date and its result line, the first place first
    pg = open_page(browser, member)
    for lang, date in (("sr-Latn", r"\d{1,2}\. \d{1,2}\. \d{4}\."), ("en", r"\d{1,2} [A-Z][a-z]{2} \d{4}")):
        pg.goto(f"{server.url}/archive?lang={lang}")
        row = pg.locator(f"tr[data-partie='{partie['id']}']")
        assert re.fullmatch(date, row.locator(".archive-date").inner_text().strip()), lang
        line = row.locator(".result-line").inner_text()
        points = final.get("results") or final["totals"]
        first = min(range(len(points)), key=lambda s: (final["places"][s], s))
        assert line.startswith("1. "), line
        assert line.count(" · ") == len(points) - 1 and str(points[first]) in line.split(" · ")[0], line
    close_page(pg)


def test_the_replay_says_why_a_makk_deal_ended(browser, server, member):  # noqa: F811
    """Issue 23, item 2 in the archive: at the end of a replayed deal the table's deal-end
    box (lora.js's own) names makk's three payers and their reasons; not before the end."""
    partie = seed_partie(server, member[0], "lorum", {"makk": True})
    engine = partie["engine"]
    k = next(i for i, d in enumerate(engine.result()["deals"]) if d["contract"] == "makk")
    end = engine.deal_end(k)
    pg = open_page(browser, member)
    pg.goto(f"{server.url}/archive/{partie['id']}#deal={k + 1}&step=0")
    pg.wait_for_function("() => /Korak 0 /.test((document.querySelector('#replay .step-no') || {}).textContent || '')")
    assert "Makk" in pg.inner_text("#replay .replay-title")
    assert pg.locator("#replay .replay-end").count() == 0  # the deal has not ended yet
    pg.click("#replay button[data-step='end']")
    box = "#replay .replay-end .deal-end[data-contract='makk']"
    pg.wait_for_selector(f"{box} li[data-code='makk_opposite_jack']")
    players = pg.evaluate("() => JSON.parse(document.getElementById('sheet-data').textContent).players")
    by_code = {r["code"]: r for r in end["reasons"]}
    assert set(by_code) == {"makk_king", "makk_last_trick", "makk_opposite_jack"}
    king = pg.inner_text(f"{box} li[data-code='makk_king']")
    assert players[by_code["makk_king"]["seat"]] in king and "K♥" in king and "−10" in king, king
    last = pg.inner_text(f"{box} li[data-code='makk_last_trick']")
    assert players[by_code["makk_last_trick"]["seat"]] in last and "poslednji štih" in last, last
    jack = pg.inner_text(f"{box} li[data-code='makk_opposite_jack']")
    opposite = by_code["makk_opposite_jack"]
    assert players[opposite["seat"]] in jack and players[opposite["taker"]] in jack, jack
    assert "J♣" in jack and "preko puta" in jack, jack
    assert "Banka +30" in pg.inner_text(f"{box} .de-points")
    assert pg.inner_text(f"{box} .de-title").startswith(f"Deljenje {k + 1} · Makk")
    shot(pg, "archive-makk-deal-end")
    # a step back: the deal is not over, its end is not shown
    pg.click("#replay button[data-step='prev']")
    pg.wait_for_function("() => !document.querySelector('#replay .replay-end')")
    close_page(pg)
