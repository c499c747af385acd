"""An otpis shows what it does before the answer (issue 23, item 2), in a real browser.

A preferans partie is stored after its first hand, with an otpis proposed by one computer
player and accepted by the other: the member at seat 0 must answer. Beside his answer
buttons the table says what accepting writes (each player's bule before and after, the
places the partie ends with), and accepting writes exactly that. Screenshot:
``test-artifacts/preferans-otpis-preview.png``.
"""

from __future__ import annotations

import random

import pytest

from app.db import Database
from app.games.registry import engine_class
from tests.support.browser import register
from tests.support.club import Seat, store_running
from tests.support.ui import need_chromium, shot, start_server, stop_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    need_chromium()
    tmp = tmp_path_factory.mktemp("otpis")
    live = start_server(tmp)
    live.db = Database(f"sqlite:///{tmp / 'klub.db'}")
    yield live
    stop_server(live)


def after_hands(settings: dict, seed: str, hands: int) -> list[tuple[int, str]]:
    """Random legal words (no offers) from ``seed`` until ``hands`` hands have ended and
    the next one has no word yet: the time of an otpis."""
    cls = engine_class("preferans")
    engine = cls.new(settings, seed=seed)
    rng = random.Random(seed)
    words: list[tuple[int, str]] = []
    while not (engine.hands_ended >= hands and engine.hand.n_actions == 0):
        assert not engine.finished
        (seat,) = engine.seats_to_act()
        legal = [w for w in engine.legal_actions(seat) if w not in cls.optional_words]
        word = rng.choice(legal)
        engine.apply(seat, word)
        words.append((seat, word))
    return words


def num(x: int) -> str:
    return f"−{-x}" if x < 0 else str(x)


def signed(x: int) -> str:
    return f"+{x}" if x > 0 else num(x)


def test_an_otpis_shows_the_bule_and_places_before_the_answer(page, server):  # noqa: F811
    settings = engine_class("preferans").normalize_settings({"bule": 30, "refe": 1})
    seed = "otpis-preview-1"
    words = after_hands(settings, seed, 2) + [(1, "otpis"), (2, "prihvatam")]
    name = register(page, server, "otpis")
    pid = store_running(server.db, "preferans", [Seat(name), Seat(None, "pocetnik"), Seat(None, "pocetnik")],
                        words, seed, settings=settings)
    page.goto(f"{server.url}/table/{pid}")
    box = ".offer-dialog .if-accepted[data-word='otpis']"
    page.wait_for_selector(box)
    view = page.evaluate("() => Klub.table.view")
    names = page.evaluate("() => Klub.table.names()")
    shown = view["offer"]["if_accepted"]
    before = view["result"]["bule"]
    assert view["seats_to_act"] == [0] and shown["ends"]
    # what accepting writes, beside the answer buttons, in the member's language
    assert page.inner_text(f"{box} .ia-title") == "Ako prihvatite:"
    dialog = page.locator(".offer-dialog", has=page.locator(".if-accepted[data-word='otpis']"))
    assert dialog.locator("button.word[data-word='prihvatam']").is_enabled()
    assert dialog.locator("button.word[data-word='odbijam']").is_enabled()
    for s in range(3):
        assert shown["bule_after"][s] == before[s] + shown["bule"][s] and shown["bule"][s] < 0
        line = page.inner_text(f"{box} li.ia-bule[data-seat='{s}']")
        assert line == f"{names[s]}: bule {num(before[s])} → {num(shown['bule_after'][s])} ({signed(shown['bule'][s])})", line
    order = sorted(range(3), key=lambda s: shown["places"][s])
    places = page.inner_text(f"{box} .ia-places")
    assert places == "Partija se završava. Mesta: " + ", ".join(
        f"{shown['places'][s]}. {names[s]} ({num(shown['results'][s])})" for s in order), places
    shot(page, "preferans-otpis-preview")
    # accepting writes exactly what was shown
    page.click(".offer-dialog button.word[data-word='prihvatam']")
    page.wait_for_selector(".partie-over")
    result = page.evaluate("() => Klub.table.view.result")
    assert result["finished"] and result["bule"] == shown["bule_after"]
    assert result["results"] == shown["results"] and result["places"] == shown["places"]
