"""The push outbox: which notices become pushes, and the rows that wait to be sent.

What is pushed (``notices.tell`` kinds, app/realtime/notices.py), to each device of the
member named, in the device's language:

- ``invited``: a proposal (or a revanš) names me;
- ``turn``: my turn began at a slow partie (app/parties/slow.py); ``started``: a slow
  partie I sit at began; ``reminder``: my slow decision's time is running out;
- ``round``: a tournament round began and this is my table;
- ``ended``: a partie I played is over;
- ``evening``: an evening of a league I am entered in starts soon (app/leagues/reminders.py);

never about a table I have open (my seat's socket, app/tables/viewers.py: this
instance's sockets). Each push has the Topic ``partie-<id>`` (a newer push about the
same table replaces an older one the push service still holds), an Urgency (``high``
for my turn, the reminder and a round; ``low`` for an ended partie) and a TTL after
which it is not worth delivering.

Rows are claimed by a lease: a claim moves ``next_try_at`` a few minutes on (PostgreSQL:
``FOR UPDATE SKIP LOCKED``, so two instances never claim one row; SQLite's writes are
serialised). A sent row is deleted; a sender that dies leaves its rows to be claimed
again when the lease ends. A failed send is tried again later, at most
:data:`MAX_ATTEMPTS` times; a device the push service says is gone (404, 410) is dropped.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update

from app.db import Database
from app.db.models import Partie, PushMessage, PushSubscription
from app.parties.clocks import clock_of

PUSHED = frozenset({"invited", "started", "turn", "reminder", "round", "ended", "evening"})
SLOW_ONLY = frozenset({"started", "turn"})  # at a live table the page tells these, not the phone
MAX_ATTEMPTS = 5
LEASE = timedelta(minutes=3)
RETRY_AFTER = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(minutes=30))
MAX_TTL = timedelta(days=28)  # what push services keep at most
TTL = {
    "invited": timedelta(days=3),
    "round": timedelta(hours=1),
    "ended": timedelta(days=1),
    "evening": timedelta(hours=1),  # its start (the reminder comes an hour before)
}
URGENCY = {"turn": "high", "reminder": "high", "round": "high", "invited": "normal", "started": "normal", "ended": "low",
           "evening": "normal"}

# (lang, notice, game of the partie) -> {"title", "body", "url"}: the web layer's texts (app/web/push.py).
Describe = Callable[[str, dict[str, Any], "str | None"], dict[str, str]]


@dataclass(frozen=True)
class Job:
    """A claimed row, with what the sender needs."""

    id: int
    subscription_id: int
    endpoint: str
    p256dh: str
    auth: str
    payload: dict[str, Any]
    topic: str
    urgency: str
    ttl: int  # seconds left until the row's expiry
    attempts: int


@dataclass(frozen=True)
class Outcome:
    job: Job
    status: str  # sent, gone (drop the device), retry, dropped (drop the message)
    retry_after: float | None = None  # seconds, from the push service's Retry-After


def ttl_of(kind: str, timer_seconds: int | None) -> timedelta:
    if kind in ("turn", "reminder", "started"):
        return min(MAX_TTL, max(timedelta(hours=1), timedelta(seconds=timer_seconds or 0)))
    return TTL.get(kind, timedelta(days=1))


def enqueue(db: Database, batch: Iterable[tuple[list[int], dict[str, Any]]], describe: Describe,
            at_table: Callable[[int, int], bool]) -> int:
    """Turn told notices into outbox rows, one per device of each member who should hear
    it (``at_table(member, partie)``: his seat's socket is open there); the rows made."""
    wanted: list[tuple[int, dict[str, Any]]] = []
    for member_ids, notice in batch:
        if notice.get("kind") not in PUSHED:
            continue
        partie_id = notice.get("partie")
        for member_id in member_ids:
            if notice["kind"] != "invited" and isinstance(partie_id, int) and at_table(member_id, partie_id):
                continue
            wanted.append((member_id, notice))
    if not wanted:
        return 0
    now = db.clock.now()
    with db.read() as s:
        subs = s.execute(
            select(PushSubscription.id, PushSubscription.member_id, PushSubscription.lang)
            .where(PushSubscription.member_id.in_({m for m, _ in wanted}))
        ).all()
        if not subs:
            return 0
        partie_ids = {n["partie"] for _, n in wanted if isinstance(n.get("partie"), int)}
        parties = {row.id: row for row in s.execute(
            select(Partie.id, Partie.game, Partie.timer_seconds).where(Partie.id.in_(partie_ids)))} if partie_ids else {}
    devices: dict[int, list[Any]] = {}
    for sub in subs:
        devices.setdefault(sub.member_id, []).append(sub)
    rows = []
    for member_id, notice in wanted:
        kind = notice["kind"]
        partie = parties.get(notice.get("partie"))  # type: ignore[arg-type]
        timer = partie.timer_seconds if partie is not None else None
        if kind in SLOW_ONLY and not clock_of(timer).slow:
            continue
        game = partie.game if partie is not None else notice.get("game")
        ttl = ttl_of(kind, timer)
        for sub in devices.get(member_id, ()):
            payload = {"kind": kind, "partie": notice.get("partie"), "lang": sub.lang,
                       **describe(sub.lang, notice, game)}
            rows.append({
                "subscription_id": sub.id, "kind": kind, "topic": topic_of(notice), "urgency": URGENCY.get(kind, "normal"),
                "payload": payload, "created_at": now, "expires_at": now + ttl, "next_try_at": now, "attempts": 0,
            })
    if rows:
        with db.write() as s:
            # A device removed meanwhile: its rows would break the foreign key; keep those still there.
            alive = set(s.scalars(select(PushSubscription.id).where(
                PushSubscription.id.in_({r["subscription_id"] for r in rows}))))
            rows = [r for r in rows if r["subscription_id"] in alive]
            if rows:
                s.execute(insert(PushMessage), rows)
    return len(rows)


def topic_of(notice: dict[str, Any]) -> str:
    """One topic per table (RFC 8030 5.4: at most 32 characters of the base64url alphabet)."""
    partie = notice.get("partie")
    if isinstance(partie, int):
        return f"partie-{partie}"
    if isinstance(notice.get("league"), int):
        return f"league-{notice['league']}"
    return f"{notice.get('kind', 'notice')}"[:32]


def claim(db: Database, limit: int) -> list[Job]:
    """Due rows for this sender, leased; expired rows (and rows tried too often) are deleted."""
    now = db.clock.now()
    with db.read() as s:  # the idle loop reads only
        if s.scalar(select(PushMessage.id).where(PushMessage.next_try_at <= now).limit(1)) is None:
            return []
    with db.write() as s:
        s.execute(delete(PushMessage).where(PushMessage.next_try_at <= now, PushMessage.expires_at <= now))
        stmt = (select(PushMessage).where(PushMessage.next_try_at <= now)
                .order_by(PushMessage.next_try_at, PushMessage.id).limit(limit))
        if not db.is_sqlite:
            stmt = stmt.with_for_update(skip_locked=True)
        rows = s.scalars(stmt).all()
        if not rows:
            return []
        subs = {sub.id: sub for sub in s.scalars(
            select(PushSubscription).where(PushSubscription.id.in_({r.subscription_id for r in rows})))}
        jobs = []
        for row in rows:
            row.next_try_at = now + LEASE
            row.attempts += 1
            sub = subs[row.subscription_id]
            ttl = max(1, math.ceil((row.expires_at - now).total_seconds()))
            jobs.append(Job(row.id, sub.id, sub.endpoint, sub.p256dh, sub.auth, row.payload, row.topic, row.urgency,
                            ttl, row.attempts))
    return jobs


def settle(db: Database, outcomes: Iterable[Outcome]) -> None:
    """Record what the sends did: a sent or dropped row goes, a gone device goes with its
    rows, a failure waits for its next try (or goes after the last)."""
    now = db.clock.now()
    sent, dropped, gone, retry = [], [], set(), []
    for o in outcomes:
        if o.status == "sent":
            sent.append(o.job)
        elif o.status == "gone":
            gone.add(o.job.subscription_id)
        elif o.status == "retry" and o.job.attempts < MAX_ATTEMPTS:
            retry.append(o)
        else:
            dropped.append(o.job)
    with db.write() as s:
        done = [j.id for j in sent + dropped]
        if done:
            s.execute(delete(PushMessage).where(PushMessage.id.in_(done)))
        if sent:
            s.execute(update(PushSubscription).where(PushSubscription.id.in_({j.subscription_id for j in sent}))
                      .values(last_sent_at=now))
        if gone:
            s.execute(delete(PushMessage).where(PushMessage.subscription_id.in_(gone)))
            s.execute(delete(PushSubscription).where(PushSubscription.id.in_(gone)))
        for o in retry:
            s.execute(update(PushMessage).where(PushMessage.id == o.job.id)
                      .values(next_try_at=_next_try(now, o.job.attempts, o.retry_after)))


def _next_try(now: datetime, attempts: int, retry_after: float | None) -> datetime:
    wait = RETRY_AFTER[min(attempts, len(RETRY_AFTER)) - 1]
    if retry_after is not None:
        wait = max(wait, min(timedelta(seconds=retry_after), timedelta(hours=1)))
    return now + wait
