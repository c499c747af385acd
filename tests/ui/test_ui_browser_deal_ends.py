"""Every deal's end says why (issue 23, item 2), in a real browser.

A member sits at a running partie stored just before the deal to watch (dealt from a
seed, the earlier deals played by random legal words), plays his cards against computer
players until that deal has ended, and the table names why: makk's three payers and
their reasons, 101's pile with the card that reached 101 and the total, the card of a
Libyan kitty that voided a deal (the header then names the voided deal's slot and
contract). Screenshots: ``test-artifacts/makk-deal-end.png``, ``lorum-101-deal-end.png``,
``libyan-void-deal.png``.
"""

from __future__ import annotations

import random
import re

import pytest

from app.db import Database
from app.games.registry import engine_class
from tests.support.browser import READY, register, table
from tests.support.club import Seat, store_running
from tests.support.ui import need_chromium, shot, start_server, stop_server


class Served:
    def __init__(self, tmp):
        self.live = start_server(tmp)
        self.url = self.live.url
        self.db = Database(f"sqlite:///{tmp / 'klub.db'}")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    need_chromium()
    s = Served(tmp_path_factory.mktemp("ends"))
    yield s
    stop_server(s.live)


def words_until(game: str, settings: dict, seed: str, stop) -> list[tuple[int, str]]:
    """Random legal words from ``seed`` until ``stop(engine)`` holds with seat 0 to act."""
    cls = engine_class(game)
    engine = cls.new(cls.normalize_settings(settings), seed=seed)
    rng = random.Random(seed)
    words: list[tuple[int, str]] = []
    while not (stop(engine) and engine.seats_to_act() == [0]):
        assert not engine.finished, "the partie ended before the point asked for"
        (seat,) = engine.seats_to_act()
        word = rng.choice(engine.legal_actions(seat))
        engine.apply(seat, word)
        words.append((seat, word))
    return words


def sit(page, server, game: str, settings: dict, seed: str, stop, prefix: str) -> None:
    """The member at seat 0 of a running partie stored where ``stop`` says; its table open."""
    name = register(page, server, prefix)
    n = engine_class(game).new(engine_class(game).normalize_settings(settings), seed=seed).n_seats
    seats = [Seat(name)] + [Seat(None, "pocetnik") for _ in range(n - 1)]
    pid = store_running(server.db, game, seats, words_until(game, settings, seed, stop), seed, settings=settings)
    page.goto(f"{server.url}/table/{pid}")
    page.wait_for_selector("#hand button.card")


def play_until(page, ended: str) -> None:
    """Play the first legal card on my turns until the JS condition ``ended`` holds."""
    for _ in range(200):
        page.wait_for_function(f"() => ({ended}) || ({READY})()", timeout=30000)
        if page.evaluate(f"() => {ended}"):
            return
        t = table(page)
        if not t["ready"] or t["finished"]:
            continue
        if t["legal"] == ["dalje"]:  # said by the table itself
            page.wait_for_function(f"() => Klub.table.version > {t['version']} || ({ended})", timeout=15000)
            continue
        page.locator("#hand button.card:not([disabled])").first.click()
        page.wait_for_function(f"() => Klub.table.version > {t['version']} || ({ended})", timeout=15000)
    raise AssertionError("the deal did not end")


def ended(contract: str | None = None, void: bool = False) -> str:
    test = "e.void" if void else f"e.contract === '{contract}'"
    return f"(Klub.table.view && (Klub.table.view.deal_ends || []).some((e) => {test}))"


def end_of(page, contract: str | None = None, void: bool = False) -> dict:
    test = "e.void" if void else f"e.contract === '{contract}'"
    return page.evaluate(f"() => Klub.table.view.deal_ends.find((e) => {test})")


def reason_text(page, box: str, code: str) -> str:
    return page.inner_text(f"{box} li[data-code='{code}']")


