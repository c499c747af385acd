"""Bad input: the OpenAPI schema fuzzed by schemathesis, WebSocket frames and record
imports (POST /api/records) by hypothesis.

No 5xx and no unhandled exception over HTTP; over the socket every bad frame gets an
error frame, the socket stays open and the table does not move. ``KLUB_FUZZ_EXAMPLES`` sets how many examples
(small in ``make test``, more in ``make soak``).
"""

from __future__ import annotations

import asyncio
import copy
import contextlib
import json
import os
import re

import pytest
from hypothesis import HealthCheck, example, given, settings as hsettings, strategies as st

from tests.support.web import PASSWORD
from tests.support.paths import EXAMPLES as EXAMPLES_DIR

pytestmark = pytest.mark.scaled

EXAMPLES = int(os.environ.get("KLUB_FUZZ_EXAMPLES", "15"))
# The schema has over 80 operations: make test's short run gives each 5 examples (make soak 100).
SCHEMA_EXAMPLES = int(os.environ.get("KLUB_FUZZ_EXAMPLES", "5"))
# ``make soak`` splits the schema's operations into shards that the pytest-xdist workers
# fuzz side by side (every operation in one shard, each with all its examples).
SHARDS = int(os.environ.get("KLUB_SOAK_SHARDS", "1"))


@pytest.fixture
def fuzz_app(settings, backend):
    if backend != "sqlite":
        pytest.skip("the fuzzing runs on SQLite")
    from fastapi.testclient import TestClient

    from app.web.main import create_app

    app = create_app(settings)
    with TestClient(app) as c:
        c.headers["Origin"] = settings.site_origin
        assert c.post("/api/auth/register", json={"name": "ana", "password": PASSWORD}).status_code in (200, 201)
        pid = c.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
        yield app, c, pid


@pytest.mark.parametrize("shard", range(SHARDS))
def test_openapi_schema_fuzzing_gives_no_server_error(fuzz_app, shard):
    import schemathesis

    app, c, pid = fuzz_app
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    cookies, headers = dict(c.cookies), {"Origin": c.headers["Origin"]}
    failures = []
    operations = [op.ok() for op in schema.get_all_operations()]
    operations = [o for o in operations if not o.path.startswith("/api/auth/logout") and "admin" not in o.path]
    assert len(operations) >= 30, len(operations)  # the schema is the Club's, not an empty one
    for operation in operations[shard::SHARDS]:

        @hsettings(max_examples=SCHEMA_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def run(case):
            response = case.call(cookies=cookies, headers=headers)
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path}: {response.status_code} {response.text[:200]}")

        run()
    assert not failures, failures[:5]


BAD_FRAMES = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=100).map(lambda b: b.decode("latin-1")),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    ).map(json.dumps),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["action", "chat", "resync", "ping", "ACTION", "", "dance"]),
            "word": st.one_of(st.text(max_size=70), st.integers(), st.none(), st.sampled_from(["7S", "AH", "dalje", "2"])),
            "version": st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.text(max_size=5), st.booleans()),
            "id": st.one_of(st.none(), st.text(max_size=80), st.integers()),
        }
    ).map(json.dumps),
)


def lift_socket_limits(live_server, monkeypatch) -> None:
    """The table sockets' rate limits lifted (app/tables/ratelimit.py): the fuzz sends each
    frame as soon as the one before is answered (tests/security/test_security_ws.py checks the limits)."""
    from app.tables import ratelimit

    monkeypatch.setattr(ratelimit, "SOCKET_RATE_PER_SECOND", 10**9)
    monkeypatch.setattr(ratelimit, "SOCKET_RATE_BURST", 10**9)
    live_server.app.state.member_limits = ratelimit.MemberLimits(rate=10**9, burst=10**9)


