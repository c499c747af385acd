"""Rows for every table of the Club at a past revision (tests/db/test_migrations_upgrade.py).

Each revision gets a generation of rows in every table it has, as its schema expects
(the tables reflected): the values that mean something by hand (members who log in, real
parties played by the engine, a tournament round whose tables ended, push devices, bot
tokens...), any other required column from its type. A table no filler knows fails."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy.engine import Connection

from app.analysis.deal import analyse_deal
from app.problems.mining import problems_of
from app.bots.accounts import BOT_ROLE, NO_PASSWORD, TOKEN_PREFIX
from app.games.registry import descriptor, engine_class
from app.push.vapid import b64url, pem_of
from app.ratings import method
from app.tournaments.secret import new_secret, round_seed

PASSWORD = "klupska-lozinka-7"
NOW = datetime.now(timezone.utc).replace(microsecond=0)
FAR = NOW + timedelta(days=25)
GAMES = ("lora", "lorum", "preferans")
SHORT = {"preferans": {"deljenja": 6}}  # a preferans of six hands: a short finished partie


@dataclass
class KnownPartie:
    id: int
    game: str
    status: str
    words: list[tuple[int, str]]
    members: list[int | None]  # by seat; None: a computer player
    bots: list[str | None]
    record: dict[str, Any] | None = None  # a finished partie's, named by member names (AI n for bots)
    tournament: bool = False
    finished_at: datetime | None = None


@dataclass
class Known:
    """What the test wrote, across the generations: what the Club must serve after the upgrade."""

    password_hash: str
    members: dict[int, str] = field(default_factory=dict)  # id -> name (people)
    gens: dict[int, list[int]] = field(default_factory=dict)  # generation -> its four members
    bots: dict[int, str] = field(default_factory=dict)  # bot account id -> name
    sessions: dict[str, int] = field(default_factory=dict)  # cookie token -> member id
    parties: dict[int, KnownPartie] = field(default_factory=dict)
    rated: set[int] = field(default_factory=set)
    skills: dict[tuple[int, str], tuple[Any, int, int, datetime]] = field(default_factory=dict)
    imported: dict[int, int] = field(default_factory=dict)  # record id -> member id
    analyses: list[tuple[int, int]] = field(default_factory=list)
    resets: dict[str, str] = field(default_factory=dict)  # link token -> member name
    bot_tokens: dict[str, str] = field(default_factory=dict)  # token -> bot name
    tournaments: dict[int, str] = field(default_factory=dict)  # id -> "round" or "registration"
    push_key: str | None = None
    endpoints: dict[str, str] = field(default_factory=dict)  # endpoint -> session token
    mutes: dict[int, list[str]] = field(default_factory=dict)  # member id -> the bots whose chat he muted
    leagues: dict[int, tuple[int, int]] = field(default_factory=dict)  # id -> (its member, evening 1's tournament)
    league_organizers: dict[int, int] = field(default_factory=dict)  # league id -> the member an admin named
    problems: dict[int, tuple[int, str]] = field(default_factory=dict)  # problem id -> (who answered, his word)


class Gen:
    """One generation: the rows written at ``revision`` through one connection."""

    def __init__(self, conn: Connection, revision: str, number: int, known: Known):
        self.conn, self.revision, self.n, self.known = conn, revision, number, known
        self.meta = sa.MetaData()
        self.meta.reflect(bind=conn)
        self.rng = random.Random(f"{revision}:{number}")

    def has(self, table: str, column: str | None = None) -> bool:
        t = self.meta.tables.get(table)
        return t is not None and (column is None or column in t.c)

    def insert(self, table: str, rows: dict[str, Any] | list[dict[str, Any]]) -> Any:
        """Insert as this revision's table has it: values for columns it lacks are dropped,
        required columns not given are filled from their type. One row: its primary key."""
        t = self.meta.tables[table]
        many = isinstance(rows, list)
        batch = [self._complete(t, row) for row in (rows if many else [rows])]
        if many:  # one statement per set of columns given (executemany needs the same keys)
            groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
            for values in batch:
                groups.setdefault(tuple(sorted(values)), []).append(values)
            for group in groups.values():
                self.conn.execute(t.insert(), group)
            return None
        key = self.conn.execute(t.insert().values(batch[0])).inserted_primary_key
        return key[0] if len(key) == 1 else tuple(key)

    @staticmethod
    def _complete(t: sa.Table, row: dict[str, Any]) -> dict[str, Any]:
        values = {k: v for k, v in row.items() if k in t.c}
        for col in t.c:
            if col.name in values or col.nullable or col.server_default is not None:
                continue
            if col.primary_key and len(t.primary_key.columns) == 1 and isinstance(col.type, sa.Integer):
                continue  # the database numbers it
            values[col.name] = generic_value(t.name, col)
        return values


def generic_value(table: str, col: sa.Column) -> Any:
    kind = col.type
    if isinstance(kind, sa.Boolean):
        return False
    if isinstance(kind, (sa.Integer, sa.Float, sa.Numeric)):
        return 0
    if isinstance(kind, sa.DateTime):
        return NOW
    if isinstance(kind, sa.JSON):
        return {}
    if isinstance(kind, (sa.String, sa.Text)):
        return "x"[: kind.length or 1]
    raise AssertionError(f"{table}.{col.name} ({kind!r}) is required and the test has no value for its type:"
                         " teach tests/support/upgrade_data.py the new column")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def play(game: str, settings: dict, seed: str, rng: random.Random, max_words: int | None = None):
    """A partie of random legal words dealt from ``seed`` (as the Club seeds its tables);
    the engine and its words."""
    engine = engine_class(game).new(settings, seed=seed)
    optional = type(engine).optional_words
    words: list[tuple[int, str]] = []
    while not engine.finished and (max_words is None or len(words) < max_words):
        seats = engine.seats_to_act()
        seat = rng.choice(seats)
        legal = engine.legal_actions(seat)
        legal = [w for w in legal if w not in optional] or legal
        word = rng.choice(legal)
        engine.apply(seat, word)
        words.append((seat, word))
    return engine, words


# -- the fillers, in the order of the foreign keys -------------------------------------


def fill_members(g: Gen) -> None:
    k = g.known
    people = []
    for letter in "abcd":
        name = f"clan{g.n}{letter}"
        role = "admin" if g.n == 0 and letter == "a" else "member"
        mid = g.insert("members", {"name": name, "name_key": name, "password_hash": k.password_hash, "role": role,
                                   "disabled": False, "created_at": NOW - timedelta(days=40 - g.n),
                                   "last_seen_at": NOW, "vacation_year": NOW.year, "vacation_hours_used": 3 * g.n})
        k.members[mid] = name
        people.append(mid)
    k.gens[g.n] = people
    if g.has("members", "bot_owner_id"):
        name = f"robot{g.n}"
        bot = g.insert("members", {"name": name, "name_key": name, "password_hash": NO_PASSWORD, "role": BOT_ROLE,
                                   "disabled": False, "created_at": NOW, "bot_owner_id": people[0]})
        k.bots[bot] = name


def fill_sessions(g: Gen) -> None:
    token = f"sesija-{g.revision}-{g.n}-{g.rng.getrandbits(64):x}"
    g.insert("sessions", {"id": sha256(token), "member_id": g.known.gens[g.n][0], "created_at": NOW,
                          "last_seen_at": NOW, "expires_at": FAR})
    g.known.sessions[token] = g.known.gens[g.n][0]


def fill_login_failures(g: Gen) -> None:
    g.insert("login_failures", {"key": f"address:10.0.0.{g.n}", "created_at": NOW})


def fill_password_resets(g: Gen) -> None:
    token = f"link-{g.n}-{g.rng.getrandbits(64):x}"
    member = g.known.gens[g.n][1]
    g.insert("password_resets", {"id": sha256(token), "member_id": member, "created_by": g.known.gens[0][0],
                                 "created_at": NOW, "expires_at": FAR})
    g.known.resets[token] = g.known.members[member]


def fill_bot_tokens(g: Gen) -> None:
    for bot, name in g.known.bots.items():
        if name in g.known.bot_tokens.values():
            continue
        token = f"{TOKEN_PREFIX}{g.rng.getrandbits(192):048x}"
        g.insert("bot_tokens", {"bot_id": bot, "token_hash": sha256(token), "prefix": token[:10], "label": "test",
                                "scopes": ["bot:play"], "created_at": NOW, "expires_at": FAR})
        g.known.bot_tokens[token] = name


def fill_chat_mutes(g: Gen) -> None:
    """A member of the generation mutes the chat of the generation's bots."""
    member = g.known.gens[g.n][1]
    for bot, name in g.known.bots.items():
        if name not in g.known.mutes.get(member, []):
            g.insert("chat_mutes", {"member_id": member, "muted_id": bot, "created_at": NOW})
            g.known.mutes.setdefault(member, []).append(name)


