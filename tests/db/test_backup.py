"""``python -m app backup FILE`` while the Club plays, and ``restore``.

A real server plays (a member saying words over REST, exhibitions of computer players)
while the command copies the database in a process of its own. The copy must be one
moment of the Club: every member, every partie, each partie's action log as long as its
version says and a prefix of the live one, every word acknowledged before the backup
began, and the parties finished before it whole. A server started on the copy (SQLite:
the file itself; PostgreSQL: pg_restore into a fresh database) serves every partie, and
the finished ones replay (app/games/records.py) to their score sheets.
"""

from __future__ import annotations

import random
import re
import shutil
import sqlite3
import subprocess
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field

import pytest
from sqlalchemy import create_engine, text

from app.db.database import normalize_url
from app.games.records import replayed_record
from tests.support.backends import PG_URL
from tests.support.db import cli, drop_pg_database, fresh_pg_database
from tests.support.web import LiveServer, member, wait_for

BACKUP_BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not PG_URL, reason="KLUB_TEST_DATABASE_URL is not set (PostgreSQL)"))]


@dataclass
class Contents:
    members: dict[int, str]
    parties: dict[int, tuple[str, int]]  # id -> (status, version)
    actions: dict[int, list[tuple[int, int, str]]] = field(default_factory=dict)  # id -> [(seq, seat, word)]

    @property
    def words(self) -> int:
        return sum(len(log) for log in self.actions.values())


def contents(url: str) -> Contents:
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as c:
            members = {i: name for i, name in c.execute(text("SELECT id, name FROM members"))}
            parties = {i: (status, version) for i, status, version in c.execute(
                text("SELECT id, status, version FROM parties"))}
            actions: dict[int, list] = defaultdict(list)
            for pid, seq, seat, word in c.execute(
                    text("SELECT partie_id, seq, seat, word FROM actions ORDER BY partie_id, seq")):
                actions[pid].append((seq, seat, word))
    finally:
        engine.dispose()
    return Contents(members, parties, dict(actions))


class Player(threading.Thread):
    """A member saying random legal words at one table over REST; ``acked`` is the
    partie's version after his last acknowledged word."""

    def __init__(self, client, pid: int):
        super().__init__(daemon=True)
        self.client, self.pid, self.rng = client, pid, random.Random(pid)
        self.acked = 0
        self.halt = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.halt.is_set():
                state = self.client.get(f"/api/parties/{self.pid}/view").json()
                if state.get("finished"):
                    return
                if not state.get("legal"):
                    time.sleep(0.002)
                    continue
                r = self.client.post(f"/api/parties/{self.pid}/actions", json={
                    "word": self.rng.choice(state["legal"]), "version": state["version"], "action_id": uuid.uuid4().hex})
                if r.status_code == 200:
                    self.acked = r.json()["applied"]["version"]
                elif r.status_code != 409:  # 409: a computer player spoke first
                    raise AssertionError(r.text)
        except BaseException as e:  # noqa: BLE001 - told to the test by stop()
            self.error = e

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=30)
        assert self.error is None, repr(self.error)


def propose(client, game: str, exhibition: bool = False) -> int:
    seats = [] if exhibition else [{"kind": "bot"}] * (2 if game == "preferans" else 3)
    r = client.post("/api/parties", json={"game": game, "seats": seats, "exhibition": exhibition})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def status(client, pid: int) -> str:
    return client.get(f"/api/parties/{pid}").json()["status"]


def _major(version_text: str) -> int:
    """The major version in ``pg_dump --version``'s answer ("pg_dump (PostgreSQL) 15.20 (Debian ...)")."""
    found = re.search(r"\)\s*(\d+)", version_text) or re.search(r"(\d+)", version_text)
    return int(found.group(1)) if found else 0


def pg_clients_or_skip(url: str) -> None:
    """Skip unless pg_dump and pg_restore are installed and of the server's major version or newer."""
    for program in ("pg_dump", "pg_restore"):
        if shutil.which(program) is None:
            pytest.skip(f"{program} is not installed (PostgreSQL's client programs)")
    client = _major(subprocess.run(["pg_dump", "--version"], capture_output=True, text=True).stdout)
    engine = create_engine(normalize_url(url))
    with engine.connect() as c:
        server = int(c.scalar(text("SHOW server_version_num"))) // 10000
    engine.dispose()
    if client < server:
        pytest.skip(f"pg_dump {client} cannot dump a PostgreSQL {server} server")