def test_makk_names_each_payer_and_the_reason(page, server):  # noqa: F811
    sit(page, server, "lorum", {"makk": True}, "makk-1", lambda e: e.deal_index == 6, "makk")  # makk: the 7th deal
    play_until(page, ended("makk"))
    box = "#last-deal .deal-end[data-contract='makk']"
    page.wait_for_selector(f"{box} li[data-code='makk_opposite_jack']")
    end = end_of(page, "makk")
    names = page.evaluate("() => Klub.table.names()")
    by_code = {r["code"]: r for r in end["reasons"]}
    assert set(by_code) == {"makk_king", "makk_last_trick", "makk_opposite_jack"}
    king = reason_text(page, box, "makk_king")
    assert names[by_code["makk_king"]["seat"]] in king and "K♥" in king and "−10" in king
    assert names[by_code["makk_last_trick"]["seat"]] in reason_text(page, box, "makk_last_trick")
    assert "poslednji štih" in reason_text(page, box, "makk_last_trick")
    jack = reason_text(page, box, "makk_opposite_jack")
    assert names[by_code["makk_opposite_jack"]["seat"]] in jack and names[by_code["makk_opposite_jack"]["taker"]] in jack
    assert "J♣" in jack and "preko puta" in jack
    assert "Banka +30" in page.inner_text(f"{box} .de-points")
    assert page.inner_text(f"{box} h3").startswith("Prethodno deljenje: Deljenje 7 · Makk")
    # item 3: the current contract's hint under its name, the rules link to its section
    page.wait_for_function("() => Klub.table.view.deal.contract === 'domino'")
    assert "prvi bez karata nosi banku" in page.inner_text("#table-info .contract-hint")
    assert page.get_attribute(".table-links a[href^='/rules/']", "href") == "/rules/lorum?lang=sr-Latn#ugovor-domino"
    shot(page, "makk-deal-end")


def test_101_keeps_the_pile_with_the_card_that_reached_it(page, server):  # noqa: F811
    sit(page, server, "lorum", {"sto_jedan": True}, "sto-1", lambda e: e.deal_index == 6, "sto")  # 101: the 7th deal
    play_until(page, ended("sto_jedan"))
    box = "#last-deal .deal-end[data-contract='sto_jedan']"
    page.wait_for_selector(f"{box} .de-pile .card.just")
    end = end_of(page, "sto_jedan")
    (reason,) = end["reasons"]
    assert reason["code"] == "sto_jedan" and reason["total"] >= 101 and end["pile"][-1][1] == reason["card"]
    assert page.get_attribute(f"{box} .de-pile .card.just", "data-card") == reason["card"]
    assert page.inner_text(f"{box} .de-total b") == str(reason["total"])
    said = reason_text(page, box, "sto_jedan")
    name = page.evaluate(f"() => Klub.table.name({reason['seat']})")
    assert name in said and f"na {reason['total']}" in said and "−10" in said
    shot(page, "lorum-101-deal-end")


def first_kitty_void(settings: dict) -> tuple[str, int]:
    """A seed whose partie (played randomly) has a kitty void deal, and that deal's index."""
    cls = engine_class("lora")
    for i in range(200):
        seed = f"void-{i}"
        engine = cls.new(cls.normalize_settings(settings), seed=seed)
        rng = random.Random(seed)
        while engine.deal_index < 8:
            if any(d.void for d in engine.deals) and engine.deals[engine.deal_index - 1].void:
                k = next(k for k, d in enumerate(engine.deals) if d.void)
                if k >= 1 and not engine.actions[k]:
                    return seed, k
                break
            (seat,) = engine.seats_to_act()
            engine.apply(seat, rng.choice(engine.legal_actions(seat)))
    raise AssertionError("no seed with a kitty void")


def test_a_libyan_void_deal_names_its_card_and_the_header_the_voided_deal(page, server):  # noqa: F811
    settings = {"variant": "libijska", "igraca": 3}
    seed, k = first_kitty_void(settings)
    sit(page, server, "lora", settings, seed, lambda e: e.deal_index == k - 1, "libvoid")
    play_until(page, ended(void=True))
    box = "#last-deal .deal-end[data-void='1']"
    page.wait_for_selector(f"{box} li[data-code='void_kitty']")
    end = end_of(page, void=True)
    (reason,) = [r for r in end["reasons"] if r["code"] == "void_kitty"]
    short = {"KH": "K♥", "JC": "J♣"}[reason["card"]]
    said = reason_text(page, box, "void_kitty")
    assert short in said and "talonu" in said and "Poništeno" in said
    title = page.evaluate("(e) => Klub.sheets.named(e.contract, Klub.table.settings)", end)
    assert f"Deljenje {end['slot'] + 1} · {title} (poništeno)" in page.inner_text(box)
    # the table's header names the voided deal's slot and contract (dealt again), not the deal before
    page.wait_for_function(
        "([no, title]) => document.querySelector('#table-info .deal-no').textContent === no"
        " && document.querySelector('#table-info .contract-name').textContent === title",
        arg=[f"Deljenje {end['slot'] + 1} od 24", title], timeout=15000)
    before = page.evaluate("() => Klub.table.view.deal_ends[0]")
    assert not before["void"] and before["index"] == end["index"] - 1  # the deal the last card ended
    assert re.search(r"Deljenje \d+ · ", page.inner_text("#last-deal h3"))
    shot(page, "libyan-void-deal")
