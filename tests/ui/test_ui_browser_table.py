"""The table as a seasoned player expects it, in Chromium.

- errors: readable (WCAG AA contrast measured from the computed colours) and kept until
  closed or replaced;
- the turn: a preferans declarer who may make an offer while an opponent plays is not
  told "Vi ste na potezu" (status, seat badge, title mark, sound follow the turn only);
- the last trick: it stays on the table until the next card, and a button (key L) shows
  it with who played what and who took it;
- the end of a hand: the ended hand's header and cards stay until its last trick has been
  seen; the end says why and names every number;
- the keyboard: a key for every legal word and card, focus kept in the decision area, a
  sensible tab order;
- the chat: in view at 1366x900 beside the sheet, an unread mark on a phone, no input for
  spectators;
- an absent player: the others see it, and each vote for a computer player, at once.

Screenshots (test-artifacts/): the table at 1366x900 and 390x844 with a preferans hand in
play, the last trick shown, an error. Tests wait on the page's state, never on time.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.support.browser import propose_against_bots, register, wait_sel
from tests.support.ui import ARTIFACTS, watched_page

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
CARD = re.compile(r"^[789TJQKA][SDHC]$")
OFFERS = {"nosim sve", "nemam pad", "nudim 2", "nudim 3", "nudim 4"}


def new_page(browser, viewport):
    return watched_page(browser, viewport)


def close(*pages):
    for pg in pages:
        assert not pg.js_errors, pg.js_errors
        pg.context.close()


def view_shot(page, name: str) -> None:
    """What the player sees: the viewport, not the whole page."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def until(page, js: str, timeout: int = 20000, arg=None) -> None:
    """Wait for a condition of the page (a function), saying what the table held on a timeout."""
    try:
        page.wait_for_function(js, arg=arg, timeout=timeout)
    except Exception:
        state = page.evaluate(
            "() => window.Klub && Klub.table ? JSON.stringify({seat: Klub.table.seat, legal: Klub.table.legal,"
            " toAct: Klub.table.toAct, version: Klub.table.version, pausing: !!Klub.table.pausing,"
            " status: document.getElementById('status-line').textContent}) : 'no table'"
        )
        raise AssertionError(f"not reached: {js}; table: {state}; errors: {page.js_errors}") from None


# -- contrast (WCAG 2.x) ------------------------------------------------------------------

def _rgba(css: str) -> tuple[float, float, float, float]:
    nums = [float(x) for x in re.findall(r"[\d.]+", css)]
    return (nums[0], nums[1], nums[2], nums[3] if len(nums) > 3 else 1.0)


