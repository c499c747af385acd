"""A decision whose time ran out, and who watches, in a real browser (issue 23, items 1 and 4).

Pera plays preferans against two computer players with the decision timer on; Mika
watches. When it is pera's turn in the auction his time runs out (the test sets the
partie's deadline into the past; the server's deadline watcher hands the decision to
the computer): the computer says ``dalje`` for him, and both pages say so; a reload
keeps the note; pera's page names mika as watching. The screenshot is
``test-artifacts/timeout-auction.png``.
"""

from __future__ import annotations

import time
from datetime import timedelta

from app.db import Database
from app.db.models import Partie
from app.db.types import utcnow
from tests.support.ui import shot, watched_page
from tests.support.web import PASSWORD, member

NOTE = "#timeout-note:not([hidden])"


def login(browser, server, name: str):  # noqa: F811
    pg = watched_page(browser)
    pg.goto(server.url + "/login")
    pg.fill("input[name=name]", name)
    pg.fill("input[name=password]", PASSWORD)
    pg.click("#auth-form button[type=submit]")
    pg.wait_for_url("**/lobby")
    return pg.context, pg


def test_a_timed_out_auction_is_told_to_the_player_and_the_spectator(browser, server):  # noqa: F811
    stamp = int(time.time()) % 100000
    pera_name, mika_name = f"pera{stamp}", f"mika{stamp}"
    pera_api = member(server.url, pera_name)
    member(server.url, mika_name)
    r = pera_api.post("/api/parties", json={"game": "preferans", "settings": {"bule": 30, "refe": 1}, "timer": 300,
                                            "seats": [{"kind": "bot"}, {"kind": "bot"}]})
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    pera_ctx, pera = login(browser, server, pera_name)
    mika_ctx, mika = login(browser, server, mika_name)
    try:
        pera.goto(f"{server.url}/table/{pid}")
        mika.goto(f"{server.url}/table/{pid}")
        # Mika watches: pera's table names him.
        pera.wait_for_selector("#watchers:not([hidden])")
        assert pera.text_content("#watchers") == f"Gledaju (1): {mika_name}"
        # Pera's turn in the auction; nothing has timed out yet.
        pera.wait_for_function("() => Klub.table.canAct() && Klub.table.legal.includes('dalje')", timeout=20000)
        assert pera.is_hidden("#timeout-note")
        version = pera.evaluate("() => Klub.table.version")

        db = Database(f"sqlite:///{server.log.parent / 'klub.db'}")  # the served Club's database
        try:
            with db.write() as s:
                partie = s.get(Partie, pid)
                assert partie.deadline_at is not None
                partie.deadline_at = utcnow() - timedelta(seconds=1)
        finally:
            db.dispose()

        expected = f"Vreme je isteklo: računar je rekao „dalje“ umesto igrača {pera_name}"
        for pg in (pera, mika):
            pg.wait_for_selector(NOTE, timeout=20000)
            assert pg.text_content("#timeout-note") == expected
        assert pera.evaluate("() => Klub.table.version") > version
        shot(pera, "timeout-auction")

        # A reload keeps the note while it stands (pera has not spoken since).
        pera.reload()
        pera.wait_for_selector(NOTE, timeout=20000)
        assert pera.text_content("#timeout-note") == expected
        assert pera.text_content("#watchers") == f"Gledaju (1): {mika_name}"
        # Mika leaves: pera's table no longer names a spectator.
        mika_ctx.close()
        pera.wait_for_selector("#watchers", state="hidden", timeout=20000)
        assert not pera.js_errors and not mika.js_errors, (pera.js_errors, mika.js_errors)
    finally:
        pera_ctx.close()
        if not mika.is_closed():
            mika_ctx.close()