def _partie(g: Gen, game: str, settings: dict, seats: list[dict], seed: str | None, engine=None,
            words: list[tuple[int, str]] = (), tournament: bool = False, **more: Any) -> int:
    """A partie with its seats and action log; a started one (``engine`` and its ``words``)
    is also kept in ``known`` with its record."""
    status = "proposed" if engine is None else "finished" if engine.finished else "running"
    finished_at = NOW - timedelta(days=20 - g.n) if status == "finished" else None
    pid = g.insert("parties", {"game": game, "settings": settings, "timer_seconds": None, "status": status,
                               "exhibition": False, "proposer_id": g.known.gens[g.n][0], "seed": seed,
                               "version": len(words), "deadline_at": None, "created_at": NOW - timedelta(days=21),
                               "started_at": None if engine is None else NOW - timedelta(days=21),
                               "finished_at": finished_at, "weekends_off": False,
                               "result": engine.result() if status == "finished" else None, **more})
    g.insert("partie_seats", [{"partie_id": pid, "seat": i, "away": False, "taken_over": False, "takeover_votes": [],
                               "answer": "accepted", **seat} for i, seat in enumerate(seats)])
    g.insert("actions", [{"partie_id": pid, "seq": i, "seat": seat, "word": word, "client_action_id": f"c{i}",
                          "source": "member", "created_at": NOW} for i, (seat, word) in enumerate(words, start=1)])
    members = [seat.get("member_id") for seat in seats]
    names = [g.known.members[m] if m is not None else f"AI {i + 1}" for i, m in enumerate(members)]
    g.known.parties[pid] = KnownPartie(pid, game, status, list(words), members, [seat.get("bot") for seat in seats],
                                       engine.to_record(names) if status == "finished" else None, tournament,
                                       finished_at)
    return pid


