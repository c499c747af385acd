"""A reference bot for the Club's bot API (docs/bots.md): the standard library and httpx.

    python examples/bot_client.py --url https://klub.example --token kbt_... [--level pocetnik]

It follows the bot's event stream, accepts every invitation (of --games), and plays each
partie it sits at in a thread of its own: the partie's stream gives the seat's view and
legal words at every version, and when the seat is to act, ``choose(view, legal)`` picks
a word that goes to POST .../actions with the version it was decided on. An event line
carries the view's changes since the version before (``view_changes``, ``view_removed``),
which :func:`view_after` applies to the view kept from the line before. A dropped
stream is opened again with ?since=<the last version read>, and a word is sent again
with the same action id (``<partie>:<seat>:<version>``; an id is unique in its partie),
which the Club applies at most once.

``--level pocetnik`` (iskusan, majstor) plays with the Club's own computer players
(app/ai, from the repository this file is in); the default picks a random legal word.
Write your own ``choose`` and pass it to :class:`BotClient`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

Choose = Callable[[dict[str, Any], list[str]], str]
RETRY_SECONDS = 1.0


class NeedState(Exception):
    """An event's view changes came without the view of the version before: start again."""


def view_after(before: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any]:
    """The view an event line leads to: its whole ``view``, or the view of the line
    ``before`` (the version before) with the keys of ``view_changes`` replaced and those
    of ``view_removed`` gone."""
    if "view" in frame:
        return frame["view"]
    view = before.get("view") if before is not None else None
    if view is None or "view_changes" not in frame or frame["version"] != before["version"] + 1:
        raise NeedState
    out = {**view, **frame["view_changes"]}
    for key in frame.get("view_removed", ()):
        out.pop(key, None)
    return out


def random_choice(view: dict[str, Any], legal: list[str]) -> str:
    return random.choice(legal)


