"""The preferans table and the paper in a real browser.

Pera plays in Chromium; Mika and Laza say their words over the API, so every hand goes
where the test wants it: a zovem answered by an accepted ``nudim 4``, a single follower
(``sam``) beside a ``ne pratim``, a kontra, then an otpis ends the partie. The page must
show how each seat takes part in the hand, the contracts in the order of their values
with their suits, the running result explained, the hand-by-hand list beside the papir,
the final reckoning, and on a 390 px phone large buttons, one row of cards and the papir
one tap away. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
import time

from tests.support.browser import register, table
from tests.support.ui import shot
from tests.support.web import PASSWORD as API_PASSWORD
from tests.support.web import member, wait_for

CARD = re.compile(r"^[789TJQKA][SDHC]$")
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def poll(predicate, what: str):
    """Wait on a state (never on a time): the predicate's value once true (or fail)."""
    try:
        return wait_for(predicate, timeout=20, step=0.03)
    except AssertionError:
        raise AssertionError(f"timed out waiting for {what}") from None


def api_say(client, pid: int, choose) -> str:
    """Say a word for an API seat as soon as it is legal: ``choose`` is the word, or a
    function of the legal words returning one (or None while there is none)."""
    def ready():
        st = client.get(f"/api/parties/{pid}/legal").json()
        word = choose(st["legal"]) if callable(choose) else (choose if choose in st["legal"] else None)
        return (word, st["version"]) if word else None

    word, version = poll(ready, f"{choose!r} to be legal")
    r = client.post(f"/api/parties/{pid}/actions", json={"word": word, "version": version})
    assert r.status_code == 200, r.text
    return word


def first_card(legal: list[str]) -> str | None:
    return next((w for w in legal if CARD.match(w)), None)


def first_skart(legal: list[str]) -> str | None:
    return next((w for w in legal if w.startswith("skart ")), None)


def click_word(pg, word: str) -> None:
    """Pera says a word with its button, once it is his to say and the table is not pausing."""
    pg.wait_for_function(
        "(w) => Klub.table.canAct() && !Klub.table.pausing && Klub.table.legal.includes(w)"
        " && !!document.querySelector(`button.word[data-word='${w}']:not([disabled])`)", arg=word, timeout=20000)
    pg.click(f"button.word[data-word='{word}']:not([disabled])")
    pg.wait_for_function("(w) => !Klub.table.sending", arg=word, timeout=20000)


def version(pg) -> int:
    return pg.evaluate("() => Klub.table.version")


def wait_version(pg, v: int) -> None:
    """Pera's page has caught up with the table's version v (and is not pausing)."""
    pg.wait_for_function("(v) => Klub.table.version >= v && !Klub.table.pausing", arg=v, timeout=20000)


def api_version(client, pid: int) -> int:
    return client.get(f"/api/parties/{pid}/legal").json()["version"]


def role_of(pg, seat: int) -> dict | None:
    return pg.evaluate(
        "(s) => { const e = document.querySelector(`.seat[data-seat='${s}'] .chip.role`);"
        " return e ? {role: e.dataset.role, text: e.textContent} : null; }", seat)


def boxes(pg, selector: str) -> list[dict]:
    return pg.eval_on_selector_all(selector, "els => els.map(e => { const r = e.getBoundingClientRect();"
                                             " return {x: r.x, y: r.y, w: r.width, h: r.height, top: r.top + window.scrollY}; })")


PERA_PLAYS = "() => Klub.table.canAct() && !Klub.table.pausing && Klub.table.legal.some(w => /^[789TJQKA][SDHC]$/.test(w))"


