"""The leak audit: random parties of Lora and preferans through the real server.

Every WebSocket frame and HTTP body a seat (or a spectator) receives is checked with
:class:`tests.support.web.LeakCheck` against the whole record: no card of another seat
may show before the rules reveal it, and a running partie's record export keeps the
seed and the other hands to itself. ``KLUB_AUDIT_PARTIES`` sets how many parties (the
default is small for ``make test``; ``make soak`` runs 1,000).
"""

from __future__ import annotations

import asyncio
import os

import pytest

from app.db import Database
from tests.support.audit import run_audit
from tests.support.web import ServerProcess

pytestmark = pytest.mark.scaled

PARTIES = int(os.environ.get("KLUB_AUDIT_PARTIES", "10"))
# ``make soak`` splits the parties into shards, each its own server and database, so that
# the pytest-xdist workers audit them side by side (each shard plays other seeds).
SHARDS = int(os.environ.get("KLUB_SOAK_SHARDS", "1"))


@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_frame_or_body_shows_a_hidden_card(settings, backend, shard):
    # The whole audit on SQLite; a short one on PostgreSQL (same code above the database).
    share = PARTIES // SHARDS + (shard < PARTIES % SHARDS)
    PARTIES_HERE = share if backend == "sqlite" else min(share, 4)
    server = ServerProcess(settings)  # its own process: the audit's clients get the other core
    server.start()
    db = Database(settings.database_url)
    try:
        audit = asyncio.run(run_audit(server, db, PARTIES_HERE, seed=7 + 1000 * shard))
    finally:
        server.close()
        db.dispose()
    print(
        f"\nleak audit (shard {shard + 1} of {SHARDS}): {audit.parties} parties ({audit.finished} finished), {audit.frames} frames, "
        f"{audit.bodies} HTTP bodies, {len(audit.leaks)} leaks; phases: {dict(sorted(audit.phases.items()))}"
    )
    assert audit.parties == PARTIES_HERE
    assert not audit.leaks, "\n".join(audit.leaks[:5])
    lora = {p for p in audit.phases if p.startswith("lora:")}
    assert {"lora:deal-start", "lora:trick-open", "lora:trick-start"} <= lora
    pref = {p for p in audit.phases if p.startswith("preferans:")}
    assert len(pref) >= 4, pref  # bidding, talon, play and the rest of a hand
