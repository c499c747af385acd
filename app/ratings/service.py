"""Ratings in the database: a member's current ratings and history (for his profile),
the live update after a partie ends, and the rebuild from the archive.

Live: a subscriber of ``club.finished`` (:func:`subscribe`) rates, in one transaction,
every finished partie that has no rating events yet, in the order the parties count
(:func:`counted_at`, then ``finished_at``, then id) — the one just announced, and any
whose notice was lost in a crash. A tournament table counts when its round ends, not
before (rulings T11: until then a rating that moved would tell how the table went); its
events carry that moment. A partie already rated is skipped, so a notice published twice counts once. The
rebuild takes the same steps (:func:`app.ratings.ledger.apply_outcome`) over the whole
archive, so it gives exactly the numbers of the live updates.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from dataclasses import replace
from datetime import datetime

from sqlalchemy import ColumnElement, delete, exists, func, insert, or_, select, text
from sqlalchemy.orm import Session, selectinload, undefer

from app.db import Database
from app.db.models import Partie, PartieSeat, Rating, RatingEvent, TournamentRound
from app.parties.visibility import round_ended_clause
from app.ratings.ledger import EventRow, Standing, apply_outcome, outcome_of
from app.ratings.method import Skill, displayed, provisional

if TYPE_CHECKING:
    from app.club import Club
    from app.parties.events import PartieFinished

log = logging.getLogger("klub.ratings")

# PostgreSQL: one rating transaction at a time over all instances (SQLite's BEGIN
# IMMEDIATE already serializes writers).
_ADVISORY_LOCK = 0x6B6C756272617465  # "klubrate"
_BATCH = 500


def current_ratings(db: Database, member_id: int) -> dict[str, dict[str, Any]]:
    """A member's rating per game he has been rated in: ``{"rating", "mu", "sigma",
    "parties", "provisional"}`` (``rating`` is the displayed number)."""
    with db.read() as s:
        rows = s.scalars(select(Rating).where(Rating.member_id == member_id).order_by(Rating.game)).all()
        return {r.game: _rating_dict(r) for r in rows}


def rating_history(db: Database, member_id: int, game: str) -> list[dict[str, Any]]:
    """A member's rated parties of a game, oldest first: ``{"partie_id", "finished_at"
    (datetime, UTC), "rating" (displayed, after the partie), "place"}``."""
    with db.read() as s:
        rows = s.execute(
            select(RatingEvent.partie_id, RatingEvent.finished_at, RatingEvent.rating_after, RatingEvent.place)
            .where(RatingEvent.member_id == member_id, RatingEvent.game == game, RatingEvent.rated.is_(True))
            .order_by(RatingEvent.finished_at, RatingEvent.partie_id)
        ).all()
        return [{"partie_id": r.partie_id, "finished_at": r.finished_at, "rating": r.rating_after, "place": r.place}
                for r in rows]


def _rating_dict(row: Rating) -> dict[str, Any]:
    skill = Skill(row.mu, row.sigma)
    return {"rating": row.rating, "mu": row.mu, "sigma": row.sigma, "parties": row.parties,
            "provisional": provisional(skill, row.parties)}


def subscribe(club: Club) -> None:
    """Rate parties as they end (on the notices' thread, never on the word path)."""

    def on_finished(notice: PartieFinished) -> None:
        rated = rate_pending(club.db)
        log.debug("partie %s finished: %s parties rated", notice.partie_id, rated)

    club.finished.subscribe(on_finished)


def rate_pending(db: Database) -> int:
    """Rate every finished partie that has no rating events yet, oldest first; returns
    how many were taken. Idempotent: a partie is taken once.

    The search runs in a read transaction (it does not hold up the tables' writes); the
    write transaction checks each partie again under the lock and rates it."""
    with db.read() as s:
        pending = dict(s.execute(_countable().where(~_rated(Partie.id)).order_by(*_ORDER)).all())
    if not pending:
        return 0
    taken = 0
    with db.write() as s:
        _lock(s, db)
        for partie in _load(s, pending):
            if s.scalar(select(_rated(partie.id))):
                continue  # rated meanwhile (another instance, a second notice)
            outcome = _outcome(partie, pending[partie.id])
            if outcome is None:
                continue
            members = [m for m in outcome.members if m is not None]
            rows = {r.member_id: r for r in s.scalars(
                select(Rating).where(Rating.game == outcome.game, Rating.member_id.in_(members)))}
            standings = {m: Standing(Skill(r.mu, r.sigma), r.parties, r.updated_at, r.last_partie_id)
                         for m, r in rows.items()}
            events = apply_outcome(outcome, standings)
            s.execute(insert(RatingEvent), [e.values() for e in events])
            for e in events:
                if e.rated:
                    _store(s, rows.get(e.member_id), e.member_id, e.game, standings[e.member_id])
            taken += 1
    return taken


def _rated(partie_id: Any) -> Any:
    """Whether a partie has its rating events."""
    return exists().where(RatingEvent.partie_id == partie_id)


def rebuild(db: Database) -> int:
    """Recompute every rating from the archive (finished parties in the order they
    finished); returns the number of parties counted. The live updates give the same."""
    with db.write() as s:
        _lock(s, db)
        s.execute(delete(RatingEvent))
        s.execute(delete(Rating))
        ids = dict(s.execute(_countable().order_by(*_ORDER)).all())
        standings: dict[str, dict[int, Standing]] = {}
        events: list[EventRow] = []
        counted = 0
        for partie in _load(s, ids):
            outcome = _outcome(partie, ids[partie.id])
            if outcome is None:
                continue
            events.extend(apply_outcome(outcome, standings.setdefault(outcome.game, {})))
            counted += 1
            if len(events) >= _BATCH:
                s.execute(insert(RatingEvent), [e.values() for e in events])
                events = []
        if events:
            s.execute(insert(RatingEvent), [e.values() for e in events])
        rows = [_rating_values(m, game, st) for game, by_member in standings.items() for m, st in by_member.items()]
        for i in range(0, len(rows), _BATCH):
            s.execute(insert(Rating), rows[i:i + _BATCH])
        return counted


def counted_at() -> ColumnElement[datetime]:
    """When a finished partie counts: its end, or for a tournament table the end of its
    round (rulings T11)."""
    round_end = (select(TournamentRound.ended_at)
                 .where(TournamentRound.tournament_id == Partie.tournament_id,
                        TournamentRound.round_no == Partie.tournament_round)
                 .scalar_subquery())
    return func.coalesce(round_end, Partie.finished_at, type_=Partie.finished_at.type)


_ORDER = (counted_at(), Partie.finished_at, Partie.id)


def _countable():
    """Finished parties that may count, with the moment they count: not exhibitions, with
    a member at the table, not a table of a tournament round still being played."""
    return select(Partie.id, counted_at()).where(
        Partie.status == "finished", Partie.exhibition.is_(False), Partie.finished_at.is_not(None),
        exists().where(PartieSeat.partie_id == Partie.id, PartieSeat.member_id.is_not(None)),
        or_(Partie.tournament_id.is_(None), round_ended_clause()),
    )


def _outcome(partie: Partie, counted: datetime):
    outcome = outcome_of(partie)
    return None if outcome is None else replace(outcome, finished_at=counted)


def _load(s: Session, ids: Iterable[int]) -> Iterator[Partie]:
    """The parties of ``ids`` with their results and seats, in the order given."""
    ids = list(ids)
    for i in range(0, len(ids), _BATCH):
        chunk = ids[i:i + _BATCH]
        found = {p.id: p for p in s.scalars(
            select(Partie).where(Partie.id.in_(chunk)).options(undefer(Partie.result), selectinload(Partie.seats).lazyload(PartieSeat.member))
            .execution_options(populate_existing=True))}
        for pid in chunk:
            if pid in found:
                yield found[pid]
        s.expunge_all()


def _lock(s: Session, db: Database) -> None:
    if not db.is_sqlite:
        s.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ADVISORY_LOCK})


def _rating_values(member_id: int, game: str, st: Standing) -> dict[str, Any]:
    return {"member_id": member_id, "game": game, "mu": st.skill.mu, "sigma": st.skill.sigma,
            "rating": displayed(st.skill), "parties": st.parties, "updated_at": st.updated_at,
            "last_partie_id": st.last_partie_id}


def _store(s: Session, row: Rating | None, member_id: int, game: str, st: Standing) -> None:
    values = _rating_values(member_id, game, st)
    if row is None:
        s.add(Rating(**values))
    else:
        for key, value in values.items():
            setattr(row, key, value)
    s.flush()