def play_until_pera_plays(pera, pid: int, others, after_tricks: int) -> None:
    """Cards are played (pera's first legal card, the API seats' first legal card) until at
    least ``after_tricks`` tricks are done and it is pera's turn to play a card."""
    def api_card():
        for c in others:
            st = c.get(f"/api/parties/{pid}/legal").json()
            card = first_card(st["legal"])
            if card:
                r = c.post(f"/api/parties/{pid}/actions", json={"word": card, "version": st["version"]})
                assert r.status_code == 200, r.text
                return st["version"] + 1
        return None

    while True:
        if pera.evaluate(PERA_PLAYS):
            if pera.evaluate("() => Klub.table.view.hand.tricks.length") >= after_tricks:
                return
            before = version(pera)
            pera.click("#hand button.card.legal >> nth=0")
            wait_version(pera, before + 1)
        else:
            played = poll(lambda: api_card() or (pera.evaluate(PERA_PLAYS) and -1), "a card to be played")
            if played > 0:
                wait_version(pera, played)


def start_partie(server, pg):  # noqa: F811
    """Pera (in the browser) proposes over the API; Mika and Laza accept; pera opens the table."""
    stamp = int(time.time()) % 100000
    names = [f"pera{stamp}", f"mika{stamp}", f"laza{stamp}"]
    clients = [member(server.url, n) for n in names]
    r = clients[0].post("/api/parties", json={"game": "preferans", "settings": {"bule": 30, "refe": 0},
                                              "seats": [{"kind": "member", "name": n} for n in names[1:]]})
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    for c in clients[1:]:
        assert c.post(f"/api/parties/{pid}/accept").status_code == 200
    pg.goto(server.url + "/login")
    pg.fill("input[name=name]", names[0])
    pg.fill("input[name=password]", API_PASSWORD)
    pg.click("#auth-form button[type=submit]")
    pg.wait_for_url("**/lobby")
    pg.goto(f"{server.url}/table/{pid}")
    pg.wait_for_selector("#sheet .papir .p-player")
    return pid, names, clients


