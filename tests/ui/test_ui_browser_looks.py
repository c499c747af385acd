"""How the pages look and behave in a real browser (issue 23, items 11 and 12): the
contrast of "Vi ste na potezu" and of the sheets' row numbers (WCAG 2: at least 4.5:1,
measured from the computed text colour against the pixels drawn behind the text), and a
console without warnings or errors on the lobby and at a table (the turn's sound waits
for the first gesture)."""

from __future__ import annotations

import base64
import re

from tests.support.browser import register
from tests.support.ui import shot

WIDE = {"width": 1280, "height": 900}

# The most frequent colour of a PNG (the background behind a text made transparent).
DOMINANT = """async (b64) => {
  const img = new Image();
  img.src = "data:image/png;base64," + b64;
  await img.decode();
  const c = document.createElement("canvas");
  c.width = img.width; c.height = img.height;
  const g = c.getContext("2d");
  g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  const seen = new Map();
  for (let i = 0; i < d.length; i += 4) {
    const k = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
    seen.set(k, (seen.get(k) || 0) + 1);
  }
  let best = 0, n = -1;
  for (const [k, v] of seen) if (v > n) { best = k; n = v; }
  return [best >> 16, (best >> 8) & 255, best & 255];
}"""


def luminance(rgb) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def measured_contrast(pg, selector: str) -> tuple[float, list, list]:
    """The WCAG contrast of the first ``selector``'s text: its computed colour against the
    colour drawn behind it (the element shot with its text made transparent)."""
    el = pg.locator(selector).first
    fg = el.evaluate("e => getComputedStyle(e).color")
    parts = [float(x) for x in re.findall(r"[\d.]+", fg)]
    assert len(parts) == 3 or parts[3] == 1, fg  # an opaque text colour
    el.evaluate("e => { for (const x of [e, ...e.querySelectorAll('*')]) { x.dataset.was = x.style.color; x.style.color = 'transparent'; x.style.textShadow = 'none'; } }")
    png = el.screenshot(animations="disabled")
    el.evaluate("e => { for (const x of [e, ...e.querySelectorAll('*')]) { x.style.color = x.dataset.was; x.style.textShadow = ''; delete x.dataset.was; } }")
    bg = pg.evaluate(DOMINANT, base64.b64encode(png).decode())
    return contrast(parts[:3], bg), parts[:3], bg


def open_context(browser, errors):  # noqa: F811
    ctx = browser.new_context(viewport=WIDE, reduced_motion="reduce")
    pg = ctx.new_page()
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    pg.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type in ("warning", "error") else None)
    return ctx, pg


def start_lora(pg) -> None:
    pg.check("#propose-form input[name=game][value=lora]")
    for i in (1, 2, 3):
        pg.select_option(f"select[name=seat{i}]", "bot")
        pg.select_option(f"select[name=seat{i}_bot]", "pocetnik")
    pg.click("#propose-form button[type=submit]")
    pg.wait_for_url(re.compile(r".*/table/\d+$"))


def test_your_turn_and_the_row_numbers_reach_4_5_to_1(browser, server):  # noqa: F811
    errors: list[str] = []
    ctx, pg = open_context(browser, errors)
    register(pg, server, "kontrast")
    start_lora(pg)
    pg.wait_for_selector("#status-line.turn")
    pg.wait_for_selector("#sheet table.lora-sheet td.num")
    for selector in ("#status-line.turn", "#sheet table.lora-sheet tbody td.num"):
        ratio, fg, bg = measured_contrast(pg, selector)
        assert ratio >= 4.5, (selector, round(ratio, 2), fg, bg)
    shot(pg, "contrast-your-turn")
    pg.set_viewport_size({"width": 390, "height": 844})
    for selector in ("#status-line.turn", "#sheet table.lora-sheet tbody td.num"):
        ratio, fg, bg = measured_contrast(pg, selector)
        assert ratio >= 4.5, (selector, round(ratio, 2), fg, bg)
    ctx.close()


def test_no_console_warnings_on_the_lobby_and_at_a_table(browser, server):  # noqa: F811
    errors: list[str] = []
    ctx, pg = open_context(browser, errors)
    register(pg, server, "tiho")
    pg.goto(server.url + "/lobby")
    pg.wait_for_selector("#lobby-live")
    pg.wait_for_function("() => document.readyState === 'complete'")
    assert errors == [], errors
    # a table where the member's turn comes (and with it the turn's sound) before any gesture
    # on the page: a new page load, no click since
    start_lora(pg)
    pg.goto(pg.url)
    pg.wait_for_selector("#status-line.turn")
    pg.wait_for_function("() => Klub.table && Klub.table.canAct()")
    # the first gesture: then the sound may play, still without a warning
    pg.click("#hand .card.legal")
    pg.wait_for_function("() => !document.querySelector('#status-line.turn') || Klub.table.version > 0")
    assert errors == [], errors
    ctx.close()
