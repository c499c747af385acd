"""Bot accounts, their tokens and the bot API (app/bots/, docs/bots.md): accounts and
tokens, scopes, revocation and expiry, the limits (429 with Retry-After), fair play,
and a partie played over the API with its streams. The reference client's test, in its
own process through a cut network: tests/bots/test_bot_client.py."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from app.db.models import BotToken, Member
from tests.support.api import PASSWORD, register
from tests.support.api import error_code as code
from tests.support.bots import bearer, new_bot, new_token

PREFERANS = {"bule": 30, "refe": 0, "deljenja": 3}


@pytest.fixture
def settings(settings, request):
    tight = {"bot_words_per_second": 4, "bot_parties_per_day": 3, "bot_max_tables": 2}  # the limits' test
    # The others play faster than a bot would (the Club's computer players answer at once).
    return settings.model_copy(update={"bot_keepalive_seconds": 0.3, "bot_words_per_second": 1000,
                                       **(tight if "limits" in request.node.name else {})})


def test_bot_accounts_and_their_tokens(app, client):
    ana = register(app, "ana")
    r = ana.post("/api/bots", json={"name": "Robo"})
    assert r.status_code == 201 and r.json()["owner"] == "ana" and r.json()["tokens"] == []
    assert code(ana.post("/api/bots", json={"name": "robo"})) == "name_taken"
    assert code(ana.post("/api/bots", json={"name": "ana"})) == "name_taken"
    assert code(ana.post("/api/bots", json={"name": "r"})) == "invalid_name"
    # A bot account cannot log in with a password (whatever it tries), and is marked as a bot.
    r = client.post("/api/auth/login", json={"name": "robo", "password": PASSWORD})
    assert r.status_code == 401 and code(r) == "bad_credentials"
    listed = {m["name"]: m for m in ana.get("/api/members").json()["members"]}
    assert listed["Robo"]["bot_owner"] == "ana" and listed["Robo"]["role"] == "bot" and listed["ana"]["bot_owner"] is None
    # Tokens: shown once, kept hashed, with scopes and an expiry; bad requests change nothing.
    for body, err in (({"scopes": []}, "invalid_scopes"), ({"scopes": ["bot:fly"]}, "invalid_scopes"),
                      ({"scopes": ["bot:play"], "days": 0}, "invalid_token_days"),
                      ({"scopes": ["bot:play"], "days": 366}, "invalid_token_days")):
        r = ana.post("/api/bots/robo/tokens", json=body)
        assert r.status_code == 422 and code(r) == err, r.text
    r = ana.post("/api/bots/robo/tokens", json={"scopes": ["bot:challenge", "bot:play"], "days": 7, "label": "test"})
    assert r.status_code == 201
    made = r.json()
    token = made["token"]
    assert token.startswith("kbt_") and len(token) > 40 and made["scopes"] == ["bot:play", "bot:challenge"]
    with app.state.club.db.read() as s:
        row = s.scalars(select(BotToken)).one()
        assert row.token_hash != token and token not in json.dumps(row.scopes) and row.prefix == token[:10]
    listed = ana.get("/api/bots").json()["bots"][0]
    assert token not in json.dumps(listed) and listed["tokens"][0]["last_used_at"] is None
    me = client.get("/api/bot/account", headers=bearer(token)).json()
    assert me["name"] == "Robo" and me["owner"] == "ana" and me["scopes"] == ["bot:challenge", "bot:play"]
    assert me["limits"] == {"event_streams": 1, "tables": 8, "words_per_second": 1000, "parties_per_day": 200,
                            "keepalive_seconds": 0.3, "chat_per_minute": 6}
    assert ana.get("/api/bots/robo").json()["tokens"][0]["last_used_at"] is not None
    # Another member has no say over ana's bot.
    bob = register(app, "bob")
    assert code(bob.post("/api/bots/robo/tokens", json={"scopes": ["bot:play"]})) == "no_such_bot"
    assert code(bob.delete(f"/api/bots/robo/tokens/{made['id']}")) == "no_such_bot"
    assert bob.get("/api/bots").json() == {"bots": []}


def test_scopes_revocation_expiry_and_disabled_accounts(app, client, clock):
    ana = register(app, "ana")
    token = new_bot(ana, "robo", ["bot:play"])
    r = client.get("/api/bot/account")
    assert r.status_code == 401 and code(r) == "token_missing" and r.headers["WWW-Authenticate"].startswith("Bearer")
    assert code(client.get("/api/bot/account", headers=bearer("kbt_" + "x" * 43))) == "token_invalid"
    assert code(client.get("/api/bot/account", headers={"Authorization": f"Basic {token}"})) == "token_missing"
    # bot:play only: no proposals, no tournaments.
    r = client.post("/api/bot/parties", headers=bearer(token), json={"game": "preferans", "seats": [{"kind": "bot"}] * 2})
    assert r.status_code == 403 and code(r) == "missing_scope" and r.json()["error"]["scope"] == "bot:challenge"
    assert code(client.post("/api/bot/tournaments/1/join", headers=bearer(token))) == "missing_scope"
    # Revoked: the token stops at once, the other token of the bot goes on.
    other = new_token(ana, "robo", ["bot:play"], days=2)
    token_id = ana.get("/api/bots/robo").json()["tokens"][0]["id"]
    assert ana.delete(f"/api/bots/robo/tokens/{token_id}").status_code == 200
    assert code(client.get("/api/bot/account", headers=bearer(token))) == "token_invalid"
    assert code(ana.delete(f"/api/bots/robo/tokens/{token_id}")) == "no_such_token"
    assert client.get("/api/bot/account", headers=bearer(other)).status_code == 200
    # A retired bot, or a disabled owner: 403; expired: 401.
    assert ana.post("/api/bots/robo/disable").status_code == 200
    r = client.get("/api/bot/account", headers=bearer(other))
    assert r.status_code == 403 and code(r) == "account_disabled"
    assert ana.post("/api/bots/robo/enable").status_code == 200
    with app.state.club.db.write() as s:
        s.scalar(select(Member).where(Member.name_key == "ana")).disabled = True
    assert code(client.get("/api/bot/account", headers=bearer(other))) == "account_disabled"
    with app.state.club.db.write() as s:
        s.scalar(select(Member).where(Member.name_key == "ana")).disabled = False
    clock.advance(days=2, seconds=1)
    r = client.get("/api/bot/account", headers=bearer(other))
    assert r.status_code == 401 and code(r) == "token_expired"


def test_limits_answer_429_with_retry_after(app, client):
    ana = register(app, "ana")
    token = new_bot(ana, "robo")
    auth = bearer(token)
    lone = {"game": "preferans", "settings": PREFERANS, "seats": [{"kind": "open"}, {"kind": "open"}]}
    # Tables at once (2): two proposals of the bot wait for players; a third is refused.
    first = client.post("/api/bot/parties", headers=auth, json=lone).json()["id"]
    assert client.post("/api/bot/parties", headers=auth, json=lone).status_code == 201
    r = client.post("/api/bot/parties", headers=auth, json=lone)
    assert r.status_code == 429 and code(r) == "too_many_tables" and int(r.headers["Retry-After"]) >= 1
    # New parties a day (3): one more after a withdrawal, then none.
    assert client.post(f"/api/bot/parties/{first}/withdraw", headers=auth).status_code == 200
    assert client.post("/api/bot/parties", headers=auth, json=lone).status_code == 201
    assert client.post(f"/api/bot/parties/{first + 1}/withdraw", headers=auth).status_code == 200
    r = client.post("/api/bot/parties", headers=auth, json=lone)
    assert r.status_code == 429 and code(r) == "parties_per_day"
    assert 86000 < int(r.headers["Retry-After"]) <= 86400
    # Words per token (4 a second; here 4 a minute, so that a slow machine cannot spread the
    # five words over two windows): the fifth is refused before it is read.
    from limits import RateLimitItemPerMinute

    app.state.club.bot_limits.words = RateLimitItemPerMinute(4, namespace="klub-bot")
    word = {"word": "dalje", "version": 0}
    answers = [client.post(f"/api/bot/parties/{first}/actions", headers=auth, json=word) for _ in range(5)]
    assert [a.status_code for a in answers[:4]] == [409] * 4  # the partie is not running
    assert answers[4].status_code == 429 and code(answers[4]) == "words_rate_limited"
    assert 50 <= int(answers[4].headers["Retry-After"]) <= 60
    other = new_token(ana, "robo")  # per token: another token of the bot may speak
    assert client.post(f"/api/bot/parties/{first}/actions", headers=bearer(other), json=word).status_code == 409
    # One event stream per bot (over any token).
    with client.stream("GET", "/api/bot/stream", headers=auth) as stream:
        lines = stream.iter_lines()  # kept: a dropped iterator would close the stream
        assert json.loads(next(lines))["type"] == "hello"
        r = client.get("/api/bot/stream", headers=bearer(other))
        assert r.status_code == 429 and code(r) == "stream_open" and int(r.headers["Retry-After"]) >= 1
    with client.stream("GET", "/api/bot/stream", headers=bearer(other)) as stream:  # free again once closed
        assert stream.status_code == 200


def test_fair_play(app, client):
    ana, bob = register(app, "ana"), register(app, "bob")
    robo = new_bot(ana, "robo")
    new_bot(ana, "robo2")
    seats = lambda *names: [{"kind": "member", "name": n} for n in names]  # noqa: E731
    # Never with its owner, nor with another bot of his.
    r = ana.post("/api/parties", json={"game": "preferans", "seats": seats("robo", "bob")})
    assert r.status_code == 403 and code(r) == "own_bot_at_table"
    assert code(bob.post("/api/parties", json={"game": "preferans", "seats": seats("robo", "robo2")})) == "own_bot_at_table"
    # A bot-open seat: a bot takes it, a member cannot; the owner cannot join beside his bot.
    r = bob.post("/api/parties", json={"game": "preferans", "settings": PREFERANS,
                                       "seats": [{"kind": "bot_open"}, {"kind": "open"}]})
    pid = r.json()["id"]
    assert r.json()["seats"][1]["kind"] == "bot_open" and r.json()["seats"][1]["name"] is None
    opened = client.get("/api/bot/open-seats", headers=bearer(robo)).json()["parties"]
    assert [p["id"] for p in opened] == [pid]
    assert code(ana.post(f"/api/parties/{pid}/join", json={"seat": 1})) == "no_open_seat"
    assert client.post(f"/api/bot/parties/{pid}/join", headers=bearer(robo)).status_code == 200
    r = ana.post(f"/api/parties/{pid}/join")
    assert r.status_code == 403 and code(r) == "own_bot_at_table"
    carl = register(app, "carl")
    assert carl.post(f"/api/parties/{pid}/join").json()["status"] == "running"
    # The owner does not watch his bot's table while it runs (view, events, chat, lobby list).
    for path in (f"/api/parties/{pid}/view", f"/api/parties/{pid}/events?since=0", f"/api/parties/{pid}/chat"):
        r = ana.get(path)
        assert r.status_code == 403 and code(r) == "own_bot_table", path
    assert pid not in [p["id"] for p in ana.get("/api/lobby").json()["running"]]
    assert carl.get(f"/api/parties/{pid}/view").status_code == 200
    # A bot writes in the chat only with the scope bot:chat (tests/bots/test_bot_api_chat.py).
    assert bob.post(f"/api/parties/{pid}/chat", json={"text": "zdravo"}).status_code == 201
    assert client.get(f"/api/bot/parties/{pid}/chat", headers=bearer(robo)).json()["messages"][0]["text"] == "zdravo"
    r = client.post(f"/api/bot/parties/{pid}/chat", headers=bearer(robo), json={"text": "hi"})
    assert r.status_code == 403 and code(r) == "missing_scope" and r.json()["error"]["scope"] == "bot:chat"
    # Tournaments: only those that allow bots; never a bot with its owner.
    with app.state.club.db.write() as s:
        s.scalar(select(Member).where(Member.name_key == "ana")).role = "organizer"
    spec = {"name": "Kup", "game": "preferans", "format": "duplikat", "rounds": 1,
            "start_at": "2099-01-01T19:00:00+00:00", "timer_seconds": 60}
    closed = ana.post("/api/tournaments", json=spec).json()["id"]
    r = client.post(f"/api/bot/tournaments/{closed}/join", headers=bearer(robo))
    assert r.status_code == 403 and code(r) == "bots_not_allowed"
    open_ = ana.post("/api/tournaments", json={**spec, "bots_allowed": True}).json()["id"]
    assert client.post(f"/api/bot/tournaments/{open_}/join", headers=bearer(robo)).status_code == 200
    r = ana.post(f"/api/tournaments/{open_}/register")
    assert r.status_code == 403 and code(r) == "own_bot_at_table"
    assert bob.post(f"/api/tournaments/{open_}/register").status_code == 200


def _lines(stream):
    for text in stream.iter_lines():
        if text.strip():
            yield json.loads(text)


def test_a_partie_over_the_api(app, client):
    """The bot proposes a short preferans partie against two computer players and plays it
    from its stream; the words take the members' path (resends, stale versions, illegal
    words), and the bot is rated in its own standings, never in the members'."""
    ana = register(app, "ana")
    auth = bearer(new_bot(ana, "robo"))
    r = client.post("/api/bot/parties", headers=auth,
                    json={"game": "preferans", "settings": PREFERANS, "seats": [{"kind": "bot", "bot": "random"}] * 2})
    assert r.status_code == 201 and r.json()["status"] == "running" and r.json()["my_seat"] == 0
    pid = r.json()["id"]
    events = client.stream("GET", "/api/bot/stream", headers=auth)
    with events as ev:
        hello, started = [x for _, x in zip(range(2), _lines(ev))]
        assert hello["type"] == "hello" and started == {"type": "partie_started", "partie": started["partie"]}
        assert started["partie"]["id"] == pid
    checked = set()
    versions = []
    with client.stream("GET", f"/api/bot/parties/{pid}/stream", headers=auth) as stream:
        for frame in _lines(stream):
            if frame["type"] == "end":
                assert frame["status"] == "finished"
                break
            if frame["type"] == "state":
                assert frame["seat"] == 0 and frame["game"] == "preferans" and frame["settings"]["deljenja"] == 3
                assert "hand" in frame["view"] or frame["view"]
            if frame["type"] not in ("state", "event"):
                continue
            versions.append(frame["version"])
            if frame.get("finished") or 0 not in frame["to_act"]:
                continue
            v, legal = frame["version"], frame["legal"]
            if "illegal" not in checked:
                checked.add("illegal")
                r = client.post(f"/api/bot/parties/{pid}/actions", headers=auth, json={"word": "XX", "version": v})
                assert r.status_code == 422 and code(r) == "illegal_action" and r.json()["error"]["legal"] == legal
                r = client.post(f"/api/bot/parties/{pid}/actions", headers=auth, json={"word": legal[0], "version": v + 5})
                assert r.status_code == 409 and code(r) == "stale_version"
                assert r.json()["error"]["current"]["version"] == v and r.json()["error"]["current"]["seat"] == 0
            body = {"word": legal[-1] if legal[-1] != "otpis" else legal[0], "version": v, "action_id": f"a{v}"}
            r = client.post(f"/api/bot/parties/{pid}/actions", headers=auth, json=body)
            if r.status_code == 409:
                continue  # another seat answered an offer first: the stream brings the new state
            assert r.status_code == 200 and r.json()["applied"]["version"] == v + 1, r.text
            if "resend" not in checked:
                checked.add("resend")
                again = client.post(f"/api/bot/parties/{pid}/actions", headers=auth, json=body)
                assert again.json()["applied"] == {**r.json()["applied"], "duplicate": True}
    assert versions == sorted(set(versions)) and len(versions) > 20
    # Resuming: the events after a version, no state line first.
    with client.stream("GET", f"/api/bot/parties/{pid}/stream?since={versions[-3]}", headers=auth) as stream:
        tail = list(_lines(stream))
    assert [f["version"] for f in tail if f["type"] == "event"] == versions[-2:] and tail[-1]["type"] == "end"
    # Rated in the bots' own standings, never in the members'.
    from app.ratings.standings import standings

    db = app.state.club.db
    from tests.support.web import wait_for

    wait_for(lambda: standings(db, "preferans", bots=True)["members"])
    bots = standings(db, "preferans", bots=True)["members"]
    assert [(b["name"], b["owner"], b["parties"]) for b in bots] == [("robo", "ana", 1)]
    assert "robo" not in [m["name"] for m in ana.get("/api/standings?game=preferans").json()["members"]]
    assert [(b["name"], b["owner"]) for b in ana.get("/api/standings?game=preferans&bots=true").json()["members"]] \
        == [("robo", "ana")]
    assert ana.get(f"/api/parties/{pid}/view").status_code == 200  # the owner watches it once it is over


