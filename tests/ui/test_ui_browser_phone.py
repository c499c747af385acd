"""A table on a phone (issue 23, item 9): at 390x844 with a touch screen the trick (or
layout), the whole hand and the decision buttons are on the first screen, without
scrolling, in every game; the keyboard's shortcut badges are hidden on touch screens.

The parties are written into the live server's database as random play stopped where the
member (seat 0) is to act (tests/support/archive.py's seed_partie), so each game
is opened at the moment that matters: Lora's first trick, Lórum's Kvart and Domino (the
four suit rows), Libyan Lora, the preferans auction and a preferans trick.
"""

from __future__ import annotations

import pytest

from tests.support.archive import member, seed_partie, server  # noqa: F401
from tests.support.ui import ARTIFACTS

PHONE = {"width": 390, "height": 844}


def member_to_act(deal: int, played: int = 0, cards: bool = True):
    """Stop the random play at deal ``deal`` once seat 0 is to act, after at least ``played``
    words of the deal (a trick or a layout on the table) and, if ``cards``, with a card to
    play (a word of two letters, as "TS")."""
    said = {"n": 0}

    def stop(engine) -> bool:
        if engine.deal_index != deal:
            return False
        said["n"] += 1  # called once before each word: the words said in the deal, plus one
        if 0 not in engine.seats_to_act() or said["n"] - 1 < played:
            return False
        return not cards or any(len(w) == 2 for w in engine.legal_actions(0))

    return stop


CASES = {
    # name: (game, settings, deal, words said in the deal before, a card to play)
    "lora": ("lora", {}, 0, 2, True),
    "lorum-kvart": ("lorum", {}, 3, 6, True),
    "lorum-domino": ("lorum", {}, 6, 10, True),
    "libijska": ("lora", {"variant": "libijska"}, 0, 2, True),
    "preferans-auction": ("preferans", {"bule": 30, "refe": 1}, 0, 0, False),
}


def screen(pg, name: str) -> None:
    """The first screen as the phone shows it (not the whole page: a full-page screenshot
    leaves the touch emulation and would show the keyboard's badges)."""
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def box_of(pg, selector: str):
    """The bounding box (in the page, scroll included) of every element of ``selector``."""
    return pg.evaluate("""(sel) => {
      const els = [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null || e.getClientRects().length);
      if (!els.length) return null;
      const rs = els.map(e => e.getBoundingClientRect());
      return {top: Math.min(...rs.map(r => r.top)) + scrollY, bottom: Math.max(...rs.map(r => r.bottom)) + scrollY,
              left: Math.min(...rs.map(r => r.left)), right: Math.max(...rs.map(r => r.right)), n: els.length};
    }""", selector)


@pytest.mark.parametrize("case", list(CASES))
def test_a_phone_table_keeps_trick_hand_and_buttons_on_one_screen(browser, server, member, case):  # noqa: F811
    game, settings, deal, played, cards = CASES[case]
    # a fixed seed: the same deal and the same moment on every run
    partie = seed_partie(server, member[0], game, settings, stop=member_to_act(deal, played, cards), seed=f"phone-{case}")
    assert not partie["engine"].finished and partie["engine"].deal_index == deal
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2,
                              reduced_motion="reduce")
    ctx.add_cookies(member[1])
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{server.url}/table/{partie['id']}")
    # the member's turn is drawn: his legal cards (or the auction's words) are there
    decisions = "#hand .card.legal" if cards else "#controls button.word"
    pg.wait_for_selector(decisions)
    if case == "lorum-domino":
        pg.wait_for_selector("#center .layout-row")
    assert pg.evaluate("() => scrollY") == 0
    screen(pg, "lorum-domino-390x844" if case == "lorum-domino" else f"phone-{case}-390x844")
    trick = box_of(pg, "#center > *")
    hand = box_of(pg, "#hand .card")
    buttons = box_of(pg, f"{decisions}, #controls button")
    n_cards = pg.locator("#hand .card").count()
    for name, box in (("trick", trick), ("hand", hand), ("decisions", buttons)):
        assert box is not None, name
        assert 0 <= box["top"] and box["bottom"] <= PHONE["height"], (case, name, box)
        assert 0 <= box["left"] and box["right"] <= PHONE["width"] + 0.5, (case, name, box)
    assert n_cards >= 1
    # no shortcut badge on a touch screen: neither the cards' nor the buttons' nor <kbd>
    badges = pg.evaluate("""() => {
      const shown = [];
      for (const e of document.querySelectorAll('[data-key]')) {
        const after = getComputedStyle(e, '::after');
        if (after.content && after.content !== 'none' && after.display !== 'none') shown.push(e.dataset.key);
      }
      for (const k of document.querySelectorAll('kbd')) if (k.getClientRects().length) shown.push(k.textContent);
      return shown;
    }""")
    assert badges == [], badges
    ctx.close()
    assert not errors, errors
