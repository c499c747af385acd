"""A fourth game plugs in whole (issue 38, item 2): a toy trick game written to a temporary
package outside the Club's tree, with its descriptor, its engine and its computer players,
registered for the test. It is proposed and played through the API against the Club's
computer players and a member's words, and its table page, archive page, score sheet and
replay work, in a browser too, while no file of the Club names it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.games.registry import register as register_game, unregister
from tests.support.paths import ROOT

CODE = "sitnica"
PACKAGE = "klub_toy_sitnica"

# The toy's own package: three players, nine cards (Q, K, A of three suits), three each,
# two deals; follow suit, the highest card of the suit led takes the trick, a trick is a
# point, the most points win.
ENGINE = '''
from __future__ import annotations

import random
from typing import Any

from app.games.base import DealError, EngineBase, IllegalAction, NotYourTurn, SettingsError

DECK = ("QS", "KS", "AS", "QH", "KH", "AH", "QD", "KD", "AD")
RANK = {"Q": 0, "K": 1, "A": 2}
DEALS = 2


def settings_rule(settings: object) -> dict[str, Any]:
    if settings in (None, {}):
        return {}
    raise SettingsError("sitnica has no settings")


class SitnicaPartie(EngineBase):
    game = "sitnica"
    n_seats = 3
    settings_rule = staticmethod(settings_rule)

    def __init__(self, settings: dict[str, Any], seed: int | str | None = None):
        self.settings = settings
        self.seed = seed
        self.version = 0
        self.deals: list[list[list[str]]] = []  # each deal's hands as dealt
        self.actions: list[list[list[Any]]] = []
        self.points: list[list[int]] = []
        self.hands: list[list[str]] = []
        self.trick: list[list[Any]] = []
        self.turn = 0
        if seed is not None:
            self._deal_from_seed()

    def _deal_from_seed(self) -> None:
        cards = list(DECK)
        random.Random(f"{self.seed}:{len(self.deals)}").shuffle(cards)
        self.start_deal([sorted(cards[i * 3:i * 3 + 3]) for i in range(3)])

    @property
    def finished(self) -> bool:
        return len(self.points) == DEALS and not self._in_deal

    @property
    def _in_deal(self) -> bool:
        return bool(self.deals) and any(self.hands)

    @property
    def deal_index(self) -> int:
        return max(len(self.deals) - 1, 0)

    @property
    def needs_deal(self) -> bool:
        return not self.finished and not self._in_deal

    def start_deal(self, hands: object, pile: object = None) -> None:
        if not self.needs_deal:
            raise DealError("a deal is in play")
        if pile is not None or not isinstance(hands, list) or len(hands) != 3 \\
                or sorted(c for h in hands for c in h) != sorted(DECK) or any(len(h) != 3 for h in hands):
            raise DealError("three hands of three cards of the toy deck")
        self.deals.append([list(h) for h in hands])
        self.actions.append([])
        self.points.append([0, 0, 0])
        self.hands = [list(h) for h in hands]
        self.trick = []
        self.turn = (len(self.deals) - 1) % 3

    def seats_to_act(self) -> list[int]:
        return [self.turn] if self._in_deal else []

    def legal_actions(self, seat: int) -> list[str]:
        if not self._in_deal or seat != self.turn:
            return []
        hand = self.hands[seat]
        if self.trick:
            suit = self.trick[0][1][1]
            same = [c for c in hand if c[1] == suit]
            return same or list(hand)
        return list(hand)

    def apply(self, seat: int, word: str) -> None:
        if seat not in self.seats_to_act():
            raise NotYourTurn(f"seat {seat} has nothing to say now")
        if word not in self.legal_actions(seat):
            raise IllegalAction(f"{word!r} is not legal now")
        self.hands[seat].remove(word)
        self.trick.append([seat, word])
        self.actions[-1].append([seat, word])
        self.version += 1
        if len(self.trick) == 3:
            suit = self.trick[0][1][1]
            winner = max((p for p in self.trick if p[1][1] == suit), key=lambda p: RANK[p[1][0]])[0]
            self.points[-1][winner] += 1
            self.trick = []
            self.turn = winner
            if not any(self.hands) and self.seed is not None and not self.finished:
                self._deal_from_seed()
        else:
            self.turn = (seat + 1) % 3

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "game": self.game, "version": self.version, "seat": seat, "finished": self.finished,
            "deal_index": self.deal_index, "legal_actions": [] if seat is None else self.legal_actions(seat),
            "result": self.result(),
            "hand": list(self.hands[seat]) if seat is not None and self.hands else [],
            "hand_sizes": [len(h) for h in self.hands], "trick": [list(p) for p in self.trick], "turn": self.turn,
        }

    def result(self) -> dict[str, Any]:
        totals = [sum(p[s] for p in self.points) for s in range(3)]
        places = [1 + sum(t > mine for t in totals) for mine in totals]
        return {"deals": [{"points": list(p)} for p in self.points], "totals": totals, "places": places}

    def to_record(self, players: list[str]) -> dict[str, Any]:
        return {"format": "klub-record/1", "game": self.game, "players": list(players), "settings": {},
                "deals": [{"hands": h, "actions": [list(a) for a in acts]} for h, acts in zip(self.deals, self.actions)],
                "result": self.result()}
'''

BOTS = '''
from app.ai import RandomBot


def make_bot(level, seed):
    """Every level of the toy's computer players plays a random legal card."""
    return RandomBot(seed)
