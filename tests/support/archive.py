"""Parties written straight into a served Club's database for the browser tests (the archive's
replay, the analysis, the phone's table): the module's own served Club, a member registered
through the form, pages logged in as him, and a partie of random legal words at his seat."""

from __future__ import annotations

import random
import secrets

import pytest

from tests.support.browser import register
from tests.support.ui import close_watched, own_server, watched_page

WIDE = {"width": 1366, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from own_server(tmp_path_factory, "archive")


@pytest.fixture(scope="module")
def member(server, browser):  # noqa: F811
    """A member registered through the form; returns (name, the session's cookies)."""
    ctx = browser.new_context()
    name = register(ctx.new_page(), server, "arhivar")
    cookies = ctx.cookies()
    ctx.close()
    return name, cookies


def open_page(browser, member, viewport=WIDE):
    """A watched page (tests/support/ui.py) logged in as ``member``."""
    return watched_page(browser, viewport, member[1])


close_page = close_watched


def random_log(game: str, seed: str, settings: dict, stop=None):
    """A partie of random legal words from ``seed``: the engine and the log of (seat, word).

    ``stop(engine)`` ends it early (an unfinished partie).
    """
    from app.parties.engines import new_engine

    engine = new_engine(game, settings, seed)
    rng = random.Random(seed)
    optional = type(engine).optional_words
    log: list[tuple[int, str]] = []
    while not engine.finished and not (stop and stop(engine)):
        seats = engine.seats_to_act()
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        words = engine.legal_actions(seat)
        if optional and rng.random() >= 0.05:
            words = [w for w in words if w not in optional] or words
        word = rng.choice(words)
        engine.apply(seat, word)
        log.append((seat, word))
    return engine, log


def seed_partie(server, member_name: str, game: str, settings: dict | None = None, stop=None, seed=None) -> dict:
    """Write a partie of random play into the server's database: the member at seat 0,
    computer players at the others; finished, or running when ``stop`` ends it early."""
    from sqlalchemy import create_engine, select
    from sqlalchemy.orm import Session

    from app.db.models import Action, Member, Partie, PartieSeat
    from app.db.types import utcnow
    from app.games.registry import descriptor

    game_d = descriptor(game)
    settings = game_d.normalize_settings(settings or {})
    seed = seed or secrets.token_hex(16)
    engine, log = random_log(game, seed, settings, stop)
    db = create_engine(server.db_url)
    with Session(db) as s, s.begin():
        me = s.scalar(select(Member).where(Member.name_key == member_name.lower()))
        seats = [PartieSeat(seat=0, kind="member", member_id=me.id, answer="accepted")]
        seats += [PartieSeat(seat=i, kind="bot", bot="pocetnik", answer="accepted") for i in range(1, game_d.seats)]
        now = utcnow()
        partie = Partie(game=game, settings=settings, status="finished" if engine.finished else "running",
                        proposer_id=me.id, seed=seed, version=len(log), result=engine.result(), seats=seats,
                        started_at=now, finished_at=now if engine.finished else None)
        s.add(partie)
        s.flush()
        s.add_all(Action(partie_id=partie.id, seq=i + 1, seat=seat, word=word, member_id=me.id if seat == 0 else None,
                         source="member" if seat == 0 else "bot") for i, (seat, word) in enumerate(log))
        partie_id = partie.id
    db.dispose()
    return {"id": partie_id, "engine": engine, "log": log, "settings": settings, "seed": seed}
