"""axe-core in the browser tests (issue 39): every page they open is checked, and fails on
any violation.

axe-core is the npm package pinned in package.json (``make test`` runs ``npm ci``; it lands
in node_modules/axe-core). :func:`watch` gives a browser context an init script that runs axe
on each page it opens once the page has been quiet (no DOM change) for :data:`QUIET_MS`, and
again after later changes (at most every :data:`EVERY_MS`), so the table states a test waits
on are checked too. Two things keep its cost down (it was a quarter of the browser tests'
CPU): axe's 650 kB are put into a page (a binding, :func:`_load`) only when the page first
runs it, never into blank pages or pages left at once; and a state whose shape (its path,
its width, the kinds of element shown; see ``shape()``) this worker has checked already is
not checked again. Each violation is reported to Python through a binding and kept on the
context (``ctx.axe_violations``). :func:`check_now` runs it at once on a page (the page's
last state, before its context closes); :func:`assert_clean` fails with every violation
seen: its rule, impact, help and the first elements.

The scripts are evaluated by Playwright (an init script, a binding's evaluate), not through
a <script> tag of the page, so the Content-Security-Policy stays as strict as it is.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
QUIET_MS = 300
EVERY_MS = 1500
BINDING = "__klubAxeReport"
LOADER = "__klubAxeLoad"
SEEN = "__klubAxeSeen"

RUNNER = """
(() => {
  if (window.top !== window || !location.protocol.startsWith("http")) return;
  const seen = new Set();
  let running = false, timer = null, last = 0;
  function report(result) {
    const fresh = [];
    for (const v of result.violations) {
      const nodes = v.nodes.map((n) => n.target.join(" ")).filter((t) => !seen.has(v.id + "|" + t));
      nodes.forEach((t) => seen.add(v.id + "|" + t));
      if (nodes.length) fresh.push({ id: v.id, impact: v.impact, help: v.help, nodes: nodes.slice(0, 5),
        summary: (v.nodes[0] && v.nodes[0].failureSummary || "").slice(0, 300) });
    }
    if (fresh.length && window.%(binding)s) window.%(binding)s({ url: location.pathname + location.search, violations: fresh });
  }
  window.__klubAxeRun = async () => {  // one run at a time (axe refuses a second)
    while (running) await new Promise((r) => setTimeout(r, 50));
    running = true;
    try {
      if (!window.axe) await window.%(loader)s();  // axe's source, only where it runs (below)
      return await axe.run(document, { resultTypes: ["violations"] });
    }
    finally { running = false; last = performance.now(); }
  };
  // A state's shape: the page's path (numbers aside), the viewport's width, and each kind of
  // element there (its tag with each of its classes, and with its attributes' names; shown or
  // hidden), values aside. A shape this worker's browser has checked already, in any test, is
  // not checked again: the same elements of the same pages, but for their words and cards.
  function shape() {
    const kinds = new Set();
    for (const el of document.querySelectorAll("*")) {
      const shown = el.closest("[hidden]") ? "-" : "+";
      kinds.add(el.tagName + shown + "[" + el.getAttributeNames().sort().join(",") + "]");
      for (const c of el.classList) kinds.add(el.tagName + shown + "." + c);
    }
    const text = location.pathname.replace(/[0-9]+/g, "#") + "|" + innerWidth + "|" + [...kinds].sort().join(";");
    let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    return (h1 >>> 0).toString(16) + (h2 >>> 0).toString(16) + ":" + text.length;
  }
  window.__klubAxeNow = async (always) => {
    if (!always && await window.%(seen)s(shape())) { last = performance.now(); return; }
    report(await window.__klubAxeRun());
  };
  function later() {
    clearTimeout(timer);
    const wait = Math.max(%(quiet)d, last + %(every)d - performance.now());
    timer = setTimeout(() => { if (!running) window.__klubAxeNow().catch(() => {}); }, wait);
  }
  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver(later).observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
    later();
  });
})();
"""


def available() -> bool:
    return AXE.is_file()


def need_axe() -> None:
    """Skip (fail under .ci/run, KLUB_REQUIRE_BROWSER=1) where npm ci has not installed axe-core."""
    if available():
        return
    missing = f"{AXE} is missing (make test runs npm ci from package.json)"
    if os.environ.get("KLUB_REQUIRE_BROWSER") == "1":
        pytest.fail(f"AXE CHECKS CANNOT RUN: {missing}", pytrace=False)
    pytest.skip(f"AXE CHECK NOT RUN: {missing}")


@lru_cache(maxsize=1)
def _init_script() -> str:
    return RUNNER % {"binding": BINDING, "loader": LOADER, "seen": SEEN, "quiet": QUIET_MS, "every": EVERY_MS}


@lru_cache(maxsize=1)
def _source() -> str:
    return AXE.read_text()


_checked_shapes: set[str] = set()  # this worker's: the shapes (the runner's shape()) axe has checked


def _seen(_source, shape: str) -> bool:
    """Whether a state of this shape was checked already (and from now on it is)."""
    if shape in _checked_shapes:
        return True
    _checked_shapes.add(shape)
    return False


def _load(source, *_) -> None:
    """axe's source into the page that asks (the runner, before its first run there)."""
    try:
        source["page"].evaluate(_source())
    except Exception:  # the page went meanwhile: nothing to check there
        pass


