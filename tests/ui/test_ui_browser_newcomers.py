"""Issue 39, item 7: the Club tried as new members would, in Chromium. A phone's "your turn"
toast leaves the table's buttons free; computer players are marked and their sheet columns
not cut; the preferans bidding box explains its words; the header's bell says why notices
could not be switched on; a slow clock says why it stands and until when; a bot's chat is
muted from the table. Every test waits on the page's state, never on time."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import httpx
import pytest

from app.clock import ManualClock
from tests.support.archive import member, seed_partie, server  # noqa: F401
from tests.support.bots import new_bot
from tests.support.browser import member_session
from tests.support.ui import close_watched, shot, watched_page
from tests.support.web import member as api_member, wait_for

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 900}
# every box of what a player acts with at the table: words, cards, the table's buttons
ACTION_BUTTONS = "#controls button, #center button, #hand button, #hand .card, .table-tools button, #side-toggle-bar button, .seat button, #table-bar summary"


def my_turn(cards: bool = True):
    """Stop random play once seat 0 is to act (with a card to play, if ``cards``), after a word of the deal."""
    def stop(engine) -> bool:
        if 0 not in engine.seats_to_act() or not engine.version:
            return False
        return not cards or any(len(w) == 2 for w in engine.legal_actions(0))
    return stop


def boxes(pg, selector: str) -> list[dict]:
    return pg.evaluate("""(sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length)
      .map((e) => { const r = e.getBoundingClientRect(); return {name: e.id || e.className || e.tagName,
        top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })""", selector)


def overlaps(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def test_a_phones_turn_toast_leaves_the_tables_buttons_free(browser, server, member):  # noqa: F811
    table = seed_partie(server, member[0], "lora", {}, stop=my_turn(), seed="toast-phone")
    pg = watched_page(browser, PHONE, member[1], has_touch=True, is_mobile=True)
    pg.goto(f"{server.url}/table/{table['id']}")
    pg.wait_for_selector("#hand .card.legal")
    # another table waits for him: a partie with another member, who plays until it is his turn
    other = api_member(server.url, "toaster")
    me = member_session(pg, server)
    r = other.post("/api/parties", json={"game": "preferans", "settings": {"bule": 30, "refe": 1},
                                          "seats": [{"kind": "member", "name": member[0]}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    assert me.post(f"/api/parties/{pid}/accept").status_code == 200

    def told() -> bool:
        """True once his turn toast is there; else whoever is to act says a word (a pass
        where he may): his turn must begin by a word, not with the partie."""
        if pg.locator(f".toast[data-kind=turn][data-partie='{pid}']").count():
            return True
        for who in (other, me):
            st = who.get(f"/api/parties/{pid}/view").json()
            if st["legal"] and st["seat"] in st["to_act"]:
                word = next((w for w in ("dalje", "ne pratim", "moze") if w in st["legal"]), st["legal"][0])
                who.post(f"/api/parties/{pid}/actions", json={"word": word, "version": st["version"]})
                if who is other:
                    return False
        return False

    wait_for(told, timeout=60)
    toast = pg.wait_for_selector(f".toast[data-kind=turn][data-partie='{pid}']")
    assert toast.is_visible()
    box = boxes(pg, f".toast[data-partie='{pid}']")[0]
    buttons = boxes(pg, ACTION_BUTTONS)
    assert buttons and any(b["name"].startswith("card") for b in buttons)
    covered = [b["name"] for b in buttons if overlaps(box, b)]
    assert not covered, covered
    shot(pg, "phone-turn-toast")
    close_watched(pg)
    other.close()
    me.close()


def test_computer_players_are_marked_and_their_columns_not_cut(browser, server, member):  # noqa: F811
    for game, settings, sheet in (("lora", {}, "#side thead th"), ("preferans", {"bule": 30, "refe": 1}, ".p-head, .p-name")):
        partie = seed_partie(server, member[0], game, settings, stop=my_turn(game != "preferans"), seed=f"marked-{game}")
        pg = watched_page(browser, WIDE, member[1])
        pg.goto(f"{server.url}/table/{partie['id']}")
        pg.wait_for_selector(f"{sheet.split(',')[0]} .computer-player")
        names = pg.eval_on_selector_all(".seat .computer-player", "els => els.map((e) => e.textContent)")
        assert len(names) == partie["engine"].n_seats - 1 and all(names), names
        marks = pg.eval_on_selector_all(".computer-mark", "els => els.map((e) => [e.getAttribute('role'), e.getAttribute('aria-label')])")
        assert marks and all(m == ["img", "računar"] for m in marks), marks
        assert all(t == "računar" for t in pg.eval_on_selector_all(".computer-player", "els => els.map((e) => e.title)"))
        # each computer's column shows his whole name: nothing cut
        cells = pg.eval_on_selector_all(sheet, """els => els.filter((e) => e.querySelector('.computer-player'))
          .map((e) => ({text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1}))""")
        assert cells and not [c for c in cells if c["cut"]], cells
        assert all(any(n in c["text"] for n in names) for c in cells), (cells, names)
        shot(pg, f"computer-names-{game}")
        close_watched(pg)
    # the lobby's lists mark them the same way
    pg = watched_page(browser, WIDE, member[1])
    pg.goto(f"{server.url}/lobby")
    assert pg.locator(".who-plays .computer-player .computer-mark[role=img]").count() >= 3
    close_watched(pg)


def test_the_preferans_bidding_box_explains_its_words(browser, server, member):  # noqa: F811
    partie = seed_partie(server, member[0], "preferans", {"bule": 30, "refe": 1}, stop=my_turn(cards=False),
                         seed="bid-legend")
    pg = watched_page(browser, WIDE, member[1])
    pg.goto(f"{server.url}/table/{partie['id']}")
    pg.wait_for_selector("#controls .bid-box button.word")
    words = pg.eval_on_selector_all("#controls .bid-box button.word", "els => els.map((e) => [e.dataset.word, e.title])")
    assert words and all(title for _, title in words), words
    assert next(t for w, t in words if w == "dalje").startswith("Dalje: ispadam iz licitacije")
    legend = pg.locator("#controls details.bid-legend")
    assert legend.locator("summary").inner_text() == "Šta znače reči"
    legend.locator("summary").click()
    assert pg.eval_on_selector_all("#controls .bid-legend dt", "els => els.map((e) => e.dataset.word)") == [w for w, _ in words]
    assert legend.locator("dd").first.is_visible()
    close_watched(pg)


@pytest.mark.parametrize("why, setup, text", [
    ("denied", "Notification.requestPermission = () => Promise.resolve('denied');", "blokirana u podešavanjima"),
    ("dismissed", "Notification.requestPermission = () => Promise.resolve('default');", "Niste dozvolili"),
    ("unsupported", "delete window.PushManager;", "ne može da prima obaveštenja"),
    ("server", "", "greška 500"),
])
def test_the_bell_says_why_notices_could_not_be_switched_on(browser, server, member, why, setup, text):  # noqa: F811
    pg = watched_page(browser, WIDE, member[1])
    if setup:
        pg.context.add_init_script(setup)
    else:  # allowed, but the Club's server fails
        pg.context.grant_permissions(["notifications"], origin=server.url)
        pg.route("**/api/push/key", lambda route: route.fulfill(status=500, body="{}", content_type="application/json"))
    pg.goto(f"{server.url}/lobby")
    pg.wait_for_selector("#push-toggle", state="visible")
    pg.click("#push-toggle")
    note = pg.wait_for_selector(f"#toasts .toast[data-kind=push][data-why={why}]")
    assert text in note.inner_text()
    assert pg.get_attribute("#push-toggle", "aria-pressed") == "false"
    pg.click("#toasts .toast[data-kind=push] .toast-close")
    pg.wait_for_selector("#toasts .toast[data-kind=push]", state="detached")
    if why == "server":
        pg.js_errors[:] = [e for e in pg.js_errors if "500" not in e]  # the refused key's console line
    close_watched(pg)


# -- on the Club's own clock (a live server in a thread, a ManualClock) -----------------------

MONDAY = datetime(2025, 1, 6, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def clock():
    return ManualClock(MONDAY)


@pytest.fixture(params=["sqlite"])
def backend(request):
    return request.param


def cookie_of(live, c: httpx.Client) -> list[dict]:
    name = live.settings.cookie_name
    return [{"name": name, "value": c.cookies[name], "url": live.url}]


def test_a_slow_clock_says_why_it_stands_and_a_bots_chat_is_muted(browser, live_server, clock):
    live = live_server
    vesna, owner = api_member(live.url, "vesna"), api_member(live.url, "vlasnik")
    token = new_bot(owner, "brbljivko", ["bot:play", "bot:chat"])
    bot = httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    r = vesna.post("/api/parties", json={"game": "preferans", "settings": {"bule": 30, "refe": 1}, "timer": 3600,
                                         "weekends_off": True, "weekend_zone": "UTC",
                                         "seats": [{"kind": "member", "name": "brbljivko"}, {"kind": "bot"}]})
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    assert bot.post(f"/api/bot/parties/{pid}/accept").status_code == 200
    wait_for(lambda: vesna.get(f"/api/parties/{pid}").json()["status"] == "running")
    for text in ("dobar dan", "srećno svima"):
        assert bot.post(f"/api/bot/parties/{pid}/chat", json={"text": text}).status_code == 201
    until = MONDAY + timedelta(days=2, hours=9)  # Wednesday 18:00 UTC
    assert vesna.put("/api/me/holiday", json={"until": until.isoformat()}).status_code == 200
    pg = watched_page(browser, WIDE, cookie_of(live, vesna), timezone_id="UTC")
    pg.goto(f"{live.url}/table/{pid}")
    stands = pg.wait_for_selector(".slow-clock[data-seat='0'] .clock-stands[data-why='holiday']")
    assert stands.inner_text() == "vesna je na odmoru do 8. 1. 18:00"
    # the bot's messages, each with a mute button; muted, they go, and stay gone after a reload
    pg.wait_for_selector("#chat-log li.chat-bot >> nth=1")
    pg.click("#chat-log li.chat-bot button.chat-mute >> nth=0")
    pg.wait_for_selector("#chat-log li.chat-muted")
    assert pg.locator("#chat-log li.chat-bot").count() == 0
    assert "Poruke bota brbljivko su utišane." in pg.inner_text("#chat-log")
    assert vesna.get("/api/bots/muted").json()["bots"] == ["brbljivko"]
    pg.reload()
    pg.wait_for_selector(".slow-clock[data-seat='0']")
    assert pg.locator("#chat-log li.chat-bot").count() == 0
    # her holiday over, on a Saturday: the weekend is the reason now
    clock.advance(days=5)
    pg.reload()
    stands = pg.wait_for_selector(".slow-clock.running .clock-stands[data-why='weekend']")
    assert stands.inner_text() == "vikend do ponedeljka 00:00"
    close_watched(pg)
    for c in (vesna, owner, bot):
        c.close()