'''

# Its own sheet, in its package: the generic one under a line of its own words.
SHEET = '''
"use strict";
(function () {
  const K = window.Klub;
  K.sheets.sheet = (players, result, current, mySeat) => {
    const box = K.sheets.totals(players, result, current, mySeat);
    box.prepend(K.el("p.sitnica-note", { text: K.T("Sitnica: the most tricks win") }));
    return box;
  };
})();
'''

DESCRIPTOR = '''
from pathlib import Path

from app.games.descriptor import GameDescriptor, Text
from klub_toy_sitnica.engine import SitnicaPartie

DESCRIPTOR = GameDescriptor(
    code="sitnica", engine=SitnicaPartie, bots="klub_toy_sitnica.bots",
    assets=Path(__file__).with_name("assets"), sheet="sitnica-sheet.js",
    name=Text("Sitnica", "Sitnica"), tagline=Text("3 igrača, 2 deljenja", "3 players, 2 deals"),
    rules_title=Text("Pravila sitnice", "Rules of Sitnica"),
    quick_start=Text("Sitnica protiv dva računara", "Sitnica against two computer players"),
    texts={"Sitnica: the most tricks win": Text("Sitnica: pobeđuje najviše štihova", "Sitnica: the most tricks win")},
    replay_table=lambda engine: {"trick": engine.view(None)["trick"]},
    replay_hands=lambda engine: [engine.view(s)["hand"] for s in range(3)],
)
'''


def _toy_package(root: Path) -> None:
    package = root / PACKAGE
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""A toy trick game, outside the Club."""\n')
    for name, text in (("engine", ENGINE), ("bots", BOTS), ("descriptor", DESCRIPTOR)):
        (package / f"{name}.py").write_text(textwrap.dedent(text).lstrip())
    (package / "assets").mkdir()
    (package / "assets" / "sitnica-sheet.js").write_text(SHEET.lstrip())


@pytest.fixture
def toy(tmp_path):
    """The toy game's package in a temporary directory, on the path and registered."""
    from importlib import import_module

    _toy_package(tmp_path / "toy")
    sys.path.insert(0, str(tmp_path / "toy"))
    try:
        descriptor = import_module(f"{PACKAGE}.descriptor").DESCRIPTOR
        register_game(descriptor)
        yield descriptor
    finally:
        unregister(CODE)
        sys.path.remove(str(tmp_path / "toy"))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture
def live(tmp_path, toy):
    from tests.support.migrated import migrated_sqlite
    from tests.support.web import LiveServer

    url = migrated_sqlite(tmp_path / "klub.db")
    settings = Settings(database_url=url, argon2_time_cost=1, argon2_memory_kib=8192, bot_delay_seconds=0,
                        ui_trick_pause_ms=40)
    server = LiveServer(settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _wait(predicate, timeout: float = 20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_no_file_of_the_club_names_the_toy_game():
    for folder in ("app", "static", "templates", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".js", ".html", ".css", ".md", ".json"):
                assert CODE not in path.read_text(errors="replace").lower(), path


def test_the_toy_game_plays_through_the_api_and_its_pages_work(live):
    from tests.support.web import member

    ana = member(live.url, "ana")
    # the lobby offers it, with its quick start
    lobby = ana.get("/lobby").text
    assert f'name="game" value="{CODE}"' in lobby and f'id="quick-{CODE}"' in lobby
    # a member and two of the Club's computer players (the toy's own package plays them)
    r = ana.post("/api/parties", json={"game": CODE, "seats": [{"kind": "bot", "level": "pocetnik"},
                                                                  {"kind": "bot", "level": "random"}]})
    assert r.status_code in (200, 201), r.text
    pid = r.json()["id"]
    table = ana.get(f"/table/{pid}")
    assert table.status_code == 200 and "<title>Sitnica #" in table.text
    assert '"Sitnica: the most tricks win": "Sitnica: pobeđuje najviše štihova"' in table.text  # its own words
    scripts = re.findall(r'<script src="([^"]+)"', table.text)
    assert any(src.startswith(f"/games/{CODE}/sitnica-sheet.js?v=") for src in scripts), scripts  # from its package
    assert any(src.startswith("/static/js/plain.js?v=") for src in scripts), scripts  # no table script: the plain one
    for src in scripts:  # every script of the page is served
        assert ana.get(src).status_code == 200, src
    assert ana.get(f"/games/{CODE}/../descriptor.py").status_code == 404
    assert ana.get(f"/games/{CODE}/descriptor.py").status_code == 404
    # ana plays her cards by words; the computer players answer
    said = 0
    while True:
        state = _wait(lambda: (s := ana.get(f"/api/parties/{pid}/view").json())
                      and (s["finished"] or s["legal"]) and s)
        if state["finished"]:
            break
        r = ana.post(f"/api/parties/{pid}/actions", json={"word": state["legal"][0], "version": state["version"]})
        assert r.status_code in (200, 202), r.text
        said += 1
    assert said >= 4  # three tricks a deal, two deals: she led or followed in every trick
    summary = ana.get(f"/api/parties/{pid}").json()
    assert summary["status"] == "finished" and summary["game"] == CODE
    # the record, the score sheet, the replay and the archive's pages
    record = ana.get(f"/api/parties/{pid}/record").json()
    assert record["game"] == CODE and len(record["deals"]) == 2
    sheet = ana.get(f"/api/parties/{pid}/score-sheet")
    assert sheet.status_code == 200 and sum(sheet.json()["result"]["totals"]) == 6, sheet.text
    assert record["result"] == sheet.json()["result"]
    replay = ana.get(f"/ui/api/parties/{pid}/replay?deal=1")
    assert replay.status_code == 200 and len(replay.json()["steps"]) == 10
    archive = ana.get(f"/archive/{pid}")
    assert archive.status_code == 200 and "Sitnica" in archive.text
    for src in re.findall(r'<script src="([^"]+)"', archive.text):
        assert ana.get(src).status_code == 200, src
    assert f'data-partie="{pid}"' in ana.get(f"/archive?who=all&game={CODE}").text
    rules = ana.get(f"/rules/{CODE}")  # no rules pages of its own: its title and tagline
    assert rules.status_code == 200 and "Pravila sitnice" in rules.text and "3 igrača, 2 deljenja" in rules.text
    assert ana.get("/members/ana").status_code == 200  # her profile counts the toy's partie
    assert ana.get("/api/standings?game=" + CODE).status_code in (200, 404)


def test_the_toy_game_in_a_browser(live, browser):
    from tests.support.ui import close_watched, watched_page
    from tests.support.web import member

    ana = member(live.url, "bela")
    pid = ana.post("/api/parties", json={"game": CODE, "seats": [{"kind": "bot", "level": "random"}] * 2}).json()["id"]
    cookies = [{"name": c.name, "value": c.value, "url": live.url} for c in ana.cookies.jar]
    pg = watched_page(browser, cookies=cookies)
    try:
        pg.goto(f"{live.url}/table/{pid}")
        # her cards are drawn and clickable when it is her turn; she plays the partie by clicking
        for _ in range(60):
            pg.wait_for_function("() => Klub.table && (Klub.table.finished || (Klub.table.canAct() && !Klub.table.pausing))",
                                 timeout=20000)
            if pg.evaluate("() => Klub.table.finished"):
                break
            legal = pg.evaluate("() => Klub.table.legal")
            version = pg.evaluate("() => Klub.table.version")
            pg.click(f"#hand [data-card='{legal[0]}']")
            pg.wait_for_function(f"() => Klub.table.version > {version} || Klub.table.finished", timeout=20000)
        assert pg.evaluate("() => Klub.table.finished")
        pg.wait_for_selector("#sheet table")
        assert pg.locator("#sheet tbody tr").count() == 2  # a row per deal
        # its own sheet script and its own words
        assert pg.text_content("#sheet .sitnica-note") == "Sitnica: pobeđuje najviše štihova"
        pg.goto(f"{live.url}/archive/{pid}")
        pg.wait_for_selector("#final-sheet table")
        assert pg.text_content("#final-sheet .sitnica-note") == "Sitnica: pobeđuje najviše štihova"
        pg.click("#replay button[data-step=start]")  # the last deal from its first card: every hand
        assert pg.locator("#replay .replay-hand .card").count() == 9
    finally:
        close_watched(pg)
    assert httpx.get(f"{live.url}/healthz").status_code == 200


def test_a_setting_plugs_the_toy_game_into_a_served_club(tmp_path):
    """KLUB_OUTSIDE_GAMES names the toy's descriptor module: a Club started with it (its own
    process, nothing registered by code) offers and plays the toy game."""
    from tests.support.ui import start_server, stop_server
    from tests.support.web import member

    _toy_package(tmp_path / "toy")
    server = start_server(tmp_path, KLUB_OUTSIDE_GAMES=f"{PACKAGE}.descriptor",
                          PYTHONPATH=f"{tmp_path / 'toy'}:{ROOT}")
    try:
        ana = member(server.url, "ana")
        assert f'name="game" value="{CODE}"' in ana.get("/lobby").text
        r = ana.post("/api/parties", json={"game": CODE, "seats": [{"kind": "bot", "level": "random"}] * 2})
        assert r.status_code == 201, r.text
        assert ana.get(f"/api/parties/{r.json()['id']}").json()["game"] == CODE
    finally:
        stop_server(server)


def test_a_bad_outside_game_setting_stops_with_its_reason(tmp_path):
    from app.games.base import GameError
    from app.games.registry import register_modules

    with pytest.raises(GameError, match="cannot be imported"):
        register_modules("klub_no_such_game.descriptor")
    with pytest.raises(GameError, match="defines no DESCRIPTOR"):
        register_modules("app.games.registry")
    (tmp_path / "klub_false_lora.py").write_text(
        "from app.games.lora.descriptor import DESCRIPTOR as LORA\n"
        "from dataclasses import replace\n"
        "DESCRIPTOR = replace(LORA)\n")
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(GameError, match="takes the code 'lora'"):
            register_modules("klub_false_lora")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("klub_false_lora", None)
    # the commands say it too, and do nothing
    done = subprocess.run([sys.executable, "-m", "app", "migrate"], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "KLUB_OUTSIDE_GAMES": "klub_no_such_game.descriptor",
                               "KLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'k.db'}"})
    assert done.returncode == 2 and "the outside game 'klub_no_such_game.descriptor' cannot be imported" in done.stderr
    assert not (tmp_path / "k.db").exists()
