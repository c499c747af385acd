"""The database: migrations match the models; two moves on one table never both apply."""

from __future__ import annotations

import threading

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, func, select

from app.db import Database
from app.db.database import normalize_url
from app.db.models import Action, Base
from app.members.service import CurrentMember, register
from app.parties.proposals import SeatSpec, propose
from app.tables.service import apply_word


def test_migrations_match_the_models(database_url):
    engine = create_engine(normalize_url(database_url))
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(ctx, Base.metadata)
    engine.dispose()
    assert diff == []


def test_concurrent_moves_apply_once(settings):
    from app.club import Club

    club = Club.from_settings(settings)
    member = register(club.db, "ana", "klupska-lozinka-7")
    me = CurrentMember(member.id, member.name, member.role, "-")
    # Four computer seats, nobody running them: we play seat words by hand.
    pid = propose(club, me, "lora", {}, None, [SeatSpec("bot")] * 4, exhibition=True)
    with club.db.read() as s:
        from app.parties.lookup import get_partie, open_table

        table = open_table(club, s, get_partie(s, pid))
    seat = table.engine.seats_to_act()[0]
    words = table.engine.legal_actions(seat)

    outcomes: list[str] = []
    barrier = threading.Barrier(8)

    def try_move(i: int) -> None:
        other_club = Club.from_settings(settings)  # as if from another server instance
        barrier.wait()
        try:
            apply_word(other_club, pid, seat, words[i % len(words)], 0, f"c{i}", None, "bot")
            outcomes.append("applied")
        except Exception as e:  # noqa: BLE001
            outcomes.append(getattr(e, "code", repr(e)))
        finally:
            other_club.db.dispose()

    threads = [threading.Thread(target=try_move, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("applied") == 1, outcomes
    assert set(outcomes) == {"applied", "stale_version"}
    db = Database(settings.database_url)
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(Action).where(Action.partie_id == pid)) == 1
    db.dispose()
    club.db.dispose()


def test_cli_migrate_create_admin_and_first_accounts(tmp_path, monkeypatch, capsys):
    from app.cli import first_start_accounts, main
    from app.config import get_settings
    from app.members import passwords
    from app.members.service import list_members

    passwords.set_cost(1, 8192)
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("KLUB_DATABASE_URL", url)
    get_settings.cache_clear()
    try:
        assert main(["migrate"]) == 0
        created = first_start_accounts(url)
        assert [name for name, _ in created] == ["admin", "demo"] and all(len(pw) >= 12 for _, pw in created)
        assert first_start_accounts(url) == []  # only on an empty database
        assert main(["create-admin", "sef"]) == 0
        assert "password:" in capsys.readouterr().out
        db = Database(url)
        roles = {m["name"]: m["role"] for m in list_members(db, get_settings())}
        db.dispose()
        assert roles == {"admin": "admin", "demo": "member", "sef": "admin"}
    finally:
        get_settings.cache_clear()


def test_the_archive_tells_house_rules_from_the_clubs_on_every_database(settings):
    """The rules filter reads a key of the JSON settings: the same answer in SQLite and PostgreSQL."""
    from app.club import Club
    from app.parties.archive import list_parties

    club = Club.from_settings(settings)
    member = register(club.db, "ana", "klupska-lozinka-7")
    me = CurrentMember(member.id, member.name, member.role, "-")

    def proposed(game: str, rules: dict) -> int:
        seats = [SeatSpec("bot")] * (3 if game != "preferans" else 2)
        return propose(club, me, game, rules, None, seats)

    club_lora = proposed("lora", {})
    croatian = proposed("lora", {"variant": "hrvatska"})
    options = proposed("lora", {"variant": "klub", "parovi": True})
    preferans = proposed("preferans", {})

    def ids(rules: str | None, game: str | None = None) -> list[int]:
        return sorted(p["id"] for p in list_parties(club, None, "all", 100, game, rules))

    assert ids("house") == sorted([croatian, options])
    assert ids("club") == sorted([club_lora, preferans])
    assert ids(None) == sorted([club_lora, croatian, options, preferans])
    assert ids("house", "preferans") == []


def _header_says_wal(path) -> bool:
    """Bytes 18 and 19 of a SQLite file are 2 in WAL mode (1 with a rollback journal)."""
    return path.read_bytes()[18:20] == b"\x02\x02"


def test_a_migrated_sqlite_file_is_in_wal_mode(tmp_path):
    from app.db.migrate import upgrade

    upgrade(f"sqlite:///{tmp_path / 'klub.db'}")
    assert _header_says_wal(tmp_path / "klub.db")


def test_a_connection_asking_for_wal_while_another_writes_waits_for_it(tmp_path):
    """A new connection to a file not yet in WAL asks for it, and that request fails at
    once (it does not wait on the busy timeout) while another connection holds the write
    lock: ten instances starting together failed so now and then with "database is
    locked". It is asked again until the lock is free."""
    import sqlite3

    from app.db.database import _switch_to_wal

    path = tmp_path / "cold.db"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("CREATE TABLE t (n INTEGER)")
    assert not _header_says_wal(path)
    writer.execute("BEGIN IMMEDIATE")  # another instance in the middle of a write
    newcomer = sqlite3.connect(path, isolation_level=None, timeout=30, check_same_thread=False)
    asked = threading.Semaphore(0)
    newcomer.set_trace_callback(lambda sql: asked.release() if sql == "PRAGMA journal_mode=WAL" else None)
    outcome: list[str] = []

    def connect() -> None:
        try:
            _switch_to_wal(newcomer.cursor())
            outcome.append("wal")
        except sqlite3.OperationalError as e:
            outcome.append(str(e))
        asked.release()  # the main thread stops waiting for a second request

    thread = threading.Thread(target=connect)
    thread.start()
    assert asked.acquire(timeout=30) and asked.acquire(timeout=30)  # asked, refused, asking again
    writer.execute("COMMIT")
    thread.join(timeout=60)
    assert outcome == ["wal"]
    assert _header_says_wal(path)
    newcomer.close()
    writer.close()