def _member_seat(mid: int, **more: Any) -> dict:
    return {"kind": "member", "member_id": mid, **more}


def fill_parties(g: Gen) -> None:
    """A finished partie (the game changes with the generation, a computer player at the
    last seat), a running one (a slow one once the schema has slow parties) and a proposal."""
    people = g.known.gens[g.n]
    game = GAMES[g.n % len(GAMES)]
    settings = dict(SHORT.get(game, {}))
    n = descriptor(game).seats_for(settings)
    seed = f"{g.rng.getrandbits(128):032x}"
    engine, words = play(game, settings, seed, g.rng)
    seats = [_member_seat(m) for m in people[: n - 1]] + [{"kind": "bot", "bot": "random"}]
    pid = _partie(g, game, settings, seats, seed, engine, words)
    g.insert("chat_messages", {"partie_id": pid, "member_id": people[0], "text": f"hvala ({g.revision})",
                               "created_at": NOW})

    game = "lorum" if game == "lora" else "lora"
    seed = f"{g.rng.getrandbits(128):032x}"
    engine, words = play(game, {}, seed, g.rng, max_words=25 + g.n)
    seats = [_member_seat(m) for m in people]
    slow: dict[str, Any] = {}
    if g.has("parties", "bank_seconds"):  # a slow partie (dopisna), weekends off in the proposer's zone
        slow = {"timer_seconds": 86400, "bank_seconds": 172800, "weekends_off": True, "weekend_zone": "Europe/Belgrade"}
        for i, seat in enumerate(seats):
            seat["bank_left"] = 172800
            if i in engine.seats_to_act():  # his clock runs
                seat.update(turn_since=NOW, clock_from=NOW, deadline_at=FAR, remind_at=FAR - timedelta(hours=4))
    _partie(g, game, {}, seats, seed, engine, words, **slow)

    _partie(g, "lora", {}, [_member_seat(people[0]), _member_seat(people[1], answer="invited"),
                            {"kind": "open", "answer": None}, {"kind": "bot", "bot": "random"}], None)


