"""``python -m app``: the Club's command line.

Each command imports what it needs inside itself (startup cost: ``replay`` and
``random-partie`` load no database, web framework or uvicorn), not to dodge a cycle: the
command line is the composition root, above every package (docs/architecture.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from app.config import get_settings
from app.games.base import GameError, RecordError
from app.games.records import load_record, replayed_record
from app.games.registry import codes, register_modules


def _cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = replayed_record(load_record(args.path))
    except RecordError as e:
        print(f"replay: {args.path}: {e}", file=sys.stderr)
        return 1
    json.dump(record, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _cmd_random_partie(args: argparse.Namespace) -> int:
    from app.games.simulate import random_partie

    settings = json.loads(args.settings) if args.settings else {}
    try:
        partie = random_partie(args.game, args.seed, settings)
    except GameError as e:
        print(f"random-partie: {e}", file=sys.stderr)
        return 2
    players = args.players.split(",") if args.players else None
    record = partie.to_record(players or [f"igrac{i + 1}" for i in range(partie.n_seats)])
    json.dump(record, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _cmd_migrate(args: argparse.Namespace) -> int:
    from app.config import get_settings
    from app.db.migrate import upgrade

    upgrade(get_settings().database_url)
    print("database is up to date")
    return 0


def _cmd_create_admin(args: argparse.Namespace) -> int:
    from app.config import get_settings
    from app.db import Database
    from app.db.migrate import upgrade
    from app.errors import ClubError
    from app.members.service import ensure_admin

    settings = get_settings()
    upgrade(settings.database_url)
    try:
        member, password = ensure_admin(Database(settings.database_url), args.name)
    except ClubError as e:
        print(f"create-admin: {e.message}", file=sys.stderr)
        return 1
    if password is None:
        print(f"{member.name} is now an admin (password unchanged)")
    else:
        print(f"admin {member.name} created, password: {password}")
    return 0


def _cmd_ratings(args: argparse.Namespace) -> int:
    from app.config import get_settings
    from app.db import Database
    from app.db.migrate import upgrade
    from app.ratings.service import rebuild

    settings = get_settings()
    upgrade(settings.database_url)
    db = Database(settings.database_url)
    try:
        counted = rebuild(db)
    finally:
        db.dispose()
    print(f"ratings rebuilt from {counted} finished parties")
    return 0


def _cmd_problems(args: argparse.Namespace) -> int:
    from app.club import Club
    from app.config import get_settings
    from app.db.migrate import upgrade
    from app.problems.feed import backfill

    settings = get_settings()
    upgrade(settings.database_url)
    club = Club.from_settings(settings)
    try:
        parties, problems = backfill(club, args.limit, args.game or None, say=print if args.verbose else None)
    finally:
        club.db.dispose()
    print(f"{parties} finished parties mined: {problems} problems")
    return 0


def _cmd_backup(args: argparse.Namespace) -> int:
    return _backup_command(args, "backup")


def _cmd_restore(args: argparse.Namespace) -> int:
    return _backup_command(args, "restore")


def _backup_command(args: argparse.Namespace, command: str) -> int:
    import sqlite3
    from pathlib import Path

    from sqlalchemy.exc import SQLAlchemyError

    from app.config import get_settings
    from app.db import backup

    url = get_settings().database_url
    try:
        if command == "backup":
            done = backup.backup(url, Path(args.file), args.force, args.pg_dump)
        else:
            done = backup.restore(url, Path(args.file), args.force, args.pg_restore)
    except backup.BackupError as e:
        print(f"{command}: {e}", file=sys.stderr)
        return 1
    except (OSError, sqlite3.Error, SQLAlchemyError) as e:
        print(f"{command}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(done)
    return 0


def first_start_accounts(database_url: str) -> list[tuple[str, str]]:
    """On an empty database: an ``admin`` and a ``demo`` member with fresh passwords.

    Instances started together may all find the database empty: the name's unique key
    decides, and only the instance whose ``admin`` was created gets (and prints) the
    passwords; the others find the name taken and go on serving."""
    from app.db import Database
    from app.errors import Conflict
    from app.members.passwords import generate_password
    from app.members.service import count_members, register

    db = Database(database_url)
    try:
        if count_members(db) > 0:
            return []
        created = []
        for name, role in (("admin", "admin"), ("demo", "member")):
            password = generate_password()
            try:
                register(db, name, password, role=role)
            except Conflict:  # name_taken: another instance's first start (or a member) was first
                if name == "admin":
                    return []
                continue
            created.append((name, password))
        return created
    finally:
        db.dispose()


# Bytes above the table socket's frame cap that uvicorn still reads (the socket then answers with an error).
WS_SLACK = 1024


def uvicorn_options(settings) -> dict:
    """What ``serve`` tells uvicorn beside the address."""
    from app.tables.ws import MAX_FRAME

    options = {
        # The table socket answers frames over 16 KB with an error, however the app is
        # served (app/tables/ws.py); here uvicorn also closes the socket (1009, with a
        # reason) on a message a little bigger, before it is read whole.
        "ws_max_size": MAX_FRAME + WS_SLACK,
        "ws_per_message_deflate": settings.ws_per_message_deflate,
        # The app reads X-Forwarded-For from KLUB_TRUSTED_PROXIES itself (app/web/proxies.py):
        # uvicorn's ProxyHeadersMiddleware would replace the proxy's address before the app
        # sees it. Its list is the same, should anyone turn it on.
        "proxy_headers": False,
        "forwarded_allow_ips": settings.trusted_proxies,
    }
    if settings.log_format == "json":
        options["log_config"] = None  # uvicorn's loggers write through the app's JSON handler (app/logs.py)
    return options


def _say(settings, lines: list[str]) -> None:
    """The start's own lines: printed, or JSON log lines like all others (``KLUB_LOG_FORMAT=json``)."""
    if settings.log_format != "json":
        print("\n".join(lines), flush=True)
        return
    import logging

    for line in lines:
        logging.getLogger("klub.serve").warning(line)


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.config import get_settings
    from app.db.migrate import upgrade
    from app import logs

    settings = get_settings()
    logs.configure(settings)  # JSON lines (KLUB_LOG_FORMAT=json) from the migration on
    upgrade(settings.database_url)
    created = first_start_accounts(settings.database_url)
    if created:
        _say(settings, ["=" * 64, "First start of an empty Club: log in with (shown only this once)",
                        *(f"  {name:8} {password}" for name, password in created), "=" * 64])
    _say(settings, [f"Klub: http://{args.host}:{args.port}/  (API: /docs)"])
    uvicorn.run("app.web.main:create_app", factory=True, host=args.host, port=args.port, **uvicorn_options(settings))
    return 0