def club_player(level: str) -> Callable[[str, int], Choose]:
    """The Club's computer player of ``level``, one per partie (it may keep what it saw)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from app.ai import make_bot

    return lambda game, partie: make_bot(level, game, seed=partie).choose


class BotClient:
    def __init__(self, url: str, token: str, chooser: Callable[[str, int], Choose] | None = None,
                 games: set[str] | None = None, log_path: str | None = None, parties: int | None = None):
        self.url = url.rstrip("/")
        self.http = httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {token}"},
                                 timeout=httpx.Timeout(10, read=30))
        self.chooser = chooser or (lambda game, partie: random_choice)
        self.games = games
        self.log = open(log_path, "a", encoding="utf-8") if log_path else None
        self.log_lock = threading.Lock()
        self.playing: dict[int, threading.Thread] = {}
        self.ended = 0
        self.wanted = parties  # stop after this many parties ended (None: never)
        self.done = threading.Event()

    def say(self, text: str) -> None:
        print(text, flush=True)

    def record(self, partie: int | None, seat: int | None, frame: dict[str, Any]) -> None:
        if self.log is not None:
            with self.log_lock:
                self.log.write(json.dumps({"partie": partie, "seat": seat, "frame": frame}) + "\n")
                self.log.flush()

    def lines(self, path: str, params: dict | None = None):
        """The NDJSON lines of a stream, as objects; waits out a 429 (Retry-After)."""
        while True:
            with self.http.stream("GET", path, params=params) as r:
                if r.status_code == 429:
                    time.sleep(float(r.headers.get("Retry-After", RETRY_SECONDS)))
                    continue
                if r.status_code != 200:
                    r.read()
                    raise RuntimeError(f"{path}: {r.status_code} {r.text}")
                for text in r.iter_lines():
                    if text.strip():
                        yield json.loads(text)
                return

    # -- the event stream -------------------------------------------------------------

    def run(self) -> None:
        while not self.done.is_set():
            try:
                for event in self.lines("/api/bot/stream"):
                    self.on_event(event)
                    if self.done.is_set():
                        return
            except (httpx.HTTPError, json.JSONDecodeError) as e:
                self.say(f"event stream dropped ({type(e).__name__}); reconnecting")
                time.sleep(RETRY_SECONDS)

    def on_event(self, event: dict[str, Any]) -> None:
        self.record(None, None, event)
        kind, partie = event["type"], event.get("partie") or {}
        if kind == "invitation":
            if self.games and partie["game"] not in self.games:
                self.post(f"/api/bot/parties/{partie['id']}/decline")
                return
            r = self.post(f"/api/bot/parties/{partie['id']}/accept")
            self.say(f"invitation {partie['id']} ({partie['game']}): {r.status_code}")
        elif kind == "partie_started" and partie.get("status") == "running" and partie["id"] not in self.playing:
            thread = threading.Thread(target=self.play, args=(partie,), daemon=True)
            self.playing[partie["id"]] = thread
            thread.start()
        elif kind == "error":
            self.say(f"the Club ended the event stream: {event.get('code')}")
            self.done.set()

    def post(self, path: str, body: dict | None = None) -> httpx.Response:
        while True:
            r = self.http.post(path, json=body)
            if r.status_code != 429:
                return r
            time.sleep(float(r.headers.get("Retry-After", RETRY_SECONDS)))

    # -- one partie -------------------------------------------------------------------

    def play(self, partie: dict[str, Any]) -> None:
        pid, seat, game = partie["id"], partie["my_seat"], partie["game"]
        choose = self.chooser(game, pid)
        last: dict[str, Any] | None = None  # the latest state or event line, with its whole view
        acted = -1  # the version a word was sent for
        since: int | None = None
        self.say(f"partie {pid} ({game}) started, seat {seat}")
        while True:
            try:
                if last is not None and last["version"] != acted:
                    acted = self.act(pid, seat, last, choose, acted)  # back after a drop: my turn may wait
                params = {"since": since} if since is not None else None
                if since is not None:
                    self.say(f"partie {pid} resumed from version {since}")
                for frame in self.lines(f"/api/bot/parties/{pid}/stream", params):
                    self.record(pid, seat, frame)
                    if frame["type"] == "end":
                        self.finished(pid, frame)
                        return
                    if frame["type"] == "event":
                        frame["view"] = view_after(last, frame)
                    if frame["type"] in ("state", "event"):
                        last, since = frame, frame["version"]
                        seat = frame.get("seat", seat)
                    if last is not None and last["version"] != acted:
                        acted = self.act(pid, seat, last, choose, acted)
            except NeedState:
                self.say(f"partie {pid}: an event without the view before it; reading the state again")
                last, since = None, None
            except (httpx.HTTPError, json.JSONDecodeError) as e:
                self.say(f"partie {pid}: stream dropped ({type(e).__name__})")
                time.sleep(RETRY_SECONDS)
                acted = -1  # a word sent just before the drop may be lost: send it again (same id)

    def act(self, pid: int, seat: int, frame: dict[str, Any], choose: Choose, acted: int) -> int:
        """Say a word when the seat is to act; returns the version acted at (or ``acted``)."""
        legal, version = frame.get("legal") or [], frame["version"]
        if frame.get("finished") or seat not in frame.get("to_act", ()) or not legal:
            return acted
        word = choose(frame["view"], legal)
        if word not in legal:
            word = random.choice(legal)
        r = self.post(f"/api/bot/parties/{pid}/actions",
                      {"word": word, "version": version, "action_id": f"{pid}:{seat}:{version}"})
        if r.status_code not in (200, 409):
            self.say(f"partie {pid}: {word!r} at version {version}: {r.status_code} {r.text[:200]}")
        return version

    def finished(self, pid: int, frame: dict[str, Any]) -> None:
        self.say(f"partie {pid} {frame['status']} at version {frame['version']}")
        with self.log_lock:
            self.ended += 1
            if self.wanted is not None and self.ended >= self.wanted:
                self.done.set()


def main() -> None:
    parser = argparse.ArgumentParser(description="A bot of the Club's bot API")
    parser.add_argument("--url", default=os.environ.get("KLUB_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("KLUB_BOT_TOKEN"), help="the bot's token (kbt_...)")
    parser.add_argument("--level", default="random", help="random, or the Club's pocetnik, iskusan, majstor")
    parser.add_argument("--games", help="accept invitations of these games only (comma separated)")
    parser.add_argument("--log", help="append every line read to this file (JSON lines)")
    parser.add_argument("--parties", type=int, help="stop after this many parties ended")
    args = parser.parse_args()
    if not args.token:
        parser.error("a token is needed: --token or KLUB_BOT_TOKEN")
    chooser = None if args.level == "random" else club_player(args.level)
    games = set(args.games.split(",")) if args.games else None
    client = BotClient(args.url, args.token, chooser, games, args.log, args.parties)
    events = threading.Thread(target=client.run, daemon=True)
    events.start()
    client.done.wait()
    for thread in list(client.playing.values()):
        thread.join(timeout=5)


if __name__ == "__main__":
    main()