def test_my_bots_on_the_account_page(app, client):
    import re

    ana = register(app, "ana")
    page = ana.get("/account")
    assert page.status_code == 200 and "Moji botovi" in page.text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text).group(1)
    r = ana.post("/account/bots", data={"csrf": csrf, "name": "robo"})
    assert r.status_code == 200 and 'id="bot-created"' in r.text
    r = ana.post("/account/bots", data={"csrf": csrf, "name": "robo"})
    assert r.status_code == 409 and 'id="bot-error"' in r.text
    r = ana.post("/account/bots/token", data={"csrf": csrf, "bot": "robo", "bot:play": "on", "days": "30"})
    token = re.search(r'id="new-token-value" readonly value="(kbt_[^"]+)"', r.text).group(1)
    assert r.headers["Cache-Control"] == "no-store"
    assert client.get("/api/bot/account", headers=bearer(token)).json()["scopes"] == ["bot:play"]
    again = ana.get("/account").text
    assert token not in again and token[:10] in again  # shown once; its prefix tells it apart
    assert ana.post("/account/bots/token", data={"csrf": csrf, "bot": "robo", "days": "30"}).status_code == 422
    token_id = ana.get("/api/bots/robo").json()["tokens"][0]["id"]
    r = ana.post("/account/bots/revoke", data={"csrf": csrf, "bot": "robo", "token": str(token_id)})
    assert r.status_code == 200 and 'id="token-revoked"' in r.text
    assert code(client.get("/api/bot/account", headers=bearer(token))) == "token_invalid"
    assert ana.post("/account/bots", data={"csrf": "x", "name": "robo2"}).status_code == 403


