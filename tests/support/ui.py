"""Helpers of the UI tests: a live uvicorn with a temporary SQLite database, and Chromium."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.support.paths import ROOT
from tests.support.web import listening_socket, serve_command

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = ROOT / "test-artifacts"
# The play loops' waits poll every 50 ms rather than on every animation frame (Playwright's
# default): a whole partie waits thousands of times, and polling each frame cost about a
# tenth of the page's CPU (make soak is CPU-bound).
POLL_MS = 50
PASSWORD = "secret-pass-1"


@dataclass
class LiveServer:
    url: str
    process: subprocess.Popen
    log: Path
    socket: socket.socket
    db_url: str = ""


def start_server(tmp: Path, **env: str) -> LiveServer:
    from tests.support.migrated import migrated_sqlite

    db = migrated_sqlite(tmp / "klub.db")
    sock = listening_socket()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    environ = dict(os.environ)
    environ.update({
        "KLUB_DATABASE_URL": db,
        "KLUB_SITE_ORIGIN": url,
        "KLUB_BOT_DELAY_SECONDS": "0",
        "KLUB_ARGON2_TIME_COST": "1",
        "KLUB_ARGON2_MEMORY_KIB": "1024",
        "KLUB_UI_TRICK_PAUSE_MS": "40",
        "KLUB_UI_TIMINGS": '{"dalje_delay": 30}',
        "KLUB_PROBLEMS_MINING": "false",  # no analysis of the parties a browser test finishes
    })
    environ.update(env)
    log = tmp / "server.log"
    proc = subprocess.Popen(
        serve_command(sock), cwd=ROOT, env=environ, stdout=log.open("w"), stderr=subprocess.STDOUT,
        pass_fds=[sock.fileno()],
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server did not start:\n{log.read_text()}")
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return LiveServer(url, proc, log, sock)
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"the server did not answer:\n{log.read_text()}")


def stop_server(server: LiveServer) -> None:
    server.process.terminate()
    try:
        server.process.wait(10)
    except subprocess.TimeoutExpired:
        server.process.kill()
    server.socket.close()


def need_chromium():
    """Skip a browser test where there is no browser; fail instead under .ci/run
    (``KLUB_REQUIRE_BROWSER=1``), where a missing browser must not pass unseen."""
    missing = None
    if not Path(CHROMIUM).exists():
        missing = f"{CHROMIUM} is missing (make test installs it with apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "the playwright package is missing (pip install -e '.[dev]')"
    if missing is None:
        return
    if os.environ.get("KLUB_REQUIRE_BROWSER") == "1":
        pytest.fail(f"BROWSER TESTS CANNOT RUN: {missing}", pytrace=False)
    pytest.skip(f"BROWSER TEST NOT RUN: {missing}")


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


WIDE = {"width": 1280, "height": 900}


def watched_page(browser, viewport=WIDE, cookies=None, **options):
    """A page in a fresh browser context that records JavaScript errors and CSP violations
    (``pg.js_errors``); :func:`close_watched` closes it and fails on any. ``options``: the
    context's own (``timezone_id="Europe/Belgrade"``)."""
    ctx = browser.new_context(viewport=viewport, reduced_motion="reduce", **options)
    if cookies:
        ctx.add_cookies(cookies)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # The Content-Security-Policy (app/web/security.py) must not block anything the pages do.
    pg.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    pg.js_errors = errors
    return pg


def close_watched(pg) -> None:
    errors = list(pg.js_errors)
    pg.context.close()
    assert not errors, f"JavaScript errors or CSP violations: {errors}"


def own_server(tmp_path_factory, name: str, **env: str):
    """A served Club of a module's own (a generator for a module-scoped fixture), with
    ``db_url`` for tests that write to its database."""
    need_chromium()
    tmp = tmp_path_factory.mktemp(name)
    s = start_server(tmp, **env)
    s.db_url = f"sqlite:///{tmp / 'klub.db'}"
    try:
        yield s
    finally:
        stop_server(s)


# -- a member's words by clicking (the shortest real preferans partie: tests/ui/test_ui_browser_club.py)

CARD = re.compile(r"^[789TJQKA][SDHC]$")


def api(pg, method: str, path: str, body: dict | None = None) -> dict:
    """A call of the JSON API from the page (its session, same origin)."""
    return pg.evaluate(
        """async ([method, path, body]) => {
             const r = await fetch(path, {method, headers: {"Content-Type": "application/json"},
                                          body: body ? JSON.stringify(body) : undefined});
             return {status: r.status, body: await r.json()};
           }""", [method, path, body])


# The words a member says, best first: answer an offer (an otpis) yes, propose an otpis
# (ana only), pass, do not follow.
CHOICES = {True: ("prihvatam", "otpis", "dalje", "ne pratim"), False: ("prihvatam", "dalje", "ne pratim")}
SIDE_WORDS = ("otpis", "odbijam", "preuzimam pad", "vracam pad")
CAN_ACT = "() => Klub.table && (Klub.table.finished || (Klub.table.canAct() && !Klub.table.pausing && !Klub.table.sending))"


def say_something(pg, proposes_otpis: bool) -> bool:
    """Say this member's next word if he has one now; False when the partie is over."""
    state = pg.evaluate("() => ({finished: Klub.table.finished, ready: (" + CAN_ACT + ")(),"
                        " legal: Klub.table.legal, version: Klub.table.version})")
    if state["finished"]:
        return False
    if not state["ready"] or not state["legal"]:
        return True
    legal = state["legal"]
    # Never a side word by chance: a fall taken over and handed back ("preuzimam pad",
    # "vracam pad"), each accepted, went round 800 times until the test timed out.
    word = next((w for w in CHOICES[proposes_otpis] if w in legal), None) or next(
        (w for w in legal if w not in SIDE_WORDS), None)
    if word is None:
        return True  # only words out of turn: wait for the turn
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    target = f"#hand button.card[data-card='{word}']" if CARD.match(word) else f"button.word[data-word='{word}']"
    try:  # the read may be a moment old (a frame redrew the controls): read again rather than wait
        pg.click(f"{target}:not([disabled])", timeout=5000)
    except PlaywrightTimeout:
        return True
    pg.wait_for_function("(v) => Klub.table.finished || Klub.table.version > v || !!Klub.table.error",
                         arg=state["version"], timeout=20000)
    return True
