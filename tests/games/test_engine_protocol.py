"""The engine protocol the Club relies on (app/games/base.py), checked for every game of
the registry: built by ``new(settings, seed)`` from the descriptor's default settings,
the same top-level view keys in every game (spectators get ``legal_actions: []``), and
a seat's view carries the same legal words as ``legal_actions``; the turn
(``seats_to_act``) and the seats that may speak out of turn (:func:`may_speak`, only the
game's ``optional_words``) are told apart the same way in every game."""

from __future__ import annotations

import random

import pytest

from app.games.base import PartieEngine, SettingsError, may_speak
from app.games.registry import descriptors

GAMES = {g.code: g for g in descriptors()}
VIEW_KEYS = {"game", "version", "seat", "finished", "deal_index", "legal_actions", "result"}


def _engine(code: str):
    game = GAMES[code]
    return game.engine.new(game.default_settings(), seed="protocol-seed")


@pytest.mark.parametrize("code", sorted(GAMES))
def test_an_engine_is_a_partie_engine_with_uniform_views(code):
    engine = _engine(code)
    assert isinstance(engine, PartieEngine)
    assert engine.game == code and engine.n_seats == GAMES[code].seats
    rng = random.Random(5)
    for _ in range(200):
        if engine.finished:
            break
        spectator = engine.view(None)
        assert VIEW_KEYS <= set(spectator), VIEW_KEYS - set(spectator)
        assert spectator["legal_actions"] == [] and spectator["result"] == engine.result()
        for seat in range(engine.n_seats):
            view = engine.view(seat)
            assert VIEW_KEYS <= set(view) and view["seat"] == seat
            assert view["legal_actions"] == list(engine.legal_actions(seat)), (code, seat)
        seat = rng.choice(list(engine.seats_to_act()))
        engine.apply(seat, rng.choice(list(engine.legal_actions(seat))))


@pytest.mark.parametrize("code", sorted(GAMES))
def test_the_turn_and_the_words_out_of_turn_are_told_apart(code):
    """``seats_to_act`` is the turn: every seat in it has words to say. Any other seat with
    legal words may speak (``may_speak``) only the game's optional words, which the game
    never waits for: the "your turn" signal follows the turn alone."""
    engine = _engine(code)
    rng = random.Random(11)
    seen_out_of_turn = 0
    for _ in range(2000):
        if engine.finished:
            break
        turn = list(engine.seats_to_act())
        legal = [list(engine.legal_actions(s)) for s in range(engine.n_seats)]
        assert turn and all(legal[s] for s in turn), (code, turn, legal)
        speakers = may_speak(turn, legal)
        assert not set(speakers) & set(turn)
        assert set(speakers) | set(turn) == {s for s in range(engine.n_seats) if legal[s]}
        for s in speakers:
            assert set(legal[s]) <= engine.optional_words, (code, s, legal[s])
        seen_out_of_turn += bool(speakers)
        seat = rng.choice(turn)
        words = [w for w in legal[seat] if w not in engine.optional_words] or legal[seat]
        engine.apply(seat, rng.choice(words))
    # preferans: the declarer's offers during the opponents' cards, otpis between hands
    assert (seen_out_of_turn > 0) == bool(GAMES[code].engine.optional_words), (code, seen_out_of_turn)


@pytest.mark.parametrize("code", sorted(GAMES))
def test_settings_are_normalized_by_one_method(code):
    game = GAMES[code]
    normalized = game.engine.normalize_settings(game.default_settings())
    assert game.engine.normalize_settings(normalized) == normalized  # idempotent
    assert game.engine.new(normalized).settings == normalized
    with pytest.raises(SettingsError):
        game.engine.normalize_settings({"no such setting": 1})
    with pytest.raises(SettingsError):
        game.engine.normalize_settings("not an object")


@pytest.mark.parametrize("code", sorted(GAMES))
def test_declared_capabilities_work(code):
    game = GAMES[code]
    engine = _engine(code)
    papir = game.papir(engine)
    assert (papir is not None) == game.keeps_papir
    if not game.shows_deals:
        assert game.shown_deal(engine, 0) is None


@pytest.mark.parametrize("code", sorted(GAMES))
def test_the_views_sheet_is_the_sheet_of_the_version_shown(code):
    """A view's sheet (and papir) is built once per version and shared by the seats'
    views (app.games.base.once_per_version): it must still follow every word, including
    the one that ends a deal and writes its line."""
    game = GAMES[code]
    engine = game.engine.new(game.default_settings(), seed="sheet-seed")
    rng = random.Random(11)
    optional = type(engine).optional_words
    lines_seen = 0
    for _ in range(3000):
        if engine.finished:
            break
        views = [engine.view(s) for s in range(engine.n_seats)] + [engine.view(None)]
        for view in views:
            assert view["result"] == engine.result()
            if "papir" in view:
                assert view["papir"] == engine.papir()
        result = engine.result()
        lines_seen = max(lines_seen, len(result["deals"] if "deals" in result else engine.papir()["lines"]))
        seat = engine.seats_to_act()[0]
        legal = [w for w in engine.legal_actions(seat) if w not in optional] or engine.legal_actions(seat)
        engine.apply(seat, rng.choice(legal))
    assert lines_seen >= 2  # deals were scored while the views were read
