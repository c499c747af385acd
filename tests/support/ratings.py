"""Finished parties written straight into the database, for the ratings' tests: a partie
row with its seats, settings and ``result["places"]``, as the tables leave one."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from app.db import Database
from app.db.models import Member, Partie, PartieSeat
from app.games.registry import descriptor

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)


def members(db: Database, names: list[str]) -> list[int]:
    """Members by these names (no password needed for these tests); their ids."""
    with db.write() as s:
        rows = [Member(name=n, name_key=n.lower(), password_hash="-") for n in names]
        s.add_all(rows)
        s.flush()
        return [m.id for m in rows]


@dataclass(frozen=True)
class Seat:
    member_id: int | None = None  # None: a computer player
    bot: str | None = None
    taken_over: bool = False


def add_partie(
    db: Database,
    game: str,
    seats: list[Seat],
    places: list[int] | None,
    finished_at: datetime | None = None,
    *,
    settings: dict | None = None,
    status: str = "finished",
    exhibition: bool = False,
    extra_result: dict | None = None,
) -> int:
    """A partie of ``game`` with these seats, places and status; its id."""
    proposer = next((s.member_id for s in seats if s.member_id is not None), None)
    with db.write() as s:
        if proposer is None:
            proposer = s.query(Member.id).order_by(Member.id).limit(1).scalar()
        rows = [
            PartieSeat(seat=i, kind="member", member_id=seat.member_id, answer="accepted", taken_over=seat.taken_over)
            if seat.member_id is not None else PartieSeat(seat=i, kind="bot", bot=seat.bot or "majstor", answer="accepted")
            for i, seat in enumerate(seats)
        ]
        result = {"places": places, **(extra_result or {})} if places is not None else None
        partie = Partie(
            game=game, settings=settings or {}, status=status, exhibition=exhibition, proposer_id=proposer,
            seed="0" * 32, version=1, result=result, seats=rows,
            started_at=(finished_at or T0) - timedelta(minutes=30),
            finished_at=finished_at if status == "finished" else None,
        )
        s.add(partie)
        s.flush()
        return partie.id


def random_places(rng: random.Random, n: int) -> list[int]:
    """Places of ``n`` seats with ties now and then (1-based, shared places skip)."""
    scores = [rng.randint(0, 3 if rng.random() < 0.3 else 50) for _ in range(n)]
    return [1 + sum(1 for t in scores if t > mine) for mine in scores]


def random_parties(db: Database, rng: random.Random, member_ids: list[int], count: int,
                   games: list[str], after_each=None) -> list[int]:
    """``count`` parties of random games, seats (members and computer players), places
    and kinds (mostly rated; some house rules, exhibitions, unfinished ones), finishing
    in order (several at the same moment); ``after_each(pid)`` runs after each."""
    ids = []
    when = T0
    for _ in range(count):
        game = rng.choice(games)
        n = descriptor(game).seats
        kind = rng.choices(["rated", "house", "exhibition", "running"], [85, 7, 4, 4])[0]
        pool = rng.sample(member_ids, k=rng.randint(1, min(n, len(member_ids))))
        seats = [Seat(m, taken_over=rng.random() < 0.05) for m in pool]
        seats += [Seat(None, rng.choice(["random", "pocetnik", "iskusan", "majstor"])) for _ in range(n - len(pool))]
        rng.shuffle(seats)
        settings = {}
        if kind == "house":
            house = descriptor(game).house_keys
            settings = {house[0]: "house"} if house else {}
        if rng.random() > 0.2:
            when = when + timedelta(minutes=rng.randint(1, 90))
        pid = add_partie(db, game, seats, random_places(rng, n), when, settings=settings,
                         status="running" if kind == "running" else "finished", exhibition=kind == "exhibition")
        ids.append(pid)
        if after_each is not None:
            after_each(pid)
    return ids