def fill_imported_records(g: Gen) -> None:
    mine = [p for p in g.known.parties.values() if p.record is not None and not p.tournament]
    record = mine[-1].record
    rid = g.insert("imported_records", {"member_id": g.known.gens[g.n][2], "game": record["game"],
                                        "players": record["players"], "record": record, "created_at": NOW})
    g.known.imported[rid] = g.known.gens[g.n][2]


def fill_ratings(g: Gen) -> None:
    """Rate the finished parties not rated yet, as the Club does when they end (tournament
    tables: when their round ends, by the Club)."""
    k = g.known
    todo = sorted((p for p in k.parties.values() if p.status == "finished" and not p.tournament and p.id not in k.rated),
                  key=lambda p: (p.finished_at, p.id))
    for p in todo:
        places = p.record["result"]["places"]
        before = [k.skills[(m, p.game)][0] if m is not None and (m, p.game) in k.skills
                  else method.NEW_MEMBER if m is not None else method.bot_skill(p.bots[i])
                  for i, m in enumerate(p.members)]
        after = method.rate(before, places)
        for seat, m in enumerate(p.members):
            if m is None:
                continue
            old, s, new = k.skills.get((m, p.game)), before[seat], after[seat]
            k.skills[(m, p.game)] = (new, (old[1] if old else 0) + 1, p.id, p.finished_at)
            g.insert("rating_events", {"partie_id": p.id, "member_id": m, "game": p.game, "place": places[seat],
                                       "rated": True, "mu_before": s.mu, "sigma_before": s.sigma, "mu_after": new.mu,
                                       "sigma_after": new.sigma, "rating_after": method.displayed(new),
                                       "finished_at": p.finished_at})
        k.rated.add(p.id)
    ratings = g.meta.tables["ratings"]
    g.conn.execute(ratings.delete())
    g.insert("ratings", [{"member_id": m, "game": game, "mu": s.mu, "sigma": s.sigma, "rating": method.displayed(s),
                          "parties": count, "updated_at": at, "last_partie_id": last}
                         for (m, game), (s, count, last, at) in sorted(k.skills.items())])


_ANALYSES: dict[str, dict] = {}  # the partie's words -> the analysis of its deal 0: once per test run


def fill_deal_analyses(g: Gen) -> None:
    """The analysis of the first deal of the first finished lorum, once (a deal's analysis
    takes a tenth of a second to seconds)."""
    if g.known.analyses:
        return
    lorum = next(p for p in g.known.parties.values() if p.game == "lorum" and p.record is not None)
    key = repr(lorum.words)
    if key not in _ANALYSES:
        _ANALYSES[key] = analyse_deal(lorum.record, 0)
    g.insert("deal_analyses", {"partie_id": lorum.id, "deal_index": 0, "result": _ANALYSES[key], "created_at": NOW})
    g.known.analyses.append((lorum.id, 0))


def _tournament(g: Gen, status: str, secret: str, **more: Any) -> int:
    return g.insert("tournaments", {
        "name": f"Kup {g.revision}", "game": "lora", "settings": {}, "format": "duplikat", "rounds": 1, "hands": None,
        "timer_seconds": 60, "round_minutes": 600, "pause_minutes": 2, "robot_field": False, "place_points": None,
        "seeding": "random", "secret": secret, "status": status, "organizer_id": g.known.gens[0][0],
        "created_at": NOW - timedelta(days=2), "bots_allowed": False, **more})


