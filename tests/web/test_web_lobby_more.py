"""The lobby and the standings (issue 23, item 11): a Lórum quick start, the proposal
form keeps the game just proposed, how long a partie usually takes here (the median of the
finished ones per game and settings), how far each watchable table is, and the standings
open on the game the member played most (or the Club's most played one)."""

from __future__ import annotations

import re
from datetime import timedelta

from app.db.types import utcnow
from app.members.service import find_member
from app.ratings.service import rate_pending
from tests.support.pages import client, register  # noqa: F401
from tests.support.ratings import Seat, add_partie


def checked_game(html: str) -> str:
    return re.search(r'<input type="radio" name="game" value="(\w+)"[^>]*checked', html).group(1)


def member_id(client, name: str) -> int:  # noqa: F811
    club = client.app.state.club
    return find_member(club.db, name).id


def test_lorum_has_a_quick_start_that_seats_three_computer_players(client):  # noqa: F811
    register(client, "ana")
    lobby = client.get("/lobby").text
    assert 'id="quick-lorum"' in lobby and "Lórum protiv tri računara" in lobby
    form = re.search(r'<form[^>]*>(?:(?!</form>).)*id="quick-lorum"', lobby, re.S).group(0)
    data = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    r = client.post("/lobby/propose", data=data, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/table/"), r.text
    summary = client.get(f"/api/parties/{r.headers['location'].rsplit('/', 1)[1]}").json()
    assert summary["game"] == "lorum" and summary["status"] == "running"
    assert [s["kind"] for s in summary["seats"]] == ["member", "bot", "bot", "bot"]


def test_the_proposal_form_keeps_the_game_just_proposed(client):  # noqa: F811
    register(client, "boki")
    register(client, "ana")
    assert checked_game(client.get("/lobby").text) == "lora"  # the first game by default
    r = client.post("/lobby/propose", data={"game": "preferans", "seat1": "member", "seat1_name": "boki",
                                            "seat2": "bot", "seat2_bot": "pocetnik"})
    assert r.status_code == 200 and "/lobby?proposed=" in str(r.url)
    assert checked_game(r.text) == "preferans"
    assert checked_game(client.get("/lobby?game=poker").text) == "lora"  # an unknown game: the default


def test_the_lobby_says_how_long_a_partie_usually_takes(client):  # noqa: F811
    register(client, "ana")
    assert "obično" not in client.get("/lobby").text  # nothing finished yet: nothing said
    db = client.app.state.club.db
    ana = member_id(client, "ana")
    now = utcnow()
    for minutes in (40, 50, 90):  # Lora with its default settings: the median is 50
        pid = add_partie(db, "lora", [Seat(ana), Seat(None), Seat(None), Seat(None)], [1, 2, 3, 4], now)
        with db.write() as s:
            from app.db.models import Partie

            s.get(Partie, pid).started_at = now - timedelta(minutes=minutes)
    add_partie(db, "lora", [Seat(ana), Seat(None), Seat(None), Seat(None)], [1, 2, 3, 4], now, exhibition=True)
    lobby = client.get("/lobby").text
    label = re.search(r'type="radio" name="game" value="lora"[^>]*>(?:(?!</label>).)*', lobby, re.S).group(0)
    assert "obično 50 min" in label
    other = re.search(r'type="radio" name="game" value="preferans"[^>]*>(?:(?!</label>).)*', lobby, re.S).group(0)
    assert "obično" not in other  # no finished preferans: nothing said
    assert "usually 50 min" in client.get("/lobby?lang=en").text


def test_the_lobby_says_how_far_each_table_is(client):  # noqa: F811
    register(client, "ana")
    r = client.post("/lobby/propose", data={"game": "lora", "exhibition": "on", "seat1_bot": "pocetnik"},
                    follow_redirects=False)
    assert r.headers["location"].startswith("/table/")
    register(client, "boki")  # another member: ana's exhibition is a table to watch
    lobby = client.get("/lobby").text
    assert re.search(r"Deljenje \d+ od 28", lobby), lobby
    pid = r.headers["location"].rsplit("/", 1)[1]
    client.post("/lobby/propose", data={"game": "preferans", "seat1": "bot", "seat2": "bot"})
    mine = client.get("/lobby").text
    assert re.search(r"Ruka \d+</small>", mine)  # preferans has no fixed number of hands
    assert f"/table/{pid}" in mine


def test_the_standings_open_on_the_game_the_member_played_most(client):  # noqa: F811
    for name in ("ana", "boki", "ceca"):
        register(client, name)
    db = client.app.state.club.db
    ana, boki, ceca = (member_id(client, n) for n in ("ana", "boki", "ceca"))
    now = utcnow()
    for k in range(3):
        add_partie(db, "lorum", [Seat(boki), Seat(ceca), Seat(None), Seat(None)], [1, 2, 3, 4], now - timedelta(hours=k + 1))
    add_partie(db, "preferans", [Seat(ana), Seat(None), Seat(None)], [1, 2, 3], now - timedelta(hours=5))
    rate_pending(db)

    def current(html: str) -> str:
        return re.search(r'class="game-filter current" data-game="(\w+)"', html).group(1)

    assert current(client.get("/standings").text) == "lorum"  # ceca (logged in last) played Lórum
    client.post("/logout")
    client.post("/login", data={"name": "ana", "password": "secret-pass-1"})
    assert current(client.get("/standings").text) == "preferans"  # ana's only game
    assert current(client.get("/standings?game=lora").text) == "lora"  # asked for: that one
    register(client, "dule")  # never played: the Club's most played game
    assert current(client.get("/standings").text) == "lorum"