def test_websocket_parser_answers_bad_frames_without_moving_the_table(live_server, monkeypatch):
    from tests.support.web import member, recv, wait_for, ws_connect

    lift_socket_limits(live_server, monkeypatch)
    ana, boki = member(live_server.url, "ana"), member(live_server.url, "boki")
    pid = ana.post(
        "/api/parties", json={"game": "lora", "seats": [{"kind": "member", "name": "boki"}] + [{"kind": "bot"}] * 2}
    ).json()["id"]
    boki.post(f"/api/parties/{pid}/accept")
    def someone_to_act():
        for mover, other in ((ana, boki), (boki, ana)):
            v = mover.get(f"/api/parties/{pid}/view").json()
            if v["legal"]:
                return v, other
        return None

    view, sender = wait_for(someone_to_act)
    version = view["version"]
    sent: list[str] = []

    @hsettings(max_examples=EXAMPLES * 10, deadline=None, suppress_health_check=list(HealthCheck))
    @given(frame=BAD_FRAMES)
    def collect(frame):
        sent.append(frame)

    collect()
    # Another seat's words for ana's turn: boki may not say them.
    sent += [json.dumps({"type": "action", "word": w, "version": version, "id": f"b{i}"}) for i, w in enumerate(view["legal"])]

    async def main():
        async with await ws_connect(live_server, pid, sender) as ws:
            await recv(ws)
            answers = []
            for text in sent:
                await ws.send(text)
                while True:
                    frame = await recv(ws)
                    if frame["type"] in ("error", "pong", "state", "ack"):
                        answers.append(frame)
                        break
                    if frame["type"] == "chat" and '"type": "chat"' in text:
                        answers.append(frame)
                        break
            return answers

    answers = asyncio.run(main())
    assert len(answers) == len(sent)
    assert not [a for a in answers if a["type"] == "ack"], "a bad frame was applied"
    assert ana.get(f"/api/parties/{pid}/view").json()["version"] == version  # nothing moved


# Path ids that str.isdigit() calls digits but int() or pydantic refuse ("²", "١٢"), and
# numbers past the database's integers however they are written: a 4xx with a message,
# like any other bad id (schemathesis once found "²" giving a 500).
NOT_INTEGERS = ["²", "١٢", "１２", "abc"]
TOO_BIG = ["99999999999999999999", "+99999999999999999999", "-99999999999999999999", "%2099999999999999999999%20", "9_999_999_999_999_999_999"]


def test_odd_path_ids_get_a_4xx_with_a_message(client):
    assert client.post("/api/auth/register", json={"name": "ana", "password": PASSWORD}).status_code == 201
    for pid in NOT_INTEGERS + TOO_BIG:
        for path in (f"/api/parties/{pid}/view", f"/api/parties/{pid}/score-sheet", f"/table/{pid}", f"/archive/{pid}"):
            r = client.get(path)
            expected = 422 if pid in NOT_INTEGERS else 404
            assert r.status_code == expected, (path, r.status_code, r.text[:200])
            error = r.json()["error"]
            assert error["code"] == ("invalid_request" if expected == 422 else "not_found"), (path, error)
            assert error["message"], path
        # A string parameter that merely looks like a number is the route's business.
        assert client.get(f"/rules/{pid}").status_code == 404
    assert client.post("/api/parties/²/actions", json={"word": "x", "version": 0, "action_id": "a"}).status_code == 422


# -- Records and table sockets against any input (the bad input of tests/faults/test_faults_bad_input.py,
# generated) ----------------------------------------------------------------------------------

RECORDS = [json.loads(p.read_text()) for p in sorted(EXAMPLES_DIR.glob("*.json"))]
assert len(RECORDS) >= 5, EXAMPLES_DIR