def fill_tournaments(g: Gen) -> None:
    """First a tournament whose one round has all its tables finished, not yet ended: the
    Club ends it when it starts (results, standings); then one open for registration."""
    k, people = g.known, g.known.gens[g.n]
    if "round" not in k.tournaments.values():
        secret = new_secret()
        tid = _tournament(g, "running", secret, start_at=NOW - timedelta(hours=2), current_round=1, next_round_at=None)
        k.tournaments[tid] = "round"
        g.insert("tournament_players", [{"tournament_id": tid, "member_id": m, "joined_at": NOW - timedelta(days=1),
                                         "joined_round": 1, "removed": False} for m in people])
        g.insert("tournament_rounds", {"tournament_id": tid, "round_no": 1, "started_at": NOW - timedelta(hours=1),
                                       "deadline_at": NOW + timedelta(hours=9), "overdue": False})
        seed = round_seed(secret, tid, 1)
        engine, words = play("lora", {}, seed, g.rng)
        _partie(g, "lora", {}, [_member_seat(m) for m in people], seed, engine, words, tournament=True,
                tournament_id=tid, tournament_round=1, table_no=1, timer_seconds=60)
    tid = _tournament(g, "registration", new_secret(), start_at=FAR, current_round=0, next_round_at=FAR)
    k.tournaments[tid] = "registration"
    g.insert("tournament_players", [{"tournament_id": tid, "member_id": m, "joined_at": NOW, "joined_round": 1,
                                     "removed": False} for m in people[:2]])


def fill_leagues(g: Gen) -> None:
    """A league far ahead (the Club creates no evening of it), a member registered for the
    season who skips its second evening, and its first evening: this generation's
    tournament open for registration."""
    people = g.known.gens[g.n]
    lid = g.insert("leagues", {
        "name": f"Liga {g.revision}", "game": "preferans", "settings": {}, "format": "svajcarski", "rounds": 2,
        "hands": 6, "timer_seconds": 60, "round_minutes": 90, "pause_minutes": 2, "weekday": FAR.weekday(),
        "start_time": "20:00", "zone": "Europe/Belgrade", "first_date": FAR.date(), "evenings": 4,
        "skipped_dates": [], "open_hours": 24, "scoring": "places", "scale": [10, 8, 6, 5], "best_of": 3,
        "final_top": None, "status": "active", "organizer_id": g.known.gens[0][0], "created_at": NOW})
    g.insert("league_members", {"league_id": lid, "member_id": people[0], "joined_at": NOW, "from_evening": 1,
                                "until_evening": None})
    g.insert("league_skips", {"league_id": lid, "member_id": people[0], "evening_no": 2})
    tid = max(t for t, kind in g.known.tournaments.items() if kind == "registration")
    g.insert("league_evenings", {"league_id": lid, "evening_no": 1, "tournament_id": tid, "starts_at": FAR,
                                 "created_at": NOW})
    g.known.leagues[lid] = (people[0], tid)


def fill_league_organizers(g: Gen) -> None:
    """This generation's league: a member an admin named its organizer, and the reminder of
    its first evening told to its season's member."""
    lid = max(g.known.leagues)
    people = g.known.gens[g.n]
    g.insert("league_organizers", {"league_id": lid, "member_id": people[1]})
    g.insert("league_reminders", {"league_id": lid, "evening_no": 1, "member_id": people[0], "sent_at": NOW})
    g.known.league_organizers[lid] = people[1]


def fill_problems(g: Gen) -> None:
    """The problems mined from the analysed Lórum deal (once), a member's answer to the
    first (wrong: the played word), his rating and streak, a flag, the partie mined."""
    if g.known.problems:
        return
    pid, k = g.known.analyses[0]
    partie = g.known.parties[pid]
    mined = problems_of(partie.record, k, _ANALYSES[repr(partie.words)])
    assert mined, "the analysed Lórum deal gives no problem: pick another deal"
    member = g.known.gens[g.n][0]
    ids = [g.insert("problems", {"partie_id": pid, "deal_index": k, "step": p["step"], "game": partie.game,
                                 "theme": p["theme"], "seat": p["seat"], "best": p["best"], "played": p["played"],
                                 "unit": p["unit"], "lost": p["lost"], "margin": p["margin"], "data": p["data"],
                                 "rating": 1500.0, "deviation": 350.0, "volatility": 0.06, "attempts": 1,
                                 "solved": 0, "flags": 1 if i == 0 else 0, "hidden": False, "created_at": NOW})
           for i, p in enumerate(mined)]
    g.insert("problem_sources", {"partie_id": pid, "problems": len(ids), "mined_at": NOW})
    g.insert("problem_ratings", {"member_id": member, "rating": 1450.0, "deviation": 300.0, "volatility": 0.06,
                                 "attempts": 1, "solved": 0, "streak": 0, "best_streak": 0, "updated_at": NOW})
    g.insert("problem_attempts", {"member_id": member, "problem_id": ids[0], "word": mined[0]["played"],
                                  "correct": False, "rating_before": 1500.0, "rating_after": 1450.0, "created_at": NOW})
    g.insert("problem_flags", {"member_id": member, "problem_id": ids[0], "reason": "the best is not clear",
                               "created_at": NOW})
    g.known.problems[ids[0]] = (member, mined[0]["played"])