def test_preferans_table_and_paper(page, server):  # noqa: F811
    page.set_viewport_size(DESKTOP)
    pid, names, (_, mika, laza) = start_partie(server, page)
    pera = page
    # -- hand 1 (pera deals; mika bids first): pera plays herc, laza calls mika ------------
    api_say(mika, pid, "dalje")
    api_say(laza, pid, "dalje")
    click_word(pera, "2")
    pera.wait_for_selector("#skart-button")
    pera.click("#hand button.card >> nth=0")
    pera.click("#hand button.card >> nth=1")
    pera.click("#skart-button")
    # 8: the contracts in the order of their values, the suits with their symbols
    pera.wait_for_function("() => Klub.table.legal.includes('herc') && !!document.querySelector(\"button.word[data-word='herc']\")")
    words = pera.eval_on_selector_all("#controls .bid-box button.word", "els => els.map(e => e.dataset.word)")
    assert words == ["pik", "karo", "herc", "tref", "betl", "sans"]
    symbols = pera.eval_on_selector_all("#controls .bid-box button.word", "els => els.map(e => { const s = e.querySelector('.suit');"
                                                                         " return s ? s.textContent.trim()[0] : null; })")
    assert symbols == ["♠", "♦", "♥", "♣", None, None]
    # 8 on a phone: buttons of 44 px at least, the 10 cards in one or two even rows, the
    # papir one tap away near the top of the page
    pera.set_viewport_size(PHONE)
    assert pera.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for b in boxes(pera, "#controls button.word"):
        assert b["w"] >= 44 and b["h"] >= 44, b
    cards = boxes(pera, "#hand button.card")
    assert len(cards) == 10
    rows: dict[int, int] = {}
    for c in cards:
        rows[round(c["top"])] = rows.get(round(c["top"]), 0) + 1
        assert c["x"] >= 0 and c["x"] + c["w"] <= PHONE["width"], c
    assert len(rows) == 1 or (len(rows) == 2 and len(set(rows.values())) == 1), rows
    shot(pera, "preferans-contract-choice-390")
    toggle = boxes(pera, "#side-toggle")
    assert toggle and toggle[0]["top"] + toggle[0]["h"] <= 900 and toggle[0]["h"] >= 44, toggle
    pera.click("#side-toggle")
    pera.wait_for_selector("#sheet .papir .p-player")
    papir = boxes(pera, "#sheet .papir")[0]
    assert 0 <= papir["y"] < PHONE["height"], papir  # in view, nothing to scroll
    shot(pera, "preferans-papir-open-390")
    pera.click(".side-close")
    pera.wait_for_function("() => !document.getElementById('table-app').classList.contains('side-open')")
    pera.set_viewport_size(DESKTOP)
    shot(pera, "preferans-contract-choice-1366")
    click_word(pera, "herc")
    # issue 23, item 3: the contract's one-line hint under its name, the rules link to its section
    pera.wait_for_selector("#table-info .contract-hint")
    assert pera.inner_text("#table-info .contract-hint") == "adut herc; odigravač treba bar 6 štihova; prolaz −8 bula"
    assert pera.get_attribute(".table-links a[href^='/rules/']", "href") == "/rules/preferans?lang=sr-Latn#bule"
    api_say(mika, pid, "ne pratim")
    api_say(laza, pid, "zovem")
    wait_version(pera, api_version(laza, pid))
    # 5: the called player's seat says he was called and must play; the caller's whom he called
    called = role_of(pera, 1)
    assert called["role"] == "called" and names[2] in called["text"] and "mora da igra" in called["text"], called
    caller = role_of(pera, 2)
    assert caller["role"] == "caller" and names[1] in caller["text"], caller
    assert role_of(pera, 0) is None  # the declarer: his own chip
    # the first trick, and the next until pera is to play a card
    play_until_pera_plays(pera, pid, (mika, laza), after_tricks=1)
    # two cards on the table, the third to come: pera plays the first or the second
    on_table = pera.evaluate("() => Klub.table.view.hand.trick.length")
    if on_table < 2:
        before = version(pera)
        pera.click("#hand button.card.legal >> nth=0")
        wait_version(pera, before + 1)
        if on_table == 0:
            api_say(mika if pera.evaluate("() => Klub.table.toAct.includes(1)") else laza, pid, first_card)
            wait_version(pera, before + 2)
    assert pera.locator("#center .trick .card").count() == 2
    assert role_of(pera, 1)["role"] == "called"  # for the whole hand
    shot(pera, "preferans-hand-in-play-1366")
    pera.set_viewport_size(PHONE)
    shot(pera, "preferans-hand-in-play-390")
    pera.set_viewport_size(DESKTOP)
    # the declarer offers the caller 4 tricks: accepted, all four count to the caller (P9)
    click_word(pera, "nudim 4")
    api_say(laza, pid, "prihvatam")
    pera.wait_for_function("() => Klub.table.view.papir.lines.length === 1 && !Klub.table.pausing")
    line = pera.evaluate("() => Klub.table.view.papir.lines[0]")
    assert line["tricks"][0] == 6 and line["tricks"][2] == 4 and line["tricks"][1] == 0, line
    # 6: the running result, and how it is made, under the papir
    result = pera.evaluate("() => Klub.table.view.result")
    assert "Manje je bolje" in pera.inner_text("#sheet .p-explain")
    calcs = pera.eval_on_selector_all("#sheet .p-calc", "els => els.map(e => e.textContent.trim())")
    for s in range(3):
        against = sum(result["supe"][j][s] for j in range(3) if j != s)
        wrote = sum(result["supe"][s][j] for j in range(3) if j != s)
        assert calcs[s] == f"= 10 × {result['bule'][s]} + {against} − {wrote}", calcs
        assert result["results"][s] == 10 * result["bule"][s] + against - wrote
    # 7: the hand-by-hand list beside the papir
    pera.click("#sheet button[role=tab][data-tab='hands']")
    row = pera.locator("#sheet .hand-list tbody tr").nth(0)
    cells = row.locator("td").all_inner_texts()
    assert cells[0] == "1" and cells[1] == names[0] and cells[2].startswith("♥") and "herc" in cells[2], cells
    assert names[2] in cells[2] and names[1] in cells[2]  # who called whom
    assert cells[3].startswith("6 : 4") and f"{names[1]} 0" in cells[3] and f"{names[2]} 4" in cells[3], cells
    assert "prošao" in cells[4] and cells[5] == str(line["v"]), cells
    shot(pera, "preferans-hand-list-1366")
    pera.click("#sheet button[role=tab][data-tab='papir']")
    # -- hand 2 (mika deals; laza bids first and plays karo): pera plays alone, mika not ---
    api_say(laza, pid, "2")
    click_word(pera, "dalje")
    api_say(mika, pid, "dalje")
    api_say(laza, pid, first_skart)
    api_say(laza, pid, "karo")
    click_word(pera, "pratim")
    api_say(mika, pid, "ne pratim")
    click_word(pera, "sam")
    wait_version(pera, api_version(laza, pid))
    single, out = role_of(pera, 0), role_of(pera, 1)
    assert single["role"] == "single" and single["text"] == "igra sam", single
    assert out["role"] == "out" and out["text"] == "ne prati", out
    assert pera.locator(".seat[data-seat='1'] .speech").count() == 0  # no stale "ne pratim" bubble beside it
    api_say(laza, pid, "nosim sve")
    pera.wait_for_selector(".offer-dialog button.word[data-word='prihvatam']")
    click_word(pera, "prihvatam")
    pera.wait_for_function("() => Klub.table.view.papir.lines.length === 2 && !Klub.table.pausing")
    # -- hand 3 (laza deals; pera bids first): mika plays karo, laza gives a kontra ---------
    click_word(pera, "dalje")
    api_say(mika, pid, "2")
    api_say(laza, pid, "dalje")
    api_say(mika, pid, first_skart)
    api_say(mika, pid, "karo")
    api_say(laza, pid, "pratim")
    click_word(pera, "pratim")
    api_say(laza, pid, "kontra")
    api_say(mika, pid, "moze")
    wait_version(pera, api_version(mika, pid))
    kontra, follows = role_of(pera, 2), role_of(pera, 0)
    assert kontra["role"] == "kontra" and kontra["text"] == "kontra", kontra
    assert follows["role"] == "follows" and follows["text"] == "prati", follows
    shot(pera, "preferans-kontra-roles-1366")
    api_say(mika, pid, "nosim sve")
    api_say(laza, pid, "prihvatam")
    click_word(pera, "prihvatam")
    pera.wait_for_function("() => Klub.table.view.papir.lines.length === 3 && !Klub.table.pausing")
    # -- the otpis ends the partie ----------------------------------------------------------
    api_say(mika, pid, "otpis")
    api_say(laza, pid, "prihvatam")
    click_word(pera, "prihvatam")
    pera.wait_for_selector(".partie-over .reckoning")
    result = pera.evaluate("() => Klub.table.view.result")
    assert result["finished"]
    check_reckoning(pera, ".partie-over", names, result)
    shot(pera, "preferans-final-reckoning-1366")
    pera.set_viewport_size(PHONE)
    pera.locator(".partie-over .reckoning").scroll_into_view_if_needed()
    assert pera.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(pera, "preferans-final-reckoning-390")
    pera.set_viewport_size(DESKTOP)
    # the list of hands: three hands and the otpis
    pera.click("#sheet button[role=tab][data-tab='hands']")
    assert pera.locator("#sheet .hand-list tbody tr").count() == 4
    texts = pera.locator("#sheet .hand-list tbody tr").all_inner_texts()
    assert f"{names[0]}" in texts[1] and "igra sam" in texts[1] and "prošao" in texts[1], texts
    assert "kontra" in texts[2] and f"{names[2]} je pao" in texts[2], texts
    assert "Otpis" in texts[3], texts
    # on a phone: the list opens over the table and fits its width
    pera.set_viewport_size(PHONE)
    pera.click("#side-toggle")
    assert pera.is_visible("#sheet .hand-list")
    assert pera.evaluate("() => document.getElementById('side').scrollWidth") <= PHONE["width"]
    shot(pera, "preferans-hand-list-390")
    pera.keyboard.press("Escape")
    pera.wait_for_function("() => !document.getElementById('table-app').classList.contains('side-open')")
    pera.set_viewport_size(DESKTOP)
    # the archive: the papir with the final reckoning, and the list of hands beside it
    # (the archive opens on the first hand; the reckoning stands beside the last one)
    hands = len(pera.request.get(f"{server.url}/api/parties/{pid}/record").json()["deals"])
    pera.goto(f"{server.url}/archive/{pid}#deal={hands}")
    pera.wait_for_selector("#final-sheet .papir .p-player")
    check_reckoning(pera, "#final-sheet", names, result)
    shot(pera, "archive-preferans-reckoning")
    pera.click("#final-sheet button[role=tab][data-tab='hands']")
    assert pera.locator("#final-sheet .hand-list tbody tr").count() == 4
    assert pera.is_hidden("#final-sheet .papir")
    shot(pera, "archive-preferans-hand-list")


