"""Decision timers: the deadline lives in the database, so a restarted server honours it;
and the reminders of slow parties' decisions (app/parties/slow.py)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from fastapi.concurrency import run_in_threadpool
from sqlalchemy import select

from app.db.models import Partie
from app.members.service import delete_expired_sessions
from app.parties import slow_reminders
from app.watchers import watch

if TYPE_CHECKING:
    from app.club import Club

log = logging.getLogger("klub.timer")
SESSION_CLEANUP_SECONDS = 600


def expired_parties(club: Club) -> list[int]:
    with club.db.read() as s:
        return list(
            s.scalars(select(Partie.id).where(Partie.status == "running", Partie.deadline_at <= club.clock.now()))
        )


def resume_running(club: Club) -> None:
    """After a start: let the computer players of every running partie look at their tables."""
    with club.db.read() as s:
        ids = list(s.scalars(select(Partie.id).where(Partie.status == "running")))
    for partie_id in ids:
        club.poke_bots(partie_id)


async def watch_deadlines(club: Club) -> None:
    """Hand decisions whose time ran out to the computer, remind slow players; now and then
    drop expired sessions."""
    loop = asyncio.get_running_loop()
    last_cleanup = 0.0

    async def look() -> None:
        nonlocal last_cleanup
        for partie_id in await run_in_threadpool(expired_parties, club):
            club.poke_bots(partie_id)
        # Slow parties: a decision 80% through its time, told once (app/parties/slow.py).
        for partie_id, seat in await run_in_threadpool(slow_reminders.due_reminders, club):
            await run_in_threadpool(slow_reminders.send_reminder, club, partie_id, seat)
        if loop.time() - last_cleanup > SESSION_CLEANUP_SECONDS:
            last_cleanup = loop.time()
            await run_in_threadpool(delete_expired_sessions, club.db, club.settings)

    await watch(club.clock, club.settings.deadline_poll_seconds, look, log, "deadline watcher failed")