@pytest.mark.parametrize("backend", BACKUP_BACKENDS)
def test_a_backup_made_while_the_club_plays_is_one_moment_of_it(backend, live_server, settings, tmp_path):
    url = settings.database_url
    if backend == "postgresql":
        pg_clients_or_skip(url)
    ana = member(live_server.url, "ana")
    for name in ("boki", "ceca"):
        member(live_server.url, name).close()

    # Before the backup: ana's lorum against computer players, played to its end.
    finished = propose(ana, "lorum")
    mine = Player(ana, finished)
    mine.start()
    mine.join(timeout=120)
    mine.stop()
    assert status(ana, finished) == "finished"

    # During it: ana plays a lora and two exhibitions play themselves.
    running = propose(ana, "lora")
    player = Player(ana, running)
    player.start()
    shows = [propose(ana, game, exhibition=True) for game in ("lora", "preferans")]
    wait_for(lambda: player.acked >= 20, timeout=60)
    acked = player.acked
    before = contents(url)
    target = tmp_path / "backup" / "klub.backup"
    target.parent.mkdir()
    started = time.monotonic()
    done = cli("backup", str(target), database_url=url)
    took = time.monotonic() - started
    after = contents(url)
    player.stop()
    assert done.returncode == 0, done.stderr
    assert str(target) in done.stdout and target.is_file()
    assert after.words > before.words, "the Club wrote nothing while the backup ran"
    print(f"{backend}: backup in {took:.2f} s (the command's process included), {after.words - before.words} words"
          f" said meanwhile, the copy {target.stat().st_size} bytes")

    if backend == "sqlite":
        conn = sqlite3.connect(target)
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file
        conn.close()
        copy_url = f"sqlite:///{tmp_path / 'restored' / 'klub.db'}"  # a folder that restore makes
    else:
        copy_url = fresh_pg_database("restored")
    try:
        restored = cli("restore", str(target), database_url=copy_url)
        assert restored.returncode == 0, restored.stderr
        copy = contents(copy_url)
        if backend == "sqlite":
            assert contents(f"sqlite:///{target}") == copy
        # every member; every partie there before the backup, none that did not exist after it
        assert copy.members == before.members == after.members
        assert set(before.parties) <= set(copy.parties) <= set(after.parties)
        for pid, (state, version) in copy.parties.items():
            log = copy.actions.get(pid, [])
            assert [seq for seq, _, _ in log] == list(range(1, version + 1)), f"partie {pid}: log and version disagree"
            assert log == after.actions.get(pid, [])[:version], f"partie {pid}: not the live log's beginning"
            if pid in before.parties:
                assert version >= before.parties[pid][1], f"partie {pid} lost words"
        assert copy.parties[finished] == before.parties[finished] and copy.parties[finished][0] == "finished"
        assert copy.actions[finished] == before.actions[finished]
        assert copy.parties[running][1] >= acked, "a word acknowledged before the backup is missing"

        served_on_the_copy(settings, copy_url, copy, ana, finished, running, shows)

        # restore refuses a database that holds the Club, and replaces it when told to
        again = cli("restore", str(target), database_url=copy_url)
        assert again.returncode == 1 and "not empty" in again.stderr and "--force" in again.stderr
        assert "Traceback" not in again.stderr
        forced = cli("restore", str(target), "--force", database_url=copy_url)
        assert forced.returncode == 0, forced.stderr
        assert contents(copy_url) == copy  # the served copy's later words gone with it
    finally:
        if backend == "postgresql":
            drop_pg_database(copy_url)


def served_on_the_copy(settings, copy_url: str, copy: Contents, original, finished: int, running: int, shows) -> None:
    """A server on the copy: ana logs in, every partie's score sheet answers, the finished
    partie's record is the original's and replays to its score sheet, and ana's running
    partie waits for her."""
    server = LiveServer(settings.model_copy(update={"database_url": copy_url, "redis_url": None}))
    server.start()
    try:
        ana = member(server.url, "ana", register=False)
        names = {m["name"] for m in ana.get("/api/members").json()["members"]}
        assert names == set(copy.members.values())
        for pid, (state, version) in copy.parties.items():
            r = ana.get(f"/api/parties/{pid}/score-sheet")
            assert r.status_code == 200, (pid, r.text)
            assert r.json()["version"] >= version  # the computer players may play on
        sheet = ana.get(f"/api/parties/{finished}/score-sheet").json()
        record = ana.get(f"/api/parties/{finished}/record").json()
        assert record == original.get(f"/api/parties/{finished}/record").json()
        assert replayed_record(record)["result"] == sheet["result"] and sheet["status"] == "finished"
        view = ana.get(f"/api/parties/{running}/view").json()
        assert view["status"] == "running" and view["seat"] == 0
        assert all(status(ana, pid) in ("running", "finished") for pid in shows if pid in copy.parties)
    finally:
        server.stop()
        server.app.state.club.db.dispose()


def test_backup_and_restore_answer_clearly_without_a_traceback(tmp_path):
    db = tmp_path / "klub.db"
    url = f"sqlite:///{db}"
    missing = cli("backup", str(tmp_path / "b.db"), database_url=url)
    assert missing.returncode == 1 and "there is no database" in missing.stderr
    from tests.support.migrated import migrated_sqlite

    migrated_sqlite(db)
    assert cli("backup", str(db), database_url=url).stderr.strip() == f"backup: {db} is the Club's database itself"
    assert cli("backup", str(tmp_path / "b.db"), database_url=url).returncode == 0
    exists = cli("backup", str(tmp_path / "b.db"), database_url=url)
    assert exists.returncode == 1 and "--force" in exists.stderr
    assert cli("backup", str(tmp_path / "b.db"), "--force", database_url=url).returncode == 0
    # an empty (migrated) database takes a restore without --force
    fresh = migrated_sqlite(tmp_path / "fresh.db")
    assert cli("restore", str(tmp_path / "b.db"), database_url=fresh).returncode == 0
    (tmp_path / "junk").write_text("not a database")
    junk = cli("restore", str(tmp_path / "junk"), "--force", database_url=fresh)
    assert junk.returncode == 1 and "is not a SQLite database" in junk.stderr
    pg = "postgresql+psycopg://klub@127.0.0.1:9/klub"
    no_program = cli("backup", str(tmp_path / "pg.dump"), "--pg-dump", str(tmp_path / "no-pg_dump"), database_url=pg)
    assert no_program.returncode == 1 and "was not found" in no_program.stderr
    if shutil.which("pg_dump"):
        fails = cli("backup", str(tmp_path / "pg.dump"), database_url=pg)  # nothing listens on port 9
        assert fails.returncode == 1 and "pg_dump failed" in fails.stderr and not (tmp_path / "pg.dump").exists()
    wrong = cli("restore", str(tmp_path / "b.db"), database_url=pg)
    assert wrong.returncode == 1 and "is a SQLite database" in wrong.stderr
    for out in (missing, exists, junk, no_program, wrong):
        assert "Traceback" not in out.stderr