def check_reckoning(pg, root: str, names: list[str], result: dict) -> None:
    """The familiar form: per player 10 x bule, supe written to him (+) and by him (-) with
    each opponent, the result and the place, as section 15 makes them."""
    cells = pg.evaluate(
        "(root) => Object.fromEntries([...document.querySelectorAll(`${root} table.reckoning tbody tr`)]"
        ".map(tr => [tr.dataset.row, [...tr.querySelectorAll('td')].map(td => td.innerText.replace(/\\s+/g, ' ').trim())]))", root)
    assert pg.eval_on_selector_all(f"{root} table.reckoning thead th", "els => els.map(e => e.textContent)") == names  # the corner is a cell
    for s in range(3):
        others = [j for j in range(3) if j != s]
        against = sum(result["supe"][j][s] for j in others)
        wrote = sum(result["supe"][s][j] for j in others)
        assert cells["bule"][s] == f"{result['bule'][s]} × 10 = {10 * result['bule'][s]}", cells["bule"]
        signed = (f"+{against}" if against else "0", f"−{wrote}" if wrote else "0")
        assert cells["against"][s] == f"{signed[0]} " + " ".join(f"{names[j]} {result['supe'][j][s]}" for j in others), cells
        assert cells["for"][s] == f"{signed[1]} " + " ".join(f"{names[j]} {result['supe'][s][j]}" for j in others), cells
        assert cells["result"][s] == str(result["results"][s])
        assert cells["place"][s] == f"{result['places'][s]}."
    assert sorted(result["places"]) == [1, 2, 3]
    best = min(range(3), key=lambda s: result["results"][s])
    assert result["places"][best] == 1  # lower is better


