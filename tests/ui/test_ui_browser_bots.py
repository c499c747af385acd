"""A bot account at a member's table, in a real browser (issue 27): the seat shows the
bot's name with its owner's, and the page runs without a script error."""

from __future__ import annotations

import time

import httpx

from tests.support.bots import bearer, new_bot
from tests.support.browser import register
from tests.support.ui import close_watched, watched_page
from tests.support.web import member


def test_a_bot_account_is_named_with_its_owner_at_the_table(browser, server):  # noqa: F811
    stamp = int(time.time() * 1000) % 10**7
    owner_name, bot_name = f"vl{stamp}", f"rob{stamp}"
    owner = member(server.url, owner_name)
    token = new_bot(owner, bot_name, ["bot:play"])
    pg = watched_page(browser)
    register(pg, server, "gost")
    seats = [{"kind": "member", "name": bot_name}, {"kind": "bot", "bot": "pocetnik"}, {"kind": "bot", "bot": "pocetnik"}]
    r = pg.request.fetch(server.url + "/api/parties", method="POST", data={"game": "lora", "seats": seats},
                         headers={"Origin": server.url})
    assert r.ok, r.text()
    pid = r.json()["id"]
    assert httpx.post(f"{server.url}/api/bot/parties/{pid}/accept", headers=bearer(token)).status_code == 200
    pg.goto(f"{server.url}/table/{pid}")
    pg.wait_for_selector(f".seat-name .name:text('{bot_name} (bot člana {owner_name})')")
    close_watched(pg)
    owner.close()
