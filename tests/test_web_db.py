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
