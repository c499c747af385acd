"""Notices to one member: ``member:<id>`` channels of the hub.

A member's notices socket (``/ws/notices``) listens on his channel. A notice names
what happened (``kind``), the partie and who did it, never a card; the socket answers
it with the member's unread count read again from the database, so a lost or doubled
notice can delay the count but never make it wrong. Through the hub they reach every
instance (Redis pub/sub), so a member's pages on another server hear them too.

Kinds: ``invited`` (a proposal names me; a rematch too), ``withdrawn`` (a proposal that
named me is gone), ``accepted``, ``declined``, ``joined`` (of my proposal), ``started``
(a partie I sit at began), ``turn`` (it became my turn at a table), ``moved`` (my turn
at a table is over), ``answered`` (I answered, joined or started a partie on another
page of mine), ``ended`` (a partie I played in is over), ``present`` (I opened or closed
my seat's table: a turn there is not unread while I sit at it), ``round`` (a round of a
tournament I play began: its ``partie`` is my table, ``turn`` whether my seat there is to
act first, app/tournaments/rounds.py),
``reminder`` (80% of my decision time at a slow partie is gone and I have not looked at
the table since the decision began: ``left``, the seconds left with my bank and the
vacation hours spent; once per decision, app/parties/slow.py), ``evening`` (an evening
of a league I am entered in starts soon: ``league``, ``evening``, ``tournament``, ``name``,
``starts_at``, ``minutes``; once per evening, app/leagues/reminders.py).

Every notice told here also goes to the hub's sinks, on this instance only (so once per
notice however many instances there are): the push notices to the members' devices
listen there (app/push/worker.py), so no call site knows about them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from app.realtime.hub import Hub

log = logging.getLogger("klub.notices")

# Kinds a page tells the member about (a toast, the sound); the others only change the count.
TOLD = frozenset({"invited", "accepted", "declined", "joined", "started", "turn", "ended", "round", "reminder",
                  "evening"})
LOBBY_CHANNEL = "lobby"  # every change of the proposals and tables (app.parties.proposals)
TOURNAMENT_PREFIX = "tournament:"  # + id: a tournament's page (app/tournaments/rounds.py)


def member_channel(member_id: int) -> str:
    return f"member:{member_id}"


def tell(hub: Hub, member_ids: Iterable[int | None], kind: str, **about: Any) -> None:
    """Publish one notice to each member named (``None`` and repeats are skipped), and hand
    it to the hub's sinks."""
    notice = {"kind": kind, **about}
    members = list(dict.fromkeys(m for m in member_ids if m is not None))
    for member_id in members:
        hub.publish(member_channel(member_id), notice)
    if members:
        for sink in hub.sinks:
            try:
                sink(members, notice)
            except Exception:  # a sink never fails the teller (a word, a proposal)
                log.exception("a notice sink failed")
