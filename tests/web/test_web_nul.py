"""A NUL character (U+0000) anywhere in a request: 422 ``nul_character``, before any endpoint.

PostgreSQL's text holds no NUL (psycopg raises DataError even to compare one), SQLite
stores it: a NUL in a login name, a profile's path or an action id was a 500 on one and
stored on the other (app/web/nul.py). Every operation of the API schema is tried with a
NUL in each of its strings, on both databases.
"""

from __future__ import annotations

import json

from tests.support.paths import EXAMPLES
from tests.support.security import snapshot
from tests.support.web import PASSWORD, wait_for

NUL = "a\x00b"


def _string_fields(spec: dict, schema: dict) -> list[str]:
    ref = schema.get("$ref") or next((s["$ref"] for s in schema.get("anyOf", []) if "$ref" in s), None)
    if ref is None:
        return []
    props = spec["components"]["schemas"][ref.rsplit("/", 1)[-1]].get("properties", {})

    def is_string(p: dict) -> bool:
        return p.get("type") == "string" or any(x.get("type") == "string" for x in p.get("anyOf", []))

    return [name for name, p in props.items() if is_string(p)]


def _requests_with_a_nul(spec: dict, pid: int):
    """(method, path, query, body, where) for every string of every operation, one NUL each."""
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            if "logout" in path:
                continue
            params = op.get("parameters", [])
            plain = path
            strings = []
            for p in params:
                if p["in"] != "path":
                    continue
                if p.get("schema", {}).get("type") == "integer":
                    plain = plain.replace("{%s}" % p["name"], str(pid))
                else:
                    strings.append(p["name"])
            for name in strings:
                yield method, plain.replace("{%s}" % name, "a%00b"), {}, None, "the path"
            plain = plain.replace("{", "").replace("}", "")  # other string path parameters: any text
            for p in params:
                if p["in"] == "query" and p.get("schema", {}).get("type", "string") == "string":
                    yield method, plain, {p["name"]: NUL}, None, "the query string"
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            for name in _string_fields(spec, body or {}):
                yield method, plain, {}, {name: NUL}, "the body"


def test_every_string_of_every_operation_refuses_a_nul(client, app):
    assert client.post("/api/auth/register", json={"name": "ana", "password": PASSWORD}).status_code == 201
    pid = client.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
    # The computer players move until it is ana's turn; from then on only ana moves it.
    before = wait_for(lambda: (v := client.get(f"/api/parties/{pid}/view").json())["legal"] and v)["version"]
    spec = client.get("/openapi.json").json()
    db = app.state.club.db
    rows = snapshot(db)
    tried = 0
    for method, path, query, body, where in _requests_with_a_nul(spec, pid):
        r = client.request(method.upper(), path, params=query, json=body)
        assert r.status_code == 422, (method, path, query, body, r.status_code, r.text[:200])
        error = r.json()["error"]
        assert error["code"] == "nul_character", (method, path, error)
        assert where in error["message"], (where, error["message"])
        tried += 1
    assert tried >= 40, tried  # the schema's strings, not an empty walk
    # Nothing was written anywhere (no member, no login failure, no word), the table where it was.
    assert snapshot(db) == rows
    assert client.get(f"/api/parties/{pid}/view").json()["version"] == before


def test_a_nul_deep_in_a_body_or_in_a_form_or_a_page_query_is_refused(client):
    assert client.post("/api/auth/register", json={"name": "ana", "password": PASSWORD}).status_code == 201
    record = json.loads(next(EXAMPLES.glob("*.json")).read_text())
    record["players"][0] = NUL
    r = client.post("/api/records", json=record)
    assert (r.status_code, r.json()["error"]["code"]) == (422, "nul_character")
    r = client.post("/login", data={"name": NUL, "password": "x"})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "nul_character")
    r = client.get("/members", params={"name": NUL})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "nul_character")


def test_text_that_only_spells_a_backslash_u0000_is_text(client):
    """'\\u0000' typed as six characters is JSON '\\\\u0000': no NUL, nothing refused."""
    assert client.post("/api/auth/register", json={"name": "ana", "password": PASSWORD}).status_code == 201
    r = client.post("/api/auth/register", json={"name": "bo\\u0000b", "password": PASSWORD})
    assert r.status_code == 422 and r.json()["error"]["code"] != "nul_character", r.text  # the name's own rule
    pid = client.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
    assert client.post(f"/api/parties/{pid}/chat", json={"text": "kod \\u0000"}).status_code == 201
    assert [m["text"] for m in client.get(f"/api/parties/{pid}/chat").json()["messages"]] == ["kod \\u0000"]


def test_a_body_past_what_is_read_before_the_app_is_refused_whole(client):
    from app.web.nul import MAX_BODY

    r = client.post("/api/records", content=b"{" + b" " * MAX_BODY + b"}", headers={"Content-Type": "application/json"})
    assert (r.status_code, r.json()["error"]["code"]) == (413, "too_large")
