"""Helpers of the club-life tests (profiles, revanš, notices): real parties played by
random legal words and written into the database as the tables leave them (seed, action
log, result), so that the archive and the papir replay them."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy import insert, select

from app.db import Database
from app.db.models import Action, Member, Partie, PartieSeat
from app.games.registry import engine_class

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Seat:
    member: str | None = None  # a member's name; None: a computer player
    bot: str = "pocetnik"


def member_ids(db: Database, *names: str) -> list[int]:
    with db.read() as s:
        found = {m.name_key: m.id for m in s.scalars(select(Member).where(Member.name_key.in_([n.lower() for n in names])))}
    return [found[n.lower()] for n in names]


def play_out(game: str, settings: dict, seed: str, rng: random.Random, stop=None):
    """An engine dealt from ``seed`` and played to its end (or until ``stop(engine)``) by
    random legal words; the words."""
    cls = engine_class(game)
    engine = cls.new(settings, seed=seed)
    words: list[tuple[int, str]] = []
    while not engine.finished and not (stop and stop(engine)):
        seats = engine.seats_to_act()
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        legal = engine.legal_actions(seat)
        if cls.optional_words and rng.random() > 0.02:
            legal = [w for w in legal if w not in cls.optional_words] or legal
        word = rng.choice(legal)
        engine.apply(seat, word)
        words.append((seat, word))
    return engine, words


def store_finished(db: Database, game: str, seats: list[Seat], *, settings: dict | None = None,
                   timer: int | None = None, rng_seed: int = 1, minutes: int = 0,
                   exhibition: bool = False, stop=None) -> int:
    """A partie of ``game`` played to its end at these seats, stored as finished; its id.
    ``minutes``: it finished this long after T0 (the order of the ratings). ``stop(engine)``
    ends the play early: the partie is stored as running."""
    cls = engine_class(game)
    settings = cls.normalize_settings(settings or {})
    seed = secrets.token_hex(16)
    engine, words = play_out(game, settings, seed, random.Random(rng_seed), stop)
    running = not engine.finished
    names = [s.member for s in seats if s.member]
    ids = dict(zip(names, member_ids(db, *names))) if names else {}
    finished_at = T0 + timedelta(minutes=minutes)
    with db.write() as s:
        proposer = ids.get(seats[0].member) if seats[0].member else (next(iter(ids.values()), None))
        if proposer is None:
            proposer = s.scalar(select(Member.id).order_by(Member.id).limit(1))
        rows = [
            PartieSeat(seat=i, kind="member", member_id=ids[seat.member], answer="accepted") if seat.member
            else PartieSeat(seat=i, kind="bot", bot=seat.bot, answer="accepted")
            for i, seat in enumerate(seats)
        ]
        partie = Partie(game=game, settings=settings, timer_seconds=timer, status="running" if running else "finished",
                        exhibition=exhibition,
                        proposer_id=proposer, seed=seed, version=len(words), result=None if running else engine.result(),
                        seats=rows,
                        created_at=finished_at - timedelta(hours=1), started_at=finished_at - timedelta(hours=1),
                        finished_at=None if running else finished_at)
        s.add(partie)
        s.flush()
        s.execute(insert(Action), [
            {"partie_id": partie.id, "seq": i, "seat": seat, "word": word, "source": "member",
             "created_at": finished_at}
            for i, (seat, word) in enumerate(words, 1)
        ])
        return partie.id


def engine_of(game: str, settings: dict, seed: str, words: list[tuple[int, str]]):
    engine = engine_class(game).new(settings, seed=seed)
    for seat, word in words:
        engine.apply(seat, word)
    return engine


def replayed(db: Database, partie_id: int):
    """The engine of a stored partie, from its seed and action log."""
    with db.read() as s:
        p = s.get(Partie, partie_id)
        words = [(a.seat, a.word) for a in s.scalars(select(Action).where(Action.partie_id == partie_id).order_by(Action.seq))]
        return engine_of(p.game, p.settings, p.seed, words)


def store_running(db: Database, game: str, seats: list[Seat], words: list[tuple[int, str]], seed: str, *,
                  settings: dict | None = None) -> int:
    """A running partie of ``game`` dealt from ``seed`` whose log is ``words`` (as a table
    that has played them leaves it); its id. The table rebuilds its engine from them."""
    settings = engine_class(game).normalize_settings(settings or {})
    names = [s.member for s in seats if s.member]
    ids = dict(zip(names, member_ids(db, *names)))
    with db.write() as s:
        rows = [
            PartieSeat(seat=i, kind="member", member_id=ids[seat.member], answer="accepted") if seat.member
            else PartieSeat(seat=i, kind="bot", bot=seat.bot, answer="accepted")
            for i, seat in enumerate(seats)
        ]
        partie = Partie(game=game, settings=settings, status="running", proposer_id=ids[names[0]], seed=seed,
                        version=len(words), seats=rows, created_at=T0, started_at=T0)
        s.add(partie)
        s.flush()
        if words:
            s.execute(insert(Action), [
                {"partie_id": partie.id, "seq": i, "seat": seat, "word": word, "source": "member", "created_at": T0}
                for i, (seat, word) in enumerate(words, 1)
            ])
        return partie.id