def test_the_bots_page(app, client):
    """/bots: the bots' standings per game with their owners, and the tournaments open to bots."""
    from datetime import datetime, timezone

    from app.db.models import Partie, PartieSeat
    from app.ratings.service import rate_pending

    ana = register(app, "ana")
    new_bot(ana, "robo")
    db = app.state.club.db
    with db.write() as s:  # a finished partie of the bot and the Club's computer players
        robo = s.scalar(select(Member).where(Member.name_key == "robo"))
        s.add(Partie(game="lora", settings={}, status="finished", proposer_id=robo.id, seed="x", version=1,
                     finished_at=datetime.now(timezone.utc), result={"places": [1, 2, 3, 4]},
                     seats=[PartieSeat(seat=0, kind="member", member_id=robo.id, answer="accepted")]
                     + [PartieSeat(seat=i, kind="bot", bot="random", answer="accepted") for i in (1, 2, 3)]))
    assert rate_pending(db) == 1
    page = ana.get("/bots?game=lora")
    assert page.status_code == 200 and "Tabela botova" in page.text
    assert 'data-member="robo"' in page.text and '<a href="/members/ana">ana</a>' in page.text
    assert 'id="bot-tournaments"' in page.text and "Nijedan nije najavljen." in page.text
    assert 'data-member="robo"' not in ana.get("/standings?game=lora").text
    assert ana.get("/bots?game=nope&period=x&lang=en").status_code == 200


