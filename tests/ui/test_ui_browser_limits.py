"""A table page over the member's limit of table sockets (app/tables/ratelimit.py) in a real browser.

The server accepts the socket, sends ``too_many_connections`` and closes it with 4429: the
page says so in Serbian (not "Reconnecting…") and does not knock again for 30 seconds.
The fixtures are tests/conftest.py's, the helpers tests/support/browser.py's (Playwright, Debian's Chromium).
"""

from __future__ import annotations

import re

from app.tables.ratelimit import MAX_CONNECTIONS
from tests.support.browser import register

# Counts the table sockets the page opens (before its scripts run; not the notices socket
# every page of a member has, static/js/notices.js).
COUNT_SOCKETS = """(() => {
  const Real = window.WebSocket;
  window.socketsOpened = 0;
  window.WebSocket = function (...args) {
    if (String(args[0]).includes("/ws/parties/")) window.socketsOpened += 1;
    return new Real(...args);
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();"""

OPEN_SOCKETS = """async ([url, n]) => {
  window.held = [];
  for (let i = 0; i < n; i++) {
    const ws = new WebSocket(url);
    await new Promise((ok, fail) => { ws.onopen = ok; ws.onclose = () => fail(new Error("closed")); });
    window.held.push(ws);
  }
  return window.held.length;
}"""


def test_browser_table_over_the_socket_limit_says_so_and_waits(page, browser, server):  # noqa: F811
    register(page, server, "mnogo")
    for i in (1, 2, 3):
        page.select_option(f"select[name=seat{i}_bot]", "pocetnik")
    page.click("#propose-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/table/\d+$"))
    table_url = page.url
    ws_url = table_url.replace("http://", "ws://").replace("/table/", "/ws/parties/")
    page.goto(server.url + "/lobby")  # the table's own socket closes
    assert page.evaluate(OPEN_SOCKETS, [ws_url, MAX_CONNECTIONS]) == MAX_CONNECTIONS

    other = page.context.new_page()  # same member, one socket too many
    other.add_init_script(COUNT_SOCKETS)
    other.goto(table_url)
    # said as the table's errors are (kept until closed or replaced)
    other.wait_for_function("() => /Imate previše otvorenih prozora/.test(document.getElementById('table-error-text').textContent)")
    assert other.is_hidden("#conn-banner")  # not "Reconnecting…"
    assert "30 sekundi" in other.text_content("#table-error-text")
    other.wait_for_timeout(3000)  # the ordinary backoff would have knocked 3 or 4 times by now
    assert other.evaluate("window.socketsOpened") == 1
    other.close()
