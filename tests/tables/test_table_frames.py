"""The event frames carry a seat's view as its changes since the version before (issue 28).

Played through the server's own table cache and frame builders: at every version, for
every seat and the spectator, the view of the version before with the event's changes is
exactly the seat's whole view; an event after a version the table no longer keeps carries
the whole view; the changes of a seat never name what its whole view would not.
"""

from __future__ import annotations

import random

import orjson
import pytest

from app.games.registry import engine_class
from app.tables.cache import LiveTable
from app.tables.frames import apply_view_changes, event_text
from tests.support.web import cards_in

SETTINGS = {"lora": {}, "preferans": {"bule": 30, "refe": 1, "deljenja": 6}, "lorum": {}}


def random_word(table: LiveTable, rng: random.Random) -> tuple[int, str]:
    seat = rng.choice(table.engine.seats_to_act())
    words = table.engine.legal_actions(seat)
    optional = engine_class(table.game).optional_words
    if optional and rng.random() >= 0.05:
        words = [w for w in words if w not in optional] or words
    return seat, rng.choice(words)


@pytest.mark.parametrize("game", ["lora", "preferans", "lorum"])
def test_the_view_changes_of_every_event_lead_to_the_whole_view(game):
    rng = random.Random(28)
    table = LiveTable(1, game, SETTINGS[game], "frames-28", history=8)
    table.snapshot(None, None)
    readers = [*range(table.n_seats), None]
    views = {s: table.latest.view_for(s) for s in readers}
    for _ in range(400 if game != "preferans" else 250):
        if table.engine.finished:
            break
        snap = table.apply(*random_word(table, rng), None)
        for s in readers:
            frame = orjson.loads(event_text(game, snap, s, None, set()))
            assert "view" not in frame and frame["version"] == snap.version
            whole = snap.view_for(s)
            assert set(frame["view_changes"]) <= set(whole) and "version" in frame["view_changes"]
            # nothing in the changes that the seat's whole view does not show
            assert cards_in(frame["view_changes"]) <= cards_in(whole)
            views[s] = apply_view_changes(views[s], frame)
            assert views[s] == whole, f"seat {s} at version {snap.version}"
    assert table.version > 100


def test_an_event_after_a_version_the_table_no_longer_keeps_carries_the_whole_view():
    table = LiveTable(1, "lora", {}, "frames-28", history=4)
    table.snapshot(None, None)
    rng = random.Random(1)
    for _ in range(5):
        table.apply_quietly(*random_word(table, rng))  # replayed from the log without views
    table.history.clear()
    snap = table.apply(*random_word(table, rng), None)
    frame = orjson.loads(event_text("lora", snap, 2, None, set()))
    assert "view_changes" not in frame and frame["view"] == snap.view_for(2)
    assert apply_view_changes(None, frame) == snap.view_for(2)
    after = table.apply(*random_word(table, rng), None)
    changes = orjson.loads(event_text("lora", after, 2, None, set()))
    assert apply_view_changes(None, changes) is None  # changes without the view before: ask for the state
    assert apply_view_changes(frame["view"], changes) == after.view_for(2)


def test_a_key_gone_from_the_view_is_named():
    frame = {"type": "event", "version": 3, "view_changes": {"version": 3}, "view_removed": ["deal"]}
    before = {"version": 2, "deal": {"index": 0}, "result": {}}
    assert apply_view_changes(before, frame) == {"version": 3, "result": {}}
    assert before == {"version": 2, "deal": {"index": 0}, "result": {}}  # the reader's view is left as it was


@pytest.mark.parametrize("game", ["lora", "lorum"])
def test_every_snapshot_shows_the_view_of_its_version_across_deal_ends(game):
    # The sheet and the last deal's end are one object from a deal's end to the next, and
    # the table keeps their JSON between versions: it must follow every deal's end.
    rng = random.Random(4)
    table = LiveTable(1, game, SETTINGS[game], "sheet-kept", history=4)
    table.snapshot(None, None)
    readers = [*range(table.n_seats), None]
    sheets = []
    while not table.engine.finished:
        snap = table.apply(*random_word(table, rng), None)
        for s in readers:
            assert snap.view_for(s) == orjson.loads(orjson.dumps(table.engine.view(s))), f"seat {s} at {snap.version}"
        if not sheets or sheets[-1] != snap.view_for(None)["result"]:
            sheets.append(snap.view_for(None)["result"])
    assert len(sheets) == table.engine.n_deals + 1 + sum(table.engine.voids)  # the empty sheet, then one per deal's end