def test_lora_deals_beside_the_score_sheet(page, server):  # noqa: F811
    """Item 7 for Lora: the deals played so far, the last first, in a tab beside the sheet."""
    page.set_viewport_size(DESKTOP)
    register(page, server, "lista")
    page.click("#quick-lora")  # against three computer players
    page.wait_for_url(re.compile(r".*/table/\d+$"))
    page.wait_for_selector("#sheet table.lora-sheet")
    page.click("#sheet button[role=tab][data-tab='deals']")
    assert page.is_visible("#sheet .hand-list-empty") and page.is_hidden("#sheet table.lora-sheet")
    page.click("#sheet button[role=tab][data-tab='sheet']")
    while page.evaluate("() => Klub.table.view.result.deals.length") < 1:
        page.wait_for_function("() => Klub.table.view.result.deals.length >= 1 || (Klub.table.canAct() && !Klub.table.pausing"
                               " && !!document.querySelector('#hand button.card.legal'))", timeout=30000)
        if page.evaluate("() => Klub.table.view.result.deals.length") >= 1:
            break
        before = version(page)
        page.click("#hand button.card.legal >> nth=0")
        page.wait_for_function("(v) => Klub.table.version > v", arg=before, timeout=15000)
    page.click("#sheet button[role=tab][data-tab='deals']")
    page.wait_for_selector("#sheet .deal-list")
    t = table(page)
    deals = t["view"]["result"]["deals"]
    rows = page.locator("#sheet .deal-list tbody tr")
    assert rows.count() == len(deals)
    first = rows.nth(0).locator("td").all_inner_texts()  # the last deal first
    k = len(deals) - 1
    assert first[0] == str(k + 1)
    assert [int(x) for x in first[2:6]] == deals[k]["points"]
    shot(page, "lora-deal-list")