def _luminance(rgb) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb[:3]
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast_ratio(page, selector: str) -> float:
    """The contrast of an element's text against its effective background: the background
    colours of it and its ancestors, composed from the nearest opaque one (the page: white)."""
    colours = page.evaluate(
        """(sel) => {
            const e = document.querySelector(sel);
            const layers = [];
            for (let n = e; n && n.nodeType === 1; n = n.parentElement) layers.push(getComputedStyle(n).backgroundColor);
            return {fg: getComputedStyle(e).color, layers};
        }""",
        selector,
    )
    layers = [_rgba(c) for c in colours["layers"]]
    base = (255.0, 255.0, 255.0)
    opaque = next((i for i, c in enumerate(layers) if c[3] >= 1), len(layers))
    if opaque < len(layers):
        base = layers[opaque][:3]
    for c in reversed(layers[:opaque]):  # the semi-transparent layers above it, nearest last
        a = c[3]
        base = tuple(c[k] * a + base[k] * (1 - a) for k in range(3))
    fg = _rgba(colours["fg"])
    fg_rgb = tuple(fg[k] * fg[3] + base[k] * (1 - fg[3]) for k in range(3))
    hi, lo = sorted((_luminance(fg_rgb), _luminance(base)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def count_renders(page) -> None:
    """``window.renders``: the table's redraws from now on (a redraw leaves the parts that did
    not change as they are, so it is counted by the table, not seen in the DOM)."""
    page.evaluate(
        "() => { const from = Klub.table.renders;"
        " Object.defineProperty(window, 'renders', {configurable: true, get: () => Klub.table.renders - from}); }"
    )


# -- item 1: errors -------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["1366x900", "390x844"])
def test_a_table_error_is_readable_and_stays_until_closed_or_replaced(browser, server, size):  # noqa: F811
    width, height = map(int, size.split("x"))
    page = new_page(browser, {"width": width, "height": height})
    register(page, server, "greska")
    propose_against_bots(page, server, "preferans")
    until(page, "() => Klub.table.view && Klub.table.seat === 0")
    # a word the server refuses: an error frame
    page.evaluate("() => Klub.live.send({type: 'action', word: 'no such word', version: Klub.table.version, id: 'err-1'})")
    wait_sel(page, "#table-error:not([hidden])")
    first = page.inner_text("#table-error-text")
    assert first in ("Taj potez sada nije dozvoljen.", "Niste na potezu."), first
    ratio = contrast_ratio(page, "#table-error-text")
    print(f"error text contrast at {size}: {ratio:.2f}:1")
    assert ratio >= 4.5, f"the error text's contrast is {ratio:.2f}:1"
    assert page.locator("#table-error").is_visible()
    box = page.locator("#table-error").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    view_shot(page, f"table-error-{size}")
    # a whole new picture from the server (a resync) is drawn: the error is still there
    count_renders(page)
    page.evaluate("() => Klub.live.resync()")
    until(page, "() => window.renders > 0")
    assert page.locator("#table-error").is_visible() and page.inner_text("#table-error-text") == first
    # the next error replaces it
    page.evaluate("() => Klub.live.send({type: 'chat', text: ''})")
    until(page, "(first) => document.getElementById('table-error-text').textContent !== first", arg=first)
    assert page.inner_text("#table-error-text") == "Ta poruka ne može da se pošalje."
    # closed by its button (or Escape)
    page.click("#table-error-close")
    assert page.locator("#table-error").is_hidden()
    page.evaluate("() => Klub.live.send({type: 'chat', text: ''})")
    wait_sel(page, "#table-error:not([hidden])")
    page.keyboard.press("Escape")
    assert page.locator("#table-error").is_hidden()
    close(page)


# -- items 2, 3, 4, 9, 10, 11: a preferans hand between three members --------------------

def press_key_of(page, selector: str) -> None:
    """Press the one-key shortcut shown on a control (never a click) and wait for the move."""
    key = page.locator(selector).first.get_attribute("data-key")
    assert key, f"{selector} shows no key"
    version = page.evaluate("() => Klub.table.version")
    page.keyboard.press(key.lower())
    until(page, f"() => Klub.table.version > {version}")


def say_by_key(page, word: str) -> None:
    press_key_of(page, f"button.word[data-word='{word}']:not([disabled])")


def play_first_card_by_key(page) -> None:
    press_key_of(page, "#hand button.card:not([disabled])")


def in_decision_area(page) -> bool:
    return page.evaluate(
        "() => ['controls', 'center', 'hand'].some((id) => document.getElementById(id).contains(document.activeElement))"
    )


def sync(pages) -> None:
    """Every page has drawn the latest move and ended its pause (nobody acts meanwhile)."""
    version = max(pg.evaluate("() => Klub.table.version") for pg in pages)
    for pg in pages:
        until(pg, f"() => Klub.table.version >= {version} && !Klub.table.pausing && !Klub.table.sending")


def pref_turn(page, policy: list[str]) -> str:
    """One move of the seat whose turn it is, by the keyboard (never an offer)."""
    legal = page.evaluate("() => Klub.table.legal")
    if page.locator("#skart-button").count():
        for i in (0, 1):  # the first two cards by their keys, then Discard by its key
            page.keyboard.press(page.locator("#hand button.card").nth(i).get_attribute("data-key"))
        until(page, "() => !document.getElementById('skart-button').disabled")
        press_key_of(page, "#skart-button")
        return "skart"
    words = [w for w in legal if not CARD.match(w) and w not in OFFERS]
    for w in policy:
        if w in words:
            say_by_key(page, w)
            # focus stays in the decision area after a word
            assert in_decision_area(page), page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
            return w
    if any(CARD.match(w) for w in legal):
        play_first_card_by_key(page)
        return "card"
    say_by_key(page, words[0])
    return words[0]


DEAL_OVER_LOG = """() => {
    window.dealOver = [];
    new MutationObserver(() => {
        const d = document.querySelector('#center .deal-over');
        if (d) window.dealOver.push({header: (document.querySelector('#table-info .deal-no') || {}).textContent,
                                     text: d.textContent, cards: document.querySelectorAll('#hand .card').length});
    }).observe(document.getElementById('center'), {childList: true, subtree: true});
}"""


def test_preferans_hand_turns_last_trick_end_keyboard_chat_and_absence(browser, server):  # noqa: F811
    pera, mika = new_page(browser, DESKTOP), new_page(browser, DESKTOP)
    laza = new_page(browser, PHONE)
    pages = [pera, mika, laza]
    names = [register(pg, server, prefix) for pg, prefix in zip(pages, ("pera", "mika", "laza"))]
    pera.goto(server.url + "/lobby")
    pera.check("#propose-form input[name=game][value=preferans]")
    pera.select_option("select[name='preferans.bule']", "30")
    pera.select_option("select[name='preferans.refe']", "0")
    for i, other in ((1, names[1]), (2, names[2])):
        pera.select_option(f"select[name=seat{i}]", "member")
        pera.fill(f"input[name=seat{i}_name]", other)
    # item 11: with members the form's default timer is 60 s
    assert pera.eval_on_selector("select[name=timer]", "s => s.value") == "auto"
    pera.click("#propose-form button[type=submit]")
    pera.wait_for_url("**/lobby?proposed=*")
    for pg in (mika, laza):
        pg.goto(server.url + "/lobby")
        pg.wait_for_selector("#lobby-live .invitation button.accept")
        pg.click("#lobby-live .invitation button.accept")
    laza.wait_for_url(re.compile(r".*/table/\d+$"))
    table_url = laza.url
    for pg in (pera, mika):
        pg.goto(table_url)
    for pg in pages:
        wait_sel(pg, "#sheet .papir .p-player")
        pg.evaluate(DEAL_OVER_LOG)
    assert pera.evaluate("() => Klub.table.timer") == 60

    # item 10: the chat is in view at 1366x900 beside the papir, without scrolling
    chat_box = pera.locator("#chat-form input[name=text]").bounding_box()
    assert chat_box and chat_box["y"] + chat_box["height"] <= DESKTOP["height"], chat_box
    # on the phone the chat is out of view: a message marks it unread until it is looked at
    assert laza.locator("#chat-unread").is_hidden()
    pera.fill("#chat-form input[name=text]", "Dobro veče")
    pera.press("#chat-form input[name=text]", "Enter")
    wait_sel(laza, "#chat-unread:not([hidden])")
    assert laza.inner_text("#chat-unread") == "1"
    assert pera.locator("#chat-unread").is_hidden()  # his own message, in view
    view_shot(laza, "preferans-chat-unread-390x844")
    laza.keyboard.press("c")  # the chat key: the chat in view, its input focused
    until(laza, "() => document.activeElement === document.querySelector('#chat-form input[name=text]')")
    until(laza, "() => document.getElementById('chat-unread').hidden")
    laza.keyboard.press("Escape")  # back to the decision area
    assert in_decision_area(laza)
    pera.keyboard.press("Escape")
    laza.evaluate("() => window.scrollTo(0, 0)")

    # item 9: tab order: the words of the decision area, then the table's tools, then the chat
    until(mika, "() => Klub.table.myTurn()")  # mika bids first
    order = mika.evaluate(
        """() => [...document.querySelectorAll('button, input, a[href], [tabindex]')]
            .filter((e) => e.tabIndex >= 0 && !e.disabled && e.offsetParent !== null)
            .map((e) => e.id || (e.dataset.word ? 'word' : e.dataset.card ? 'card' : e.name || e.tagName))"""
    )
    assert "word" in order and order.index("word") < order.index("chat-jump") < order.index("text"), order
    pera.evaluate("() => { window.beeps = []; Klub.beep = () => { window.beeps.push(Klub.table.toAct.includes(Klub.table.seat)); }; }")

    # seat 0 (pera) deals; mika bids first. Pera wins the bidding with 2 and plays herc;
    # both opponents follow. Mika (the first bidder) leads, then laza, then pera.
    policy = {0: ["2", "herc", "moze"], 1: ["dalje", "pratim", "moze"], 2: ["dalje", "pratim", "moze"]}
    said: list[str] = []
    checked_turn = checked_trick = panel_left_open = False
    pera.evaluate("() => { Klub.table.trickPause = 300; }")  # long enough to see the end of the hand
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        sync(pages)
        h = pera.evaluate("() => Klub.table.view.hand")
        if h["deal_index"] >= 1:
            break
        if panel_left_open:
            # the next trick has begun: the panel still shows the finished one; Escape closes it
            panel_left_open = False
            assert pera.locator("#center .trick .card").count() == 1
            assert pera.locator("#last-trick .lt-plays li").count() == 3
            pera.keyboard.press("Escape")
            assert pera.locator("#last-trick").is_hidden()
        # item 2: an opponent plays and the declarer may offer: it is not his turn
        if not checked_turn and h["phase"] == "igra" and pera.evaluate(
                "() => Klub.table.toAct.length === 1 && Klub.table.toAct[0] !== 0 && Klub.table.legal.includes('nosim sve')"):
            checked_turn = True
            assert pera.evaluate("() => Klub.table.canAct() && !Klub.table.myTurn()")
            status = pera.inner_text("#status-line")
            assert "Vi ste na potezu" not in status and "Na potezu:" in status, status
            assert not pera.title().startswith("●")
            assert "my-turn" not in pera.get_attribute("#table-app", "class")
            assert "to-act" not in pera.get_attribute("#seat-me", "class")
            assert "may-speak" in pera.get_attribute("#seat-me", "class")
            actor = pera.evaluate("() => Klub.table.toAct[0]")
            assert pera.locator(f".seat.to-act[data-seat='{actor}']").count() == 1
            assert pera.locator("button.word[data-word='nosim sve']:not([disabled])").count() == 1
            view_shot(pera, "preferans-in-play-1366x900")
            view_shot(laza, "preferans-in-play-390x844")
        # item 3: the first trick stays on the table until the next card, and L shows it
        if not checked_trick and len(h.get("tricks") or []) == 1 and not h["trick"]:
            checked_trick = panel_left_open = True
            last = h["tricks"][0]
            assert pera.locator("#center .trick .card").count() == 3  # still on the table
            winner_card = next(c for s, c in last["cards"] if s == last["winner"])
            assert pera.locator("#center .trick .card.winner").get_attribute("data-card") == winner_card
            pera.keyboard.press("l")
            wait_sel(pera, "#last-trick:not([hidden])")
            rows = pera.eval_on_selector_all(
                "#last-trick .lt-plays li", "ls => ls.map(l => [Number(l.dataset.seat), l.dataset.card, l.textContent])")
            assert [[s, c] for s, c, _ in rows] == last["cards"]
            assert all(names[s] in text for s, _c, text in rows), rows
            assert pera.locator(f"#last-trick li.winner[data-seat='{last['winner']}']").count() == 1
            assert names[last["winner"]] in pera.inner_text("#last-trick .lt-winner")
            view_shot(pera, "preferans-last-trick-1366x900")
            laza.click("#last-trick-button")
            wait_sel(laza, "#last-trick:not([hidden])")
            laza.locator("#last-trick").scroll_into_view_if_needed()
            view_shot(laza, "preferans-last-trick-390x844")
            laza.click("#last-trick-close")
        seat = next(s for s, pg in enumerate(pages) if pg.evaluate("() => Klub.table.myTurn()"))
        said.append(f"{seat}:{pref_turn(pages[seat], policy[seat])}")
    assert "0:2" in said and "0:skart" in said and "0:herc" in said and said.count("0:card") >= 5, said
    assert checked_turn and checked_trick, said
    # the "your turn" sound followed the turn alone: it rang, and only when pera was to act
    beeps = pera.evaluate("() => window.beeps")
    assert beeps and all(beeps), beeps

    # item 4: the ended hand's header and cards stayed until its last trick had been seen
    log = pera.evaluate("() => window.dealOver")
    assert log, "the end of the hand was not shown"
    assert all(e["header"] == "Ruka 1" for e in log), log
    line = pera.evaluate("() => Klub.table.view.papir.lines[0]")
    reason = "Odigrano je svih 10 štihova" if line["passed"] else "Pratioci su odneli 5 štihova"
    assert reason in log[-1]["text"], log[-1]
    # the persistent account of the hand says why it ended and names each number
    wait_sel(pera, "#last-deal .ld-line")
    text = pera.inner_text("#last-deal .ld-line")
    assert reason in text, text
    assert f"{names[0]} (odigravač) {line['tricks'][0]}" in text, text
    for s in (1, 2):
        assert f"{names[s]} {line['tricks'][s]}" in text, text
    shot_line = pera.locator("#last-deal").bounding_box()
    assert shot_line and shot_line["y"] < DESKTOP["height"]

    # item 11: laza leaves while the next hand waits for his first word: the others see it at once
    second = pera.evaluate("() => Klub.table.view.hand")
    assert second["deal_index"] == 1 and pera.evaluate("() => Klub.table.toAct") == [2]
    laza.goto("about:blank")
    wait_sel(pera, ".seat.away[data-seat='2'] .away-mark", timeout=5000)
    until(pera, "() => document.getElementById('status-line').textContent.includes('odsutan')", timeout=5000)
    assert names[2] in pera.inner_text("#status-line")
    mika.click(".seat.away[data-seat='2'] button.takeover")
    wait_sel(pera, ".seat.away[data-seat='2'] .takeover-votes", timeout=5000)
    assert pera.inner_text(".seat.away[data-seat='2'] .takeover-votes").startswith("1 od 2")
    view_shot(pera, "preferans-away-vote-1366x900")
    close(pera, mika, laza)


# -- items 3, 4, 9, 10: Lora against computer players, a spectator --------------------------

def test_lora_last_trick_next_deal_keys_chat_and_spectator(browser, server):  # noqa: F811
    page = new_page(browser, DESKTOP)
    register(page, server, "lora")
    url = propose_against_bots(page, server, "lora")
    wait_sel(page, "#sheet table.lora-sheet")
    page.evaluate(DEAL_OVER_LOG)
    # the chat is in view beside the 28-row sheet
    box = page.locator("#chat-form input[name=text]").bounding_box()
    assert box and box["y"] + box["height"] <= DESKTOP["height"], box
    view_shot(page, "lora-table-1366x900")
    checked = False
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if page.evaluate("() => Klub.table.view.deal.index >= 1 && !Klub.table.pausing"):
            break
        until(page, "() => (Klub.table.canAct() && !Klub.table.pausing) || Klub.table.view.deal.index >= 1")
        if page.evaluate("() => Klub.table.view.deal.index >= 1"):
            continue
        deal = page.evaluate("() => ({tricks: Klub.table.view.deal.tricks.length, trick: Klub.table.view.deal.trick.length})")
        if deal["tricks"] >= 1 and not checked:
            checked = True  # the finished trick under L, with its players and its winner
            last = page.evaluate("() => Klub.table.view.deal.tricks[Klub.table.view.deal.tricks.length - 1]")
            if deal["trick"] == 0:  # I lead: the finished trick is still on the table
                assert page.locator("#center .trick .card").count() == 4
            page.keyboard.press("l")
            wait_sel(page, "#last-trick:not([hidden])")
            assert page.locator("#last-trick .lt-plays li").count() == 4
            assert page.locator(f"#last-trick li.winner[data-seat='{last['winner']}']").count() == 1
            page.keyboard.press("l")
            assert page.locator("#last-trick").is_hidden()
        version = page.evaluate("() => Klub.table.version")
        # the card keys: 1..8 by the card's place in the hand
        keys = page.eval_on_selector_all("#hand button.card:not([disabled])", "cs => cs.map(c => c.dataset.key)")
        assert keys and all(keys), keys
        play_first_card_by_key(page)
        until(page, f"() => Klub.table.version > {version}")
        assert in_decision_area(page)
    assert checked
    log = page.evaluate("() => window.dealOver")
    assert log and all(e["header"] == "Deljenje 1 od 28" for e in log), log
    # a spectator reads the chat but has no input that would always fail
    other = new_page(browser, DESKTOP)
    register(other, server, "kibic")
    other.goto(url)
    until(other, "() => Klub.table.view && Klub.table.seat === null")
    assert other.locator("#chat-form").is_hidden()
    assert other.locator("#chat-note").is_visible()
    assert "Gledate" in other.inner_text("#status-line")
    close(page, other)


# -- the view as its changes: a missed event is a resync -----------------------------------

def play_my_turns_until(page, js: str) -> None:
    """Say my first legal word whenever the table waits for me, until ``js`` holds."""
    for _ in range(200):
        if page.evaluate(js):
            return
        until(page, f"() => ({js})() || (Klub.table.myTurn() && !Klub.table.pausing"
                    " && Klub.table.version === Klub.live.version)")
        # The version is read in the same step as the word is sent: read after it, it could
        # already be the word's own (its event came first), and the wait then waited for a
        # version after my next turn, which never came.
        sent = page.evaluate("() => [Klub.live.version, Klub.table.myTurn() && Klub.live.act(Klub.table.legal[0], Klub.live.version)]")
        try:
            until(page, f"(v) => ({js})() || Klub.live.version > v", arg=sent[0])
        except AssertionError as e:
            seen = page.evaluate("() => [window.framesSeen, Klub.live.resyncing, document.getElementById('table-error-text').textContent]")
            raise AssertionError(f"{e}; sent at {sent}; frames, resyncing, error: {seen}") from None
    raise AssertionError(f"not reached: {js}")


def same_view_as_the_server(page) -> None:
    """At my turn (the computer players wait for me) my view is the server's, key for key."""
    until(page, "() => Klub.table.myTurn() && !Klub.table.pausing && Klub.table.version === Klub.live.version")
    mine, server = page.evaluate("""async () => {
        const s = await (await fetch(`/api/parties/${Klub.table.partie}/view`)).json();
        return [{version: Klub.live.version, view: Klub.live.view}, {version: s.version, view: s.view}];
    }""")
    assert mine["version"] == server["version"] and mine["view"] == server["view"]


def test_a_table_that_misses_an_event_asks_for_the_state_and_plays_on(browser, server):  # noqa: F811
    page = new_page(browser, DESKTOP)
    register(page, server, "praznina")
    propose_against_bots(page, server, "lora")
    until(page, "() => Klub.table.view && Klub.table.seat === 0")
    # The socket loses one event frame (as a proxy might): the next one is a gap.
    page.evaluate("""() => {
        const live = Klub.live, frame = live.frame.bind(live), send = live.send.bind(live);
        window.sentTypes = []; window.dropped = null; window.states = 0;
        live.send = (obj) => { window.sentTypes.push(obj.type); return send(obj); };
        window.framesSeen = [];  // the last frames (type, version, code): said when a wait fails
        live.frame = (f) => {
            window.framesSeen = window.framesSeen.slice(-24).concat([[f.type, f.version, f.code || ""]]);
            if (f.type === "event" && window.dropped === null && f.view_changes) { window.dropped = f.version; return; }
            if (f.type === "state") window.states++;
            frame(f);
        };
    }""")
    play_my_turns_until(page, "() => window.dropped !== null && window.states > 0")
    assert page.evaluate("() => window.sentTypes.filter((t) => t === 'resync').length") == 1
    same_view_as_the_server(page)
    # Changes for a view the client does not have (as after a state without one): a resync too.
    page.evaluate("() => { Klub.live.view = null; window.states = 0; }")
    play_my_turns_until(page, "() => window.states > 0")
    assert page.evaluate("() => window.sentTypes.filter((t) => t === 'resync').length") == 2
    # and the events after it are applied to the new view, whole and right
    version = page.evaluate("() => Klub.live.version")
    play_my_turns_until(page, f"() => Klub.live.version > {version + 4}")
    same_view_as_the_server(page)
    close(page)
