"""The engine protocol the server relies on (app/games/base.py): a seat's view carries the
same legal words as ``legal_actions`` (the table cache takes them from the view)."""

from __future__ import annotations

import random

import pytest

from app.games.registry import GAMES
from app.tables.engines import new_engine

SETTINGS = {"lora": {}, "lorum": {}, "preferans": {"bule": 30, "refe": 1}}


def test_every_game_is_checked():
    assert set(GAMES) == set(SETTINGS)


@pytest.mark.parametrize("game", sorted(SETTINGS))
def test_a_seats_view_carries_its_legal_words(game):
    engine = new_engine(game, SETTINGS[game], "protocol-seed")
    rng = random.Random(3)
    for _ in range(300):
        if engine.finished:
            break
        for seat in range(engine.n_seats):
            assert engine.view(seat)["legal_actions"] == list(engine.legal_actions(seat)), (game, seat)
        seat = rng.choice(list(engine.seats_to_act()))
        engine.apply(seat, rng.choice(list(engine.legal_actions(seat))))
