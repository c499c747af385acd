"""The operator's view (issue 37, item 3): GET /metrics in Prometheus' text format, only to
loopback, the trusted proxies' addresses or the metrics token (a 404 to anyone else); and
JSON log lines that carry each request's id, the one its X-Request-ID answer names."""

from __future__ import annotations

import io
import json
import logging
import os
import random
import re
import subprocess
import sys

import httpx
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import func, select
from websockets.sync.client import connect

from app.db import Database
from app.db.models import Action
from app.errors import ClubError
from app.logs import JsonFormatter
from tests.support.bots import bearer, new_bot
from tests.support.proxies import browser, register, served
from tests.support.web import ROOT, cookie_header, wait_for

PREFERANS = {"game": "preferans", "settings": {"bule": 30, "refe": 0, "deljenja": 3},  # three hands
             "seats": [{"kind": "bot", "bot": "random"}] * 2}
METRICS = ("klub_words_total", "klub_words_refused_total", "klub_word_latency_seconds", "klub_table_sockets",
           "klub_notice_sockets", "klub_running_tables", "klub_push_queue_length", "klub_push_outbox_rows",
           "klub_bot_streams", "klub_errors_total", "klub_db_connections_checked_out", "klub_db_pool_size")


def scrape(c, **headers) -> dict[tuple[str, tuple], float]:
    """The samples of GET /metrics by (name, labels), checked to parse as Prometheus' format."""
    r = c.get("/metrics", headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    families = list(text_string_to_metric_families(r.text))
    names = {f.name for f in families}
    assert {m.removesuffix("_total") for m in METRICS} <= names, sorted(names)
    return {(s.name, tuple(sorted(s.labels.items()))): s.value for f in families for s in f.samples}


def value(samples, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def play_over_the_api(url: str, member: httpx.Client, pid: int) -> None:
    """Random legal words of the member's seat, sent over HTTP, until the partie ends; the
    table socket tells when it is his turn."""
    rng = random.Random(pid)
    with connect(f"{url.replace('http', 'ws', 1)}/ws/parties/{pid}", open_timeout=10,
                 additional_headers={"Cookie": cookie_header(member), "Origin": url}) as ws:
        for _ in range(20000):
            frame = json.loads(ws.recv(timeout=30))
            if frame["type"] not in ("state", "event"):
                continue
            if frame.get("finished") or frame.get("status") == "finished":
                return
            if frame["legal"]:
                r = member.post(f"/api/parties/{pid}/actions",
                                json={"word": rng.choice(frame["legal"]), "version": frame["version"]})
                # a frame behind the table (more events are on their way, the last may end it)
                assert r.status_code == 200 or r.json()["error"]["code"] in ("stale_version", "not_running"), r.text
    raise AssertionError("the partie did not finish")


def test_metrics_after_a_partie_against_computer_players(settings):
    with served(settings) as url, browser(url) as ana, browser(url) as boki:
        register(ana, "ana")
        register(boki, "boki")
        before = scrape(ana)  # ana comes from 127.0.0.1: loopback
        assert value(before, "klub_words_total", game="preferans") == 0
        assert value(before, "klub_db_pool_size", pool="main" if "postgresql" in settings.database_url else "write") > 0

        r = ana.post("/api/parties", json=PREFERANS)
        assert r.status_code == 201 and r.json()["status"] == "running", r.text
        pid = r.json()["id"]
        headers = {"Cookie": cookie_header(ana), "Origin": url}
        ws_url = url.replace("http", "ws", 1)
        with connect(f"{ws_url}/ws/notices", additional_headers=headers, open_timeout=10) as notices, \
                connect(f"{ws_url}/ws/parties/{pid}", additional_headers=headers, open_timeout=10) as table:
            assert json.loads(notices.recv(timeout=10))["type"] == "unread"
            assert json.loads(table.recv(timeout=10))["type"] == "state"
            during = scrape(ana)
            assert value(during, "klub_table_sockets") == 1 and value(during, "klub_notice_sockets") == 1
            assert value(during, "klub_running_tables", game="preferans") == 1
        # a refused word and an error answered over HTTP
        version = ana.get(f"/api/parties/{pid}/view").json()["version"]
        stale = boki.post(f"/api/parties/{pid}/actions", json={"word": "dalje", "version": version})
        assert stale.json()["error"]["code"] == "not_a_player"
        play_over_the_api(url, ana, pid)

        after = scrape(ana)
        db = Database(settings.database_url)
        try:
            with db.read() as s:
                said = s.scalar(select(func.count()).select_from(Action).where(Action.partie_id == pid))
                by_member = s.scalar(select(func.count()).select_from(Action).where(
                    Action.partie_id == pid, Action.source == "member"))
        finally:
            db.dispose()
        assert said > 10 and value(after, "klub_words_total", game="preferans") == said
        assert value(after, "klub_word_latency_seconds_count", source="member") >= by_member > 0
        assert value(after, "klub_word_latency_seconds_count", source="bot") >= said - by_member > 0
        assert value(after, "klub_word_latency_seconds_bucket", source="member", le="+Inf") >= by_member
        assert value(after, "klub_word_latency_seconds_sum", source="member") > 0
        assert value(after, "klub_errors_total", code="not_a_player") == 1
        assert value(after, "klub_running_tables", game="preferans") == 0
        # a socket the client closed is counted until the server has read its close frame
        wait_for(lambda: value(scrape(ana), "klub_table_sockets") == value(scrape(ana), "klub_notice_sockets") == 0,
                 timeout=10, step=0.1)

        # the bot API's streams open now
        token = new_bot(ana, "robo")
        with ana.stream("GET", "/api/bot/stream", headers=bearer(token)) as stream:
            lines = stream.iter_lines()  # kept: a dropped iterator closes the response
            assert json.loads(next(lines))["type"] == "hello"
            assert value(scrape(ana), "klub_bot_streams") == 1
        wait_for(lambda: value(scrape(ana), "klub_bot_streams") == 0, timeout=10, step=0.1)


def test_metrics_are_a_404_to_anyone_else(settings):
    from app.web.main import create_app

    app = create_app(settings.model_copy(update={"metrics_token": "tajna-za-prometej", "trusted_proxies": "10.0.0.0/8"}))
    outsider = TestClient(app, client=("203.0.113.9", 50000))
    r = outsider.get("/metrics")
    assert r.status_code == 404 and r.json() == TestClient(app).get("/no-such-page").json()  # as a page that is not there
    assert outsider.get("/metrics", headers={"Accept": "text/html"}).headers["content-type"].startswith("text/html")
    assert outsider.get("/metrics", headers={"Authorization": "Bearer pogresan"}).status_code == 404
    assert outsider.get("/metrics", headers={"Authorization": "Basic tajna-za-prometej"}).status_code == 404
    scrape(outsider, Authorization="Bearer tajna-za-prometej")
    scrape(TestClient(app, client=("10.20.30.40", 50000)))  # a trusted proxy's own address
    scrape(TestClient(app, client=("::1", 50000)))
    assert "/metrics" not in TestClient(app).get("/openapi.json").json()["paths"]


def test_errors_by_code_and_5xx_once_each_and_the_request_id_of_a_traceback(settings):
    from app.web.main import create_app

    app = create_app(settings.model_copy(update={"metrics_token": "t"}))

    async def boom():
        raise RuntimeError("kvar")

    async def busy():
        raise ClubError("zauzeto", code="busy_here", status=503)

    async def plain():
        return JSONResponse({}, status_code=502)

    for path, endpoint in (("/test/boom", boom), ("/test/busy", busy), ("/test/plain", plain)):
        app.add_api_route(path, endpoint)
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.setFormatter(JsonFormatter())
    logging.getLogger("klub.web").addHandler(handler)
    try:
        with TestClient(app, raise_server_exceptions=False) as c:
            failed = c.get("/test/boom")
            assert [c.get(p).status_code for p in ("/test/busy", "/test/plain", "/api/me")] == [503, 502, 401]
            samples = scrape(c, Authorization="Bearer t")
    finally:
        logging.getLogger("klub.web").removeHandler(handler)
    assert failed.status_code == 500 and failed.json()["error"]["code"] == "internal"
    errors = {dict(labels)["code"]: n for (name, labels), n in samples.items() if name == "klub_errors_total"}
    assert errors == {"internal": 1, "busy_here": 1, "http_502": 1, "not_authenticated": 1}
    line = json.loads(written.getvalue().splitlines()[0])
    assert line["request_id"] == failed.headers["x-request-id"] and line["level"] == "ERROR"
    assert line["logger"] == "klub.web" and "RuntimeError: kvar" in line["exception"]


def test_the_grafana_dashboard_shows_the_served_metrics(settings):
    from app.web.main import create_app

    dashboard = json.loads((ROOT / "docs" / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", ())]
    named = {re.sub(r"_(bucket|count|sum)$", "", m) for e in exprs for m in re.findall(r"\b(?:klub|process)_\w+", e)}
    app = create_app(settings.model_copy(update={"metrics_token": "t"}))
    with TestClient(app) as c:
        text = c.get("/metrics", headers={"Authorization": "Bearer t"}).text
    served_names = set(re.findall(r"^# TYPE (\S+) ", text, re.M))  # also the families without samples yet
    assert named <= served_names, named - served_names
    assert {m.removesuffix("_total") for m in METRICS} <= {n.removesuffix("_total") for n in named}  # a panel each


def test_metrics_behind_a_trusted_proxy_answer_only_local_clients(settings):
    with served(settings, trusted_proxies="127.0.0.1") as url, browser(url) as proxy:
        scrape(proxy)  # the proxy's machine itself
        scrape(proxy, **{"X-Forwarded-For": "127.0.0.9"})
        relayed = proxy.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1, 203.0.113.9"})
        assert relayed.status_code == 404  # a client on the internet, relayed by the proxy


def test_json_log_lines_carry_the_request_id(tmp_path):
    """``python -m app serve`` with KLUB_LOG_FORMAT=json: every line it writes is one JSON
    object, and the access line of a request names the id its answer's X-Request-ID says."""
    from tests.support.migrated import migrated_sqlite

    env = {**os.environ, "KLUB_DATABASE_URL": migrated_sqlite(tmp_path / "klub.db"), "KLUB_LOG_FORMAT": "json",
           "KLUB_ARGON2_TIME_COST": "1", "KLUB_ARGON2_MEMORY_KIB": "1024", "KLUB_BOT_DELAY_SECONDS": "0"}
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", "0"],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        def port() -> int | None:
            assert proc.poll() is None, log.read_text()
            found = re.search(r"Uvicorn running on http://127\.0\.0\.1:(\d+)", log.read_text())
            return int(found.group(1)) if found else None

        url = f"http://127.0.0.1:{wait_for(port, timeout=60, step=0.1)}"
        made = httpx.get(f"{url}/healthz").headers["x-request-id"]
        named = httpx.get(f"{url}/api/me", headers={"X-Request-ID": "prometej-42", "X-Forwarded-For": "203.0.113.5"})
        assert named.status_code == 401 and named.headers["x-request-id"] == "prometej-42"  # loopback is trusted

        def lines() -> list[dict]:
            return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]

        access = wait_for(lambda: {x["request_id"]: x for x in lines() if x["logger"] == "uvicorn.access"}
                          if len([x for x in lines() if x["logger"] == "uvicorn.access"]) >= 2 else None)
    finally:
        proc.terminate()
        proc.wait(20)
    assert access[made]["path"] == "/healthz" and access[made]["status"] == 200
    assert access[made]["client"].startswith("127.0.0.1:") and '"GET /healthz HTTP/1.1" 200' in access[made]["message"]
    assert access["prometej-42"]["path"] == "/api/me" and access["prometej-42"]["status"] == 401
    assert access["prometej-42"]["client"] == "203.0.113.5:0"  # the client the proxy relayed
    every = lines()  # the whole output, the first start's accounts and uvicorn's own lines included
    assert all({"time", "level", "logger", "message", "request_id"} <= set(x) for x in every)
    assert any(x["logger"] == "klub.serve" and "First start" in x["message"] for x in every)
    assert any(x["logger"] == "uvicorn.error" and x["request_id"] is None for x in every)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", every[0]["time"])
