"""Bad input found from outside against a fresh server, each answered with a 4xx and a
message (or an error frame) and changing nothing:

(a) records whose ``redacted_deal`` is no deal index, or whose structure is malformed;
(b) a table socket frame nested 1,100 levels deep;
(c) another member's imported record;
(d) player names of 100 KB or given as objects; chat with NUL and other control characters.

The property tests over the same inputs are in tests/faults/test_faults_input.py.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from app.parties.archive import MAX_RECORD_BYTES, MAX_RECORD_DEPTH
from tests.support.paths import EXAMPLES
from tests.support.security import client_for, snapshot

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.json"))
assert len(EXAMPLE_FILES) >= 5, EXAMPLES  # a missing copy fails, it does not test nothing


def example(name: str = "lora-7") -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def refused(r, status: int = 422, code: str = "invalid_record", says: str | None = None) -> str:
    assert r.status_code == status, (r.status_code, r.text[:300])
    error = r.json()["error"]
    assert error["code"] == code, error
    assert error["message"] and len(error["message"]) < 1000, error
    if says is not None:
        assert says in error["message"], error
    return error["message"]


@pytest.fixture
def ana(app):
    with client_for(app, "ana") as c:
        yield c


# -- (a) redacted_deal and the structure of a record ----------------------------------


@pytest.mark.parametrize("value", ["x", "27", 1.5, [], {}, True, False, -1, 0, 26, 28, 10**30])
def test_redacted_deal_is_the_index_of_the_last_deal(app, ana, value):
    before = snapshot(app.state.club.db)
    refused(ana.post("/api/records", json={**example(), "redacted_deal": value}), says="redacted_deal")
    assert snapshot(app.state.club.db) == before


@pytest.mark.parametrize("deals", ["abc", 5, {"a": 1}, [], None])
def test_redacted_deal_with_deals_that_are_no_list_of_deals(app, ana, deals):
    before = snapshot(app.state.club.db)
    refused(ana.post("/api/records", json={**example(), "deals": deals, "redacted_deal": 0}), says="deals")
    assert snapshot(app.state.club.db) == before


def test_the_export_of_a_running_partie_imports_without_its_running_deal(app, ana):
    """Computer players are "AI 2" ... in exports: such a record imports (names as the Club writes them)."""
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
    rec = ana.get(f"/api/parties/{pid}/record").json()
    assert rec["unfinished"] is True and rec["redacted_deal"] == len(rec["deals"]) - 1
    assert rec["players"] == ["ana", "AI 2", "AI 3", "AI 4"]
    r = ana.post("/api/records", json=rec)
    assert r.status_code == 201, r.text
    assert len(r.json()["record"]["deals"]) == rec["redacted_deal"] and "redacted_deal" not in r.json()["record"]


def _deal0(rec: dict, **changes) -> dict:
    return {**rec, "deals": [{**rec["deals"][0], **changes}] + rec["deals"][1:]}


MALFORMED = {
    "deals a string": lambda r: {**r, "deals": "abc"},
    "deals a number": lambda r: {**r, "deals": 5},
    "deals an object": lambda r: {**r, "deals": {"0": r["deals"][0]}},
    "no deals": lambda r: {k: v for k, v in r.items() if k != "deals"},
    "a deal a list": lambda r: {**r, "deals": [[1, 2]]},
    "hands a string": lambda r: _deal0(r, hands="AS"),
    "a hand of numbers": lambda r: _deal0(r, hands=[[1] * 8] * 4),
    "hands null": lambda r: _deal0(r, hands=None),
    "actions an object": lambda r: _deal0(r, actions={"0": [1, "7C"]}),
    "an action a string": lambda r: _deal0(r, actions=["1 7C"]),
    "a seat a string": lambda r: _deal0(r, actions=[["1", "7C"]]),
    "a seat true": lambda r: _deal0(r, actions=[[True, "7C"]]),
    "a seat huge": lambda r: _deal0(r, actions=[[10**30, "7C"]]),
    "a word a number": lambda r: _deal0(r, actions=[[1, 7]]),
    "settings a list": lambda r: {**r, "settings": [1]},
    "settings a string": lambda r: {**r, "settings": "bule"},
    "settings a number": lambda r: {**r, "settings": 60},
    "format missing": lambda r: {k: v for k, v in r.items() if k != "format"},
    "game a list": lambda r: {**r, "game": ["lora"]},
    "game unknown": lambda r: {**r, "game": "tablic"},
}


@pytest.mark.parametrize("game", ["lora-7", "preferans-11"])
@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_records_are_a_422_naming_the_problem(app, ana, game, name):
    db = app.state.club.db
    before = snapshot(db)
    refused(ana.post("/api/records", json=MALFORMED[name](example(game))))
    assert snapshot(db) == before


def test_result_and_seed_are_not_read_on_import(ana):
    """``result`` is written by the replay (the format: "ignored on import"); ``seed`` is not used."""
    rec = {**example(), "result": "junk", "seed": {"x": [1]}}
    r = ana.post("/api/records", json=rec)
    assert r.status_code == 201 and r.json()["record"]["result"] == example()["result"]


def test_the_body_of_an_import_is_limited_json(app, ana):
    db = app.state.club.db
    before = snapshot(db)
    big = {**example(), "notes": "x" * MAX_RECORD_BYTES}
    refused(ana.post("/api/records", json=big), 413, "too_large")

    def chunks():  # no Content-Length: counted as it comes
        yield b'{"notes": "'
        for _ in range(MAX_RECORD_BYTES // 65536 + 1):
            yield b"x" * 65536
        yield b'"}'

    refused(ana.post("/api/records", content=chunks(), headers={"Content-Type": "application/json"}), 413, "too_large")
    json_type = {"Content-Type": "application/json"}
    refused(ana.post("/api/records", content=b"{not json", headers=json_type), code="invalid_request")
    refused(ana.post("/api/records", content=b"", headers=json_type), code="invalid_request")
    refused(ana.post("/api/records", content=b"\xff\xfe{}", headers=json_type), code="invalid_request")
    # A lone surrogate no response could encode back (it once made a 500).
    text = json.dumps({**example(), "notes": "\ud800"})
    assert "\\ud800" in text
    refused(ana.post("/api/records", content=text.encode(), headers=json_type), code="invalid_request")
    refused(ana.post("/api/records", content=b"[" * 1100 + b"]" * 1100, headers=json_type), code="invalid_request")
    deep: object = 1
    for _ in range(MAX_RECORD_DEPTH + 1):
        deep = [deep]
    refused(ana.post("/api/records", json={**example(), "notes": deep}), says="nests")
    refused(ana.post("/api/records", content=json.dumps(example()).encode(), headers={"Content-Type": "text/plain"}),
            415, "unsupported_media_type")
    refused(ana.post("/api/records", json=[example()]), code="invalid_request")
    refused(ana.post("/api/records", json="record"), code="invalid_request")
    assert snapshot(db) == before
    # Just under the limit is fine.
    fits = {**example()}
    fits["notes"] = "x" * (MAX_RECORD_BYTES - len(json.dumps(fits)) - 100)
    assert ana.post("/api/records", json=fits).status_code == 201


# -- (c) an import is its owner's -----------------------------------------------------


def test_another_members_import_is_not_found(app, ana):
    rid = ana.post("/api/records", json=example()).json()["id"]
    with client_for(app, "boki") as boki:
        theirs = boki.get(f"/api/records/{rid}")
        nothing = boki.get(f"/api/records/{rid + 1000}")
        assert theirs.status_code == nothing.status_code == 404
        assert theirs.json()["error"]["code"] == nothing.json()["error"]["code"] == "no_such_record"
        assert theirs.json()["error"]["message"] == f"there is no imported record {rid}"  # as for a missing one
        assert boki.get("/api/records").json()["records"] == []
        own = boki.post("/api/records", json=example("preferans-11")).json()["id"]
        assert boki.get(f"/api/records/{own}").status_code == 200
        assert ana.get(f"/api/records/{own}").status_code == 404
    assert ana.get(f"/api/records/{rid}").json()["record"]["result"] == example()["result"]
    assert [r["id"] for r in ana.get("/api/records").json()["records"]] == [rid]


# -- (d) the players of a record, chat -------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_the_shared_examples_import(ana, path):
    rec = json.loads(path.read_text())
    r = ana.post("/api/records", json=rec)
    assert r.status_code == 201, r.text
    assert r.json()["players"] == rec["players"]


BAD_PLAYERS = {
    "a name of 100 KB": ["a" * 100_000, "boki", "ceca", "dule"],
    "objects": [{"name": "ana"}, {"name": "boki"}, {"name": "ceca"}, {"name": "dule"}],
    "numbers": [1, 2, 3, 4],
    "null": [None, "boki", "ceca", "dule"],
    "a list": [["ana"], "boki", "ceca", "dule"],
    "too few": ["ana", "boki", "ceca"],
    "too many": ["ana", "boki", "ceca", "dule", "eva"],
    "not a list": "ana,boki,ceca,dule",
    "an object": {"0": "ana", "1": "boki", "2": "ceca", "3": "dule"},
    "too short": ["an", "boki", "ceca", "dule"],
    "33 letters": ["a" * 33, "boki", "ceca", "dule"],
    "a NUL": ["an\x00a", "boki", "ceca", "dule"],
    "a newline at the end": ["ana\n", "boki", "ceca", "dule"],
    "a space": ["ana b", "boki", "ceca", "dule"],
    "markup": ["<b>ana</b>", "boki", "ceca", "dule"],
    "a computer player beyond the seats": ["AI 9", "boki", "ceca", "dule"],
    "empty": ["", "boki", "ceca", "dule"],
}


@pytest.mark.parametrize("name", list(BAD_PLAYERS))
def test_players_are_named_as_at_registration(app, ana, name):
    db = app.state.club.db
    before = snapshot(db)
    body = {**example(), "players": BAD_PLAYERS[name]}
    if name == "a NUL":  # as in any text, refused before the record is read (app/web/nul.py)
        refused(ana.post("/api/records", json=body), code="nul_character", says="NUL")
    else:
        assert "player" in refused(ana.post("/api/records", json=body))
    assert snapshot(db) == before


def test_names_the_club_writes_are_accepted(ana):
    for players in (["ana", "AI 2", "AI 3", "AI 4"], ["AI 1", "AI 2", "AI 3", "AI 4"], ["Ćira", "boki_2", "c.c", "d-d"]):
        r = ana.post("/api/records", json={**example(), "players": players})
        assert r.status_code == 201, (players, r.text)


CONTROL_TEXTS = ["a\x00b", "\x00", "zdravo\x1b[31m", "a\nb", "a\rb", "tab\there", "del\x7f", "c1\x85c", "\x00\x00 "]


def test_chat_refuses_control_characters(app):
    ana = client_for(app, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
    db = app.state.club.db
    before = snapshot(db)
    for text in CONTROL_TEXTS:
        r = ana.post(f"/api/parties/{pid}/chat", json={"text": text})
        if "\x00" in text:  # as in any text (app/web/nul.py); over the socket, invalid_chat
            refused(r, code="nul_character", says="NUL")
        else:
            refused(r, code="invalid_chat", says="control")
    assert snapshot(db) == before
    for text in ("Srećno! ♠♥", "  razmak oko  ", "kraj\n"):  # the ends are trimmed, as before
        assert ana.post(f"/api/parties/{pid}/chat", json={"text": text}).status_code == 201
    assert [m["text"] for m in ana.get(f"/api/parties/{pid}/chat").json()["messages"]] == [
        "Srećno! ♠♥", "razmak oko", "kraj"]


# -- (b) and (d) over a table socket ---------------------------------------------------


DEEP_FRAMES = [
    "[" * 1100 + "]" * 1100,  # about 2 KB
    '{"a":' * 1100 + "1" + "}" * 1100,
    '{"type":"chat","text":' + "[" * 1100 + "]" * 1100 + "}",
    "[" * 5000,  # unclosed
    "[" * 900 + "]" * 900,  # deep, but parsed: a frame that is no object
    '{"type": "action", "word": ' + "[" * 1000 + "]" * 1000 + ', "version": 0}',
]


def test_table_socket_answers_deep_frames_and_control_characters_with_error_frames(live_server):
    from tests.support.web import member, recv, ws_connect

    ana = member(live_server.url, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
    chat_frames = [json.dumps({"type": "chat", "text": t}) for t in CONTROL_TEXTS]
    chat_frames.append('{"type": "chat", "text": "a\\ud800b"}')  # a lone surrogate: no JSON text

    async def main():
        answers = []
        async with await ws_connect(live_server, pid, ana) as ws:
            await recv(ws)
            for frame in DEEP_FRAMES + chat_frames:
                await ws.send(frame)
                await ws.send(json.dumps({"type": "ping"}))
                got = []
                while not got or got[-1]["type"] != "pong":
                    got.append(await recv(ws))
                answers.append([f for f in got if f["type"] in ("error", "chat")])
            await ws.send(json.dumps({"type": "chat", "text": "still here"}))
            while (frame := await recv(ws))["type"] != "chat":
                pass
            assert frame["message"]["text"] == "still here"
            assert ws.close_code is None
        return answers

    answers = asyncio.run(main())
    codes = [[f.get("code") for f in a] for a in answers]
    assert codes == [["bad_json"]] * 4 + [["bad_frame"], ["bad_frame"]] + [["invalid_chat"]] * len(CONTROL_TEXTS) + [["bad_json"]]
    assert [m["text"] for m in ana.get(f"/api/parties/{pid}/chat").json()["messages"]] == ["still here"]


# -- found on the way: an error message quoting a lone surrogate ------------------------


def test_an_error_quoting_a_lone_surrogate_is_still_a_4xx(app, ana):
    """JSON may escape a lone surrogate ("\\ud800") that UTF-8 cannot carry; a message that
    quotes it (an unknown setting's name) was a 500 when the response was encoded."""
    before = snapshot(app.state.club.db)
    body = '{"game": "preferans", "settings": {"\\ud800": 1}, "seats": [{"kind": "bot"}, {"kind": "bot"}]}'
    r = ana.post("/api/parties", content=body.encode(), headers={"Content-Type": "application/json"})
    message = refused(r, code="invalid_settings")
    assert "\ud800" in message  # sent back as the same JSON escape
    assert snapshot(app.state.club.db) == before
