"""A traveller names each board's contract as the table's own score sheet names it (T4,
issue 36): for every game played in tournaments, by the Club's rules and by house rules
that name a contract their own way, in both languages.

A round is played for real on the test clock: preferans by its members' words
(``play_round``); Lora and Lórum, whose round is a whole partie, by the computer players
the round's deadline hands every seat to (T3). Then each board's traveller page (and its
JSON) is set beside each table's score sheet as static/js/sheets.js draws it from the
table page's ``#klub-game``, the partie's view and its score sheet.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from tests.support.api import register
from tests.support.tournaments import admin_client, create, play_round, round_ended

CASES = [
    ("lora", {}),  # the Club's 28 deals: contracts are numbers, Lora is the 7th
    ("lora", {"variant": "klub", "kralj_sesti": True, "bez": ["vise", "manje", "dame", "herc"]}),
    ("lora", {"variant": "libijska", "igraca": 3}),  # "sesti" of three players is the 8th trick
    ("lorum", {}),
    ("lorum", {"sto_jedan": True, "makk": True}),  # the extra contracts: deals named by code
    ("preferans", {}),
]
ROW = re.compile(r'<tr data-table="(\d+)">.*?<td class="contract">(.*?)(?: <small>.*?)?</td>'
                 r'.*?href="/archive/(\d+)#deal=(\d+)&', re.S)


def json_in(page: str, element_id: str) -> dict:
    return json.loads(re.search(rf'id="{element_id}">(.*?)</script>', page, re.S).group(1))


def sheet_names(game: str, page_game: dict, view: dict, sheet: dict) -> list[str | None]:
    """Each ended deal's contract as the table's score sheet names it, step by step as
    static/js/sheets.js does: Lora's S.plan (the Club's rows by S.contract, house rules'
    played deals by S.named with the partie's settings), Lórum's S.chips (the schedule's
    codes), preferans' S.hands (the papir line's contract; None: all passed)."""
    contracts, names = page_game["contracts"], page_game["contract_names"]

    def named(code: str, settings: dict | None) -> str:  # S.named
        settings = settings or {}
        key = ("kralj_sesti" if code == "kralj" and settings.get("kralj_sesti")
               else "sesti3" if code == "sesti" and settings.get("igraca") == 3 else code)
        return names.get(key, str(code))

    if game == "preferans":
        lines = {line["deal"]: line.get("contract") for line in sheet["papir"]["lines"] if "dealer" in line}
        return [lines[k] for k in range(len(lines))]
    deals = sheet["result"]["deals"]
    if not view.get("schedule"):  # S.contract(k): the Club's seven contracts, dealer after dealer
        return [contracts[k % len(contracts)] for k in range(len(deals))]
    if game == "lorum":
        return [named(code, None) for _, code in view["schedule"][:len(deals)]]
    return [named(d["contract"], view["deal"]["settings"]) for d in deals]


def play(app, client, clock, game: str, rules: dict) -> tuple:
    """A one-round tournament of two tables, played to its end; (admin, id, round)."""
    admin = admin_client(app)
    hands = {"hands": 3} if game == "preferans" else {}
    t = create(admin, clock, game=game, format="svajcarski", rounds=1, round_minutes=30, settings=rules, **hands)
    players = 2 * (rules.get("igraca") or (3 if game == "preferans" else 4))
    members = {f"putnik{i}": register(app, f"putnik{i}") for i in range(players)}
    for c in members.values():
        assert c.post(f"/api/tournaments/{t['id']}/register").status_code == 200
    assert admin.post(f"/api/tournaments/{t['id']}/start").json()["current_round"] == 1
    if game == "preferans":
        play_round(app, members, t["id"], seed=36)
    else:
        clock.advance(minutes=31)  # past the deadline the computer players play the partie out
    # computer players play two whole parties out (Lórum with 101 and makk: some 40 deals)
    return admin, t["id"], round_ended(admin, t["id"], 1, timeout=180)


@pytest.mark.one_database
@pytest.mark.parametrize(("game", "rules"), CASES, ids=[f"{g}-{'-'.join(r) or 'klub'}" for g, r in CASES])
def test_a_traveller_names_each_contract_as_the_tables_sheet(client, app, clock, game, rules):
    admin, tid, played = play(app, client, clock, game, rules)
    tables = [tb["partie_id"] for tb in played["tables"]]
    assert len(tables) == 2 and played["boards"] >= 2
    for lang in ("sr-Latn", "en"):
        sheets = {}
        for pid in tables:
            page_game = json_in(admin.get(f"/table/{pid}?lang={lang}").text, "klub-game")
            view = admin.get(f"/api/parties/{pid}/view").json()["view"]
            sheet = admin.get(f"/api/parties/{pid}/score-sheet").json()
            labels = ([line.get("contract") for line in sheet["papir"]["lines"] if "dealer" in line]
                      if game == "preferans" else [d["contract"] for d in sheet["result"]["deals"]])
            sheets[pid] = (labels, sheet_names(game, page_game, view, sheet))
        for board in range(1, played["boards"] + 1):
            data = admin.get(f"/api/tournaments/{tid}/rounds/1/boards/{board}").json()
            page = admin.get(f"/tournaments/{tid}/rounds/1/boards/{board}?lang={lang}")
            assert page.status_code == 200
            rows = ROW.findall(page.text)
            assert len(rows) == len(data["tables"]) >= 1, page.text
            for row, (table_no, name, pid, deal) in zip(data["tables"], rows):
                labels, names = sheets[int(pid)]
                assert (int(table_no), row["partie_id"], int(deal)) == (row["table_no"], int(pid), board)
                assert row["line"]["contract"] == labels[board - 1], (board, pid)
                shown = names[board - 1]
                assert html.unescape(name) == ("–" if shown is None else shown), (lang, board, pid, labels[board - 1])