def watch(ctx) -> None:
    """Check every page of a browser context with axe (its violations in ``ctx.axe_violations``)."""
    ctx.axe_violations = []
    if not available():
        if os.environ.get("KLUB_REQUIRE_BROWSER") == "1":
            raise RuntimeError(f"{AXE} is missing (make test runs npm ci)")
        return
    ctx.expose_binding(BINDING, lambda source, found: ctx.axe_violations.append(found))
    ctx.expose_binding(LOADER, _load)
    ctx.expose_binding(SEEN, _seen)
    ctx.add_init_script(_init_script())


def check_now(pg) -> None:
    """Run axe on the page as it is now (the quiet-time runs may not have come yet)."""
    if available() and not pg.is_closed():
        pg.evaluate("() => window.__klubAxeNow ? window.__klubAxeNow() : null")


def describe(found: list[dict]) -> str:
    return "\n".join(f"{f['url']}: {v['id']} ({v['impact']}) {v['help']}; {v['nodes']}\n    {v['summary']}"
                     for f in found for v in f["violations"])


def assert_clean(ctx) -> None:
    found = getattr(ctx, "axe_violations", [])
    assert not found, "axe-core found accessibility violations:\n" + describe(found)


def violations_now(pg) -> list[dict]:
    """axe's violations of the page as it is now (a test that checks one state itself)."""
    if not pg.evaluate("() => !!(window.axe || window.__klubAxeRun)"):
        pg.evaluate(_source())  # a page of a context the fixture did not watch
    result = pg.evaluate("() => (window.__klubAxeRun ? window.__klubAxeRun() : axe.run(document, {resultTypes: ['violations']}))"
                         ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
                         " nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ')),"
                         " summary: (v.nodes[0] && v.nodes[0].failureSummary || '').slice(0, 300)})))")
    return json.loads(json.dumps(result))


def _close_checked(ctx, close):
    def closing(*args, **kwargs):
        try:
            for pg in ctx.pages:
                check_now(pg)  # the last state of each page, before it goes
        except Exception:  # a page mid-navigation or already gone: its earlier runs stand
            pass
        found = list(ctx.axe_violations)
        ctx.axe_violations.clear()
        close(*args, **kwargs)
        assert not found, "axe-core found accessibility violations:\n" + describe(found)
    return closing


def hook(browser) -> None:
    """Every context of this browser checked by axe (:func:`watch`); closing one fails on
    what axe found in it. The ``browser`` fixture (tests/conftest.py) hooks its browser, so
    every page a browser test opens is checked."""
    new_context = browser.new_context

    def checked(*args, **kwargs):
        ctx = new_context(*args, **kwargs)
        watch(ctx)
        ctx.close = _close_checked(ctx, ctx.close)
        return ctx

    browser.new_context = checked


def assert_contexts_clean(browser) -> None:
    """What axe found in the contexts a test left open (the fixture's teardown)."""
    found = [f for ctx in browser.contexts for f in getattr(ctx, "axe_violations", [])]
    for ctx in browser.contexts:
        getattr(ctx, "axe_violations", []).clear()
    assert not found, "axe-core found accessibility violations:\n" + describe(found)