# Strings a client may send that the server must not choke on: control characters, lone
# surrogates (valid JSON escapes that no UTF-8 can carry), long ones.
NASTY_TEXT = st.one_of(
    st.text(max_size=20),
    st.text(st.characters(categories=["Cc", "Zs", "Lu", "Nd", "So"]), max_size=12),
    st.sampled_from(["AI 1", "AI 0", "ana\n", "\x00", "\ud800", "bob", "7S", "dalje"]),
    st.just(100_000).map(lambda n: "a" * n),  # built when drawn: a literal would make the strategy's repr 100 kB
)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | NASTY_TEXT,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(NASTY_TEXT, inner, max_size=5),
    max_leaves=16,
)
# Nesting too deep to build as Python (json.dumps would recurse): a marker, spliced in as text.
DEEP = st.integers(min_value=1, max_value=1500).map(lambda n: f"@@deep{n}@@")
VALUES = st.one_of(JSON_VALUES, JSON_VALUES, JSON_VALUES, JSON_VALUES, DEEP)


def to_json_text(value) -> str:
    """``json.dumps`` (surrogates and control characters as escapes), deep markers spliced in."""
    return re.sub(r'"@@deep(\d+)@@"', lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)), json.dumps(value))


def paths(value, path=()):
    """The paths into a record: every key, the first elements and the last of each list."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, path + (k,))
    elif isinstance(value, list):
        for i in sorted({0, 1, 2, len(value) - 1} & set(range(len(value)))):
            yield from paths(value[i], path + (i,))


@st.composite
def mutated_records(draw):
    """A valid record (one of the Club's examples, maybe as an export of a running partie) with one to
    three changes at random paths (a value replaced by any JSON value, a key removed or
    added), often a player's name changed."""
    rec = copy.deepcopy(draw(st.sampled_from(RECORDS)))
    if draw(st.booleans()):
        rec["redacted_deal"] = len(rec["deals"]) - 1
    if draw(st.integers(min_value=0, max_value=3)) == 0:
        rec["players"][draw(st.integers(min_value=0, max_value=2))] = draw(NASTY_TEXT)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        every = list(paths(rec))  # half of the changes near the top: players, settings, a deal
        path = draw(st.sampled_from([p for p in every if len(p) <= 2]) | st.sampled_from(every))
        parent = rec
        for k in path[:-1]:
            parent = parent[k]
        how = draw(st.sampled_from(["replace", "replace", "remove", "add"]))
        if not path or how == "add":
            target = parent[path[-1]] if path else rec
            if isinstance(target, dict):
                key = draw(st.sampled_from(["redacted_deal", "talon", "seed", "settings", "players", "bule"]) | NASTY_TEXT)
                target[key] = draw(VALUES)
            elif isinstance(target, list):
                target.append(draw(VALUES))
        elif how == "remove":
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(VALUES)
    return to_json_text(rec)


RECORD_BODIES = st.one_of(
    mutated_records(),
    mutated_records(),
    VALUES.map(to_json_text),
    st.text(max_size=200),
    st.binary(max_size=200),
)


def test_record_import_answers_any_body_with_a_4xx_or_a_record(live_server):
    """POST /api/records: never a 5xx or a dropped connection; a refusal is a JSON error
    with a code and a message and keeps nothing; an accepted record can be read back."""
    from tests.support.web import member

    ana = member(live_server.url, "ana")
    accepted: list[int] = []

    @hsettings(max_examples=EXAMPLES * 6, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=RECORD_BODIES)
    def post(body):
        content = body if isinstance(body, bytes) else body.encode("utf-8", "surrogatepass")
        r = ana.post("/api/records", content=content, headers={"Content-Type": "application/json"})
        assert r.status_code < 500, (r.status_code, r.text[:300])
        if r.status_code == 201:
            accepted.append(r.json()["id"])
            return
        assert r.status_code in (413, 415, 422), (r.status_code, r.text[:300])
        error = r.json()["error"]
        assert isinstance(error["code"], str) and isinstance(error["message"], str) and error["message"]
        assert len(error["message"]) < 2000, error["message"][:300]

    post()
    assert sorted(r["id"] for r in ana.get("/api/records").json()["records"]) == sorted(accepted)
    for rid in accepted:
        assert ana.get(f"/api/records/{rid}").status_code == 200


SOCKET_FRAMES = st.one_of(
    BAD_FRAMES,
    st.binary(max_size=200),
    VALUES.map(to_json_text),
    st.integers(min_value=1, max_value=3000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.integers(min_value=1, max_value=3000).map(lambda n: "[" * n),
    st.fixed_dictionaries({"type": st.just("chat"), "text": VALUES}).map(to_json_text),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["action", "chat", "resync", "ping"]), "word": VALUES, "version": VALUES, "id": VALUES}
    ).map(to_json_text),
    st.integers(min_value=16 * 1024 - 40, max_value=16 * 1024 + 40).map(lambda n: json.dumps({"type": "chat", "text": "x" * n})),
)


