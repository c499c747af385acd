"""``python -m app``: the Club's command line."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from app.games.base import GameError, RecordError
from app.games.records import load_record, replayed_record
from app.games.registry import GAMES


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


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    uvicorn.run("app.web.main:app", host=args.host, port=args.port)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m app", description="Klub, the card club.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a klub-record/1 file and print it with its result")
    p.add_argument("path")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("random-partie", help="print the record of a partie of random legal play")
    p.add_argument("game", choices=GAMES)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--settings", help="table settings as JSON, e.g. '{\"bule\": 60, \"refe\": 2}'")
    p.add_argument("--players", help="comma-separated display names in seat order")
    p.set_defaults(func=_cmd_random_partie)

    p = sub.add_parser("serve", help="start the Club's web server")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=_cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)