def fill_push(g: Gen) -> None:
    k = g.known
    if k.push_key is None:
        k.push_key = pem_of(ec.generate_private_key(ec.SECP256R1()))
        g.insert("push_keys", {"id": 1, "private_key": k.push_key, "created_at": NOW})
    token = next(t for t, m in k.sessions.items() if m == k.gens[g.n][0])
    device = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    endpoint = f"https://push.example.com/send/{g.revision}"
    sub = g.insert("push_subscriptions", {"member_id": k.gens[g.n][0], "session_id": sha256(token), "endpoint": endpoint,
                                          "p256dh": b64url(device), "auth": b64url(g.rng.randbytes(16)), "lang": "sr",
                                          "created_at": NOW, "updated_at": NOW})
    k.endpoints[endpoint] = token
    # due in weeks: the Club keeps it and sends nothing while the test runs
    g.insert("push_outbox", {"subscription_id": sub, "kind": "turn", "topic": f"partie-{g.n}", "urgency": "normal",
                             "payload": {"title": "Klub", "body": "Na potezu ste"}, "created_at": NOW,
                             "expires_at": FAR, "next_try_at": FAR - timedelta(days=1), "attempts": 0})


# The tables each filler writes, in the order they run. A table of a revision that is not
# here fails the test: teach the test the new table.
FILLERS: list[tuple[tuple[str, ...], Callable[[Gen], None]]] = [
    (("members",), fill_members),
    (("sessions",), fill_sessions),
    (("login_failures",), fill_login_failures),
    (("password_resets",), fill_password_resets),
    (("bot_tokens",), fill_bot_tokens),
    (("parties", "partie_seats", "actions", "chat_messages"), fill_parties),
    (("imported_records",), fill_imported_records),
    (("chat_mutes",), fill_chat_mutes),
    (("deal_analyses",), fill_deal_analyses),
    (("tournaments", "tournament_players", "tournament_rounds"), fill_tournaments),
    (("leagues", "league_members", "league_skips", "league_evenings"), fill_leagues),
    (("league_organizers", "league_reminders"), fill_league_organizers),
    (("ratings", "rating_events"), fill_ratings),
    (("problems", "problem_sources", "problem_ratings", "problem_attempts", "problem_flags"), fill_problems),
    (("push_keys", "push_subscriptions", "push_outbox"), fill_push),
]
TAUGHT = {name for tables, _ in FILLERS for name in tables}


def fill(conn: Connection, revision: str, number: int, known: Known) -> dict[str, tuple[list[str], list[str]]]:
    """Write generation ``number`` at ``revision``; the tables there (alembic's own left
    out), each with its columns and its primary key's."""
    g = Gen(conn, revision, number, known)
    tables = sorted(name for name in g.meta.tables if name != "alembic_version")
    untaught = [name for name in tables if name not in TAUGHT]
    if untaught:
        raise AssertionError(
            f"migration {revision} has table(s) {', '.join(untaught)} that tests/support/upgrade_data.py does not fill:"
            " teach the test the new table (a filler in FILLERS writing rows the Club must still serve after"
            " the upgrade, and a check in tests/db/test_migrations_upgrade.py)")
    for names, filler in FILLERS:
        present = [g.has(name) for name in names]
        if any(present):
            assert all(present), f"at {revision} only some of {names} exist: split the filler"
            filler(g)
    return {name: ([c.name for c in g.meta.tables[name].c], [c.name for c in g.meta.tables[name].primary_key.columns])
            for name in tables}