def test_table_socket_answers_any_frame_and_stays_open(live_server, monkeypatch):
    """Text, bytes and JSON frames of any shape to a table socket: each is answered (an
    error frame for a bad one, never 'internal'), the socket stays open (no 1006/1011 or
    other close: bad frames are answered, not closed on, in app/tables/ws.py), and the
    table does not move. Every frame is followed by a marked frame whose answer is awaited,
    so answers are waited for, not timed; the rate limits are lifted for the test."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from tests.support.web import cookie_header, member, wait_for

    lift_socket_limits(live_server, monkeypatch)
    ana, boki = member(live_server.url, "ana"), member(live_server.url, "boki")
    pid = ana.post(
        "/api/parties", json={"game": "lora", "seats": [{"kind": "member", "name": "boki"}] + [{"kind": "bot"}] * 2}
    ).json()["id"]
    boki.post(f"/api/parties/{pid}/accept")

    def waiting():  # a member is to act, so nothing moves unless a frame moves it
        for mover, other in ((ana, boki), (boki, ana)):
            v = mover.get(f"/api/parties/{pid}/view").json()
            if v["legal"]:
                return v, other
        return None

    view, sender = wait_for(waiting)
    socket: dict = {}
    sockets = contextlib.ExitStack()  # every socket opened is closed at the end

    def open_socket():
        ws = sockets.enter_context(connect(
            f"{live_server.ws_url}/ws/parties/{pid}",
            additional_headers={"Cookie": cookie_header(sender), "Origin": live_server.origin},
            max_size=2**22,
            open_timeout=10,
            # no keepalive pings: their payload comes from the global `random` in another
            # thread, which Hypothesis takes for a strategy using `random` (the server's
            # are off too: tests/support/web.py LiveServer)
            ping_interval=None,
        ))
        assert json.loads(ws.recv(timeout=20))["type"] == "state"
        socket["ws"] = ws
        return ws

    marks = iter(range(10**9))

    @hsettings(max_examples=EXAMPLES * 10, deadline=None, suppress_health_check=list(HealthCheck))
    @given(frame=SOCKET_FRAMES)
    # A NUL in an action's id went into the batch's lookup of ids: PostgreSQL's text holds
    # none, so the whole batch failed ('internal').
    @example(frame='{"type":"action","word":"","version":0,"id":"\\u0000"}')
    def send(frame):
        ws = socket.get("ws") or open_socket()
        # After the frame, a word this seat may not say, with an id of its own: its error
        # frame comes after the frame's answer (frames are handled in order).
        mark = f"mark-{next(marks)}"
        try:
            ws.send(frame)
            ws.send(json.dumps({"type": "action", "word": "-", "version": -1, "id": mark}))
            answers = []
            while not (answers and answers[-1]["type"] == "error" and answers[-1].get("id") == mark):
                answers.append(json.loads(ws.recv(timeout=20)))
        except ConnectionClosed as e:
            socket.pop("ws", None)
            code = e.rcvd.code if e.rcvd else 1006
            raise AssertionError(f"the socket closed ({code}) after {frame[:200]!r}") from None
        assert not [a for a in answers if a["type"] == "ack"], answers
        assert not [a for a in answers if a["type"] == "error" and a["code"] == "internal"], answers

    with sockets:
        send()
    assert ana.get(f"/api/parties/{pid}/view").json()["version"] == view["version"]  # nothing moved
