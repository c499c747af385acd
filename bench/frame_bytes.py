"""The table's bytes (issue 28): what a seat receives per action on the table socket.

    .venv/bin/python bench/frame_bytes.py [--parties 3] [--games lora,preferans,lorum] [--timer 60]

Plays parties of random legal words through the server's own table cache and frame
builders (app/tables/cache.py, app/tables/frames.py: the texts the socket and the bot
stream send) and prints, per game, the bytes per action per seat:

- ``sent``: the event frames as built now (a seat's view changes since the version before);
- ``full``: the same frames with the seat's whole view in each (how they were before);
- each with permessage-deflate off (the text plus the WebSocket header) and on (compressed
  per connection with the server's settings: uvicorn's websockets-sansio protocol, LZ77
  window 2^12, memLevel 5, context kept between messages), plus the actor's ``ack``;
- the bytes of the event frames by field (``view.*``: the view's keys), ``sent`` and ``full``;
- the ``state`` frame a connection gets first.

``--cpu``: instead, the builders' own time per action on this core (apply, snapshot and
the event frames of every seat and a spectator), without the bench's accounting.

A spectator's socket gets the same events (its view) without the ack. No server runs:
``bench/load.py --compression deflate`` measures the wire and the CPU on a live server.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import zlib
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.registry import engine_class  # noqa: E402
from app.tables.cache import LiveTable, to_json  # noqa: E402
from app.tables.frames import event_text  # noqa: E402

# Preferans: a tournament round's 24 hands (random play rarely closes a bule of 60: hundreds of hands).
SETTINGS = {"lora": {}, "preferans": {"bule": 60, "refe": 2, "deljenja": 24}, "lorum": {}}
OPTIONAL_SHARE = 0.05  # as app/games/simulate.py: out-of-turn words now and then
# What the socket adds for the actor of each word: {"type":"ack","id":<a browser's uuid>,...}
ACK_ID = "0" * 36


class Deflate:
    """permessage-deflate of one connection as the server sends it (websockets' encoder)."""

    def __init__(self):
        self.encoder = zlib.compressobj(wbits=-12, memLevel=5)

    def size(self, text: str) -> int:
        data = self.encoder.compress(text.encode()) + self.encoder.flush(zlib.Z_SYNC_FLUSH)
        return header(len(data) - 4) + len(data) - 4  # the sync flush's 00 00 ff ff is not sent


def header(n: int) -> int:
    """A server frame's header (unmasked): 2 bytes, 4 past 125, 10 past 65,535."""
    return 2 if n < 126 else 4 if n < 65536 else 10


def fields(text: str) -> Counter:
    """Bytes of an event frame by field; the view's (or its changes') keys as ``view.<key>``."""
    out: Counter = Counter()
    for key, value in orjson.loads(text).items():
        size = len(to_json(key)) + 2 + len(to_json(value))  # "key":value,
        if key in ("view", "view_changes") and isinstance(value, dict):
            out[key] += len(to_json(key)) + 4  # "view":{} and the comma
            for k, v in value.items():
                out[f"view.{k}"] += len(to_json(k)) + 2 + len(to_json(v))
        else:
            out[key] += size
    return out


def whole(text: str, view_json: str) -> str:
    """The frame with the seat's whole view instead of its changes."""
    frame = orjson.loads(text)
    frame.pop("view_changes", None)
    frame.pop("view_removed", None)
    frame["view"] = orjson.loads(view_json)
    return to_json(frame)


class Receiver:
    """One socket (a seat's, or a spectator's): its bytes, raw and deflated, sent and full."""

    def __init__(self):
        self.raw = Counter()
        self.deflated = Counter()
        self.fields = {"sent": Counter(), "full": Counter()}
        self.zip = {"sent": Deflate(), "full": Deflate()}

    def take(self, kind: str, text: str) -> None:
        n = len(text.encode())
        self.raw[kind] += n + header(n)
        self.deflated[kind] += self.zip[kind].size(text)

    def ack(self, version: int) -> None:
        text = to_json({"type": "ack", "id": ACK_ID, "version": version, "duplicate": False})
        for kind in ("sent", "full"):
            self.take(kind, text)


def play(game: str, seed: int, timer: int | None) -> dict:
    settings = SETTINGS.get(game, {})
    table = LiveTable(1, game, settings, f"bench-{seed}", history=64)
    at = datetime(2026, 1, 1, tzinfo=timezone.utc)
    table.snapshot(None, at)
    n = table.n_seats
    receivers = [Receiver() for _ in range(n + 1)]  # the seats, then a spectator
    state_bytes = [len(table.latest.view_json_for(s)) for s in [*range(n), None]]
    optional = engine_class(game).optional_words
    rng = random.Random(seed)
    actions = 0
    while not table.engine.finished:
        seats = table.engine.seats_to_act()
        if not seats:
            break
        seat = rng.choice(seats)
        words = table.engine.legal_actions(seat)
        if optional and rng.random() >= OPTIONAL_SHARE:
            words = [w for w in words if w not in optional] or words
        snap = table.apply(seat, rng.choice(words), at)
        actions += 1
        for i, r in enumerate(receivers):
            s = None if i == n else i
            text = event_text(game, snap, s, timer, set())
            r.take("sent", text)
            r.take("full", whole(text, snap.view_json_for(s)))
            r.fields["sent"] += fields(text)
            r.fields["full"] += fields(whole(text, snap.view_json_for(s)))
        receivers[seat].ack(snap.version)
    return {"n": n, "actions": actions, "receivers": receivers, "state": state_bytes}


def builders_time(game: str, seeds: range, timer: int | None) -> float:
    """Seconds per action of apply, snapshot and every reader's event frame."""
    spent, actions = 0.0, 0
    for seed in seeds:
        table = LiveTable(1, game, SETTINGS.get(game, {}), f"bench-{seed}", history=16)
        table.snapshot(None, None)
        optional = engine_class(game).optional_words
        rng = random.Random(seed)
        while not table.engine.finished:
            seat = rng.choice(table.engine.seats_to_act())
            words = table.engine.legal_actions(seat)
            if optional and rng.random() >= OPTIONAL_SHARE:
                words = [w for w in words if w not in optional] or words
            word = rng.choice(words)
            t0 = time.perf_counter()
            snap = table.apply(seat, word, None)
            for s in [*range(table.n_seats), None]:
                event_text(game, snap, s, timer, set())
            spent += time.perf_counter() - t0
            actions += 1
    return spent / actions


def report(game: str, runs: list[dict]) -> None:
    n = runs[0]["n"]
    actions = sum(r["actions"] for r in runs)
    seats = [Receiver() for _ in range(2)]  # the players' sum, the spectator's
    for run in runs:
        for i, r in enumerate(run["receivers"]):
            into = seats[1] if i == n else seats[0]
            into.raw += r.raw
            into.deflated += r.deflated
            for k in ("sent", "full"):
                into.fields[k] += r.fields[k]
    players, spectator = seats
    per = actions * n  # per action per seat
    state = sum(sum(r["state"][:n]) for r in runs) / (len(runs) * n)
    print(f"\n{game}: {len(runs)} parties, {actions} actions, {n} seats; settings {SETTINGS.get(game, {})}")
    print("  bytes per action per seat     deflate off   deflate on")
    for kind, label in (("sent", "sent (view changes)"), ("full", "full (whole view)")):
        print(f"  {label:28} {players.raw[kind] / per:11.0f} {players.deflated[kind] / per:12.1f}")
    for kind, label in (("sent", "spectator, sent"), ("full", "spectator, full")):
        print(f"  {label:28} {spectator.raw[kind] / actions:11.0f} {spectator.deflated[kind] / actions:12.1f}")
    print(f"  state frame's view at the start: {state:.0f} bytes")
    print("  event frame fields, bytes per action per seat (sent | full):")
    full, sent = players.fields["full"], players.fields["sent"]
    for key, _ in (full + sent).most_common(16):
        print(f"    {key:24} {sent[key] / per:8.0f} | {full[key] / per:8.0f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--parties", type=int, default=3, help="parties per game (seeds 1..N)")
    p.add_argument("--games", default="lora,preferans,lorum")
    p.add_argument("--timer", type=int, default=60, help="the table's timer in seconds (the frames carry a deadline)")
    p.add_argument("--cpu", action="store_true", help="time the frame builders instead")
    args = p.parse_args()
    for game in args.games.split(","):
        if args.cpu:
            per = builders_time(game, range(1, args.parties + 1), args.timer)
            print(f"{game}: {per * 1e6:.0f} µs per action (apply, snapshot, the event frames of every reader)")
            continue
        report(game, [play(game, seed, args.timer) for seed in range(1, args.parties + 1)])


if __name__ == "__main__":
    main()