def _cmd_docs_bots(args: argparse.Namespace) -> int:
    from pathlib import Path

    from app.bots.gamedocs import bots_games_text

    text = bots_games_text()
    if args.write:
        Path(args.write).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m app", description="Klub, the card club.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a klub-record/1 file and print it with its result")
    p.add_argument("path")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("random-partie", help="print the record of a partie of random legal play")
    p.add_argument("game", choices=codes())
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--settings", help="table settings as JSON, e.g. '{\"bule\": 60, \"refe\": 2}'")
    p.add_argument("--players", help="comma-separated display names in seat order")
    p.set_defaults(func=_cmd_random_partie)

    p = sub.add_parser("docs-bots", help="print (or --write) the bots' page per game: views and words (docs/bots-games.md)")
    p.add_argument("--write", metavar="FILE", help="write it to FILE (docs/bots-games.md) instead of printing it")
    p.set_defaults(func=_cmd_docs_bots)

    p = sub.add_parser("migrate", help="upgrade the database to the current schema")
    p.set_defaults(func=_cmd_migrate)

    p = sub.add_parser("create-admin", help="create an admin (printing a fresh password) or promote a member")
    p.add_argument("name")
    p.set_defaults(func=_cmd_create_admin)

    p = sub.add_parser("ratings", help="ratings: 'rebuild' recomputes every rating from the archive")
    p.add_argument("action", choices=("rebuild",))
    p.set_defaults(func=_cmd_ratings)

    p = sub.add_parser("problems", help="problems: 'backfill' mines the finished parties not mined yet (the archive)")
    p.add_argument("action", choices=("backfill",))
    p.add_argument("--limit", type=int, default=None, help="mine at most this many parties")
    p.add_argument("--game", choices=codes(), default=None)
    p.add_argument("--verbose", action="store_true", help="a line per partie")
    p.set_defaults(func=_cmd_problems)

    p = sub.add_parser("backup", help="copy the database to FILE while the Club serves (SQLite file, or pg_dump's archive)")
    p.add_argument("file")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p.add_argument("--pg-dump", default="pg_dump", help="the pg_dump program (PostgreSQL)")
    p.set_defaults(func=_cmd_backup)

    p = sub.add_parser("restore", help="load a backup into the database (stop the Club first)")
    p.add_argument("file")
    p.add_argument("--force", action="store_true", help="replace a database that is not empty")
    p.add_argument("--pg-restore", default="pg_restore", help="the pg_restore program (PostgreSQL)")
    p.set_defaults(func=_cmd_restore)

    p = sub.add_parser("serve", help="migrate, create the first accounts if empty, start the web server")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=_cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        register_modules(get_settings().outside_games)  # the records and commands of outside games too
    except GameError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return args.func(args)