def test_the_weekly_bot_ladder(app, client, clock):
    """The ladder's tournament is announced once a week (idempotent), open to bots, with the
    Club's three computer players registered as references; a bot joins with bot:tournament,
    and when round 1 starts the references sit as computer seats that keep their accounts."""
    from app.bots import ladder
    from app.db.models import Partie, Tournament
    from app.members.service import ensure_admin
    from tests.support.web import wait_for

    club = app.state.club
    assert ladder.ensure_weekly(club) is None  # no admin to organize it yet
    ensure_admin(club.db, "upravnik", PASSWORD)
    tid = ladder.ensure_weekly(club)
    assert tid is not None and ladder.ensure_weekly(club) == tid
    ana = register(app, "ana")
    robo = new_bot(ana, "robo", ["bot:play", "bot:tournament"])
    assert client.post(f"/api/bot/tournaments/{tid}/join", headers=bearer(robo)).status_code == 200
    assert code(client.post(f"/api/bot/tournaments/{tid}/join", headers=bearer(robo))) == "already_registered"
    detail = ana.get(f"/api/tournaments/{tid}").json()
    with club.db.read() as s:
        t = s.get(Tournament, tid)
        assert t.bots_allowed and t.format == "duplikat" and t.name.startswith("Bot ladder ")
        assert t.start_at.weekday() == 6 and t.start_at.hour == 18
        assert sorted(m.member.name for m in t.players) == ["klub-iskusan", "klub-majstor", "klub-pocetnik", "robo"]
    assert detail["id"] == tid
    assert "Bot ladder" in ana.get("/bots").text
    # The references never log in.
    assert code(client.post("/api/auth/login", json={"name": "klub-majstor", "password": PASSWORD})) == "bad_credentials"
    def started() -> bool:
        with club.db.read() as s:
            return s.scalar(select(Partie.id).where(Partie.tournament_id == tid).limit(1)) is not None

    with client.stream("GET", "/api/bot/stream", headers=bearer(robo)) as stream:
        lines = _lines(stream)
        assert next(lines)["type"] == "hello"
        clock.advance(days=8)  # past the start: round 1 (the watcher on the clock starts it)
        told = next(x for x in lines if x["type"] != "keepalive")
        assert told["type"] == "tournament_round" and told["tournament"] == tid and told["round"] == 1
        assert told["partie"]["my_seat"] is not None and told["partie"]["tournament"]["id"] == tid
        assert next(x for x in lines if x["type"] != "keepalive")["type"] == "partie_started"
    wait_for(started)
    with club.db.read() as s:
        seats = [row for p in s.scalars(select(Partie).where(Partie.tournament_id == tid)) for row in p.seats]
        refs = {row.member.name: row for row in seats if row.member is not None and row.member.role == "computer"}
        assert set(refs) == {"klub-pocetnik", "klub-iskusan", "klub-majstor"}
        assert all(row.kind == "bot" and row.bot == name.removeprefix("klub-") for name, row in refs.items())
        mine = [row for row in seats if row.member is not None and row.member.name == "robo"]
        assert len(mine) == 1 and mine[0].kind == "member"
    # A week later the next one is announced.
    assert ladder.ensure_weekly(club) not in (None, tid)


def test_the_lobby_form_offers_a_seat_for_a_bot(app, client):
    import re

    bob = register(app, "bob")
    page = bob.get("/lobby").text
    assert 'value="bot_open"' in page
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
    r = bob.post("/lobby/propose", data={"csrf": csrf, "game": "preferans", "seat1": "bot_open", "seat2": "bot"},
                 follow_redirects=False)
    assert r.status_code == 303, r.text[:500]
    mine = bob.get("/api/lobby").json()["mine"]
    assert [s["kind"] for s in mine[0]["seats"]] == ["member", "bot_open", "bot"]
    assert "mesto za bota" in bob.get("/lobby").text
