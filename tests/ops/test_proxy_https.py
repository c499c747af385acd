"""The Club as a club runs it on the internet: Caddy with automatic HTTPS (its internal CA
here, a real certificate for KLUB_DOMAIN in deploy/Caddyfile) in front of two instances
started by `python -m app serve`, sharing PostgreSQL and Redis.

Chromium plays a preferans partie over https through Caddy, its table socket included,
the requests spread over both instances; registrations are throttled by the real client's
address (each client comes from an address of its own in 127.0.0.0/8), not by the proxy's,
and a client cannot name another address with X-Forwarded-For.

Runs with PostgreSQL and Redis (``.ci/run``); Caddy is Debian's package, which `make test`
installs as it installs Chromium.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.support.backends import PG_URL, REDIS_URL
from tests.support.ui import ROOT, api, close_watched, need_chromium, say_something, watched_page
from tests.support.web import listening_socket, wait_for

pytestmark = pytest.mark.skipif(not (PG_URL and REDIS_URL), reason="needs PostgreSQL and Redis")
PASSWORD = "klupska-lozinka-7"


@pytest.fixture(params=["postgresql"])
def backend(request):
    return request.param


def _free_port() -> int:
    with listening_socket() as s:
        return s.getsockname()[1]


def _need_caddy() -> str:
    path = shutil.which("caddy")
    if path is None:
        if os.environ.get("KLUB_REQUIRE_BROWSER") == "1":
            pytest.fail("caddy is missing (make test installs Debian's caddy)", pytrace=False)
        pytest.skip("caddy is missing (make test installs Debian's caddy)")
    return path


class Instance:
    """The Club as production starts it: `python -m app serve` (migrates, then uvicorn)."""

    def __init__(self, tmp: Path, env: dict[str, str], name: str):
        self.port = _free_port()
        self.log = tmp / f"{name}.log"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT, env=env, stdout=self.log.open("w"), stderr=subprocess.STDOUT)
        wait_for(lambda: self._healthy(), timeout=60, step=0.1)

    def _healthy(self) -> bool:
        assert self.proc.poll() is None, self.log.read_text()
        try:
            return httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _caddyfile(https_port: int, http_port: int, upstreams: list[int]) -> str:
    backends = " ".join(f"127.0.0.1:{p}" for p in upstreams)
    return f"""{{
    admin off
    local_certs
    skip_install_trust
    http_port {http_port}
    https_port {https_port}
}}
https://localhost:{https_port} {{
    tls internal
    encode zstd gzip
    reverse_proxy {backends} {{
        lb_policy round_robin
    }}
}}
"""


@pytest.fixture
def club_behind_caddy(settings, tmp_path):
    caddy = _need_caddy()
    need_chromium()
    https_port, http_port = _free_port(), _free_port()
    origin = f"https://localhost:{https_port}"
    env = {**os.environ, "KLUB_DATABASE_URL": settings.database_url, "KLUB_REDIS_URL": settings.redis_url,
           "KLUB_SITE_ORIGIN": origin, "KLUB_TRUSTED_PROXIES": "127.0.0.1", "KLUB_BOT_DELAY_SECONDS": "0",
           "KLUB_DEFAULT_BOT": "random", "KLUB_ARGON2_TIME_COST": "1", "KLUB_ARGON2_MEMORY_KIB": "1024",
           "KLUB_UI_TRICK_PAUSE_MS": "40", "KLUB_UI_TIMINGS": '{"dalje_delay": 30}',
           "KLUB_REGISTER_MAX_PER_ADDRESS": "5"}  # the Club's own limit (the tests' processes raise it)
    instances = [Instance(tmp_path, env, "one"), Instance(tmp_path, env, "two")]
    conf = tmp_path / "Caddyfile"
    conf.write_text(_caddyfile(https_port, http_port, [i.port for i in instances]))
    home = tmp_path / "caddy-home"
    caddy_env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
                 "XDG_CONFIG_HOME": str(home / "config")}
    log = tmp_path / "caddy.log"
    proc = subprocess.Popen([caddy, "run", "--config", str(conf), "--adapter", "caddyfile"], env=caddy_env,
                            stdout=log.open("w"), stderr=subprocess.STDOUT)

    def up() -> bool:
        assert proc.poll() is None, log.read_text()
        try:
            return httpx.get(origin + "/healthz", verify=False, timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_for(up, timeout=60, step=0.2)
        yield origin, instances
    finally:
        proc.terminate()
        proc.wait(15)
        for i in instances:
            i.stop()


def _client_from(address: str, origin: str) -> httpx.Client:
    """A client whose connections leave from ``address`` (its own address in 127.0.0.0/8)."""
    transport = httpx.HTTPTransport(local_address=address, verify=False)
    return httpx.Client(base_url=origin, transport=transport, headers={"Origin": origin}, timeout=10)


def test_a_partie_over_https_through_caddy_and_two_instances(club_behind_caddy, browser):
    origin, instances = club_behind_caddy
    # Throttling by the real client's address: 5 accounts an hour from each address.
    first, second = _client_from("127.0.0.2", origin), _client_from("127.0.0.3", origin)
    for i in range(5):
        r = first.post("/api/auth/register", json={"name": f"prvi{i}", "password": PASSWORD},
                       headers={"X-Forwarded-For": f"10.9.8.{i}"})  # a name of its own choosing: ignored
        assert r.status_code == 201, r.text
        assert "Secure" in r.headers["set-cookie"] and r.headers["strict-transport-security"]
    r = first.post("/api/auth/register", json={"name": "prvi5", "password": PASSWORD})
    assert r.status_code == 429, r.text
    assert second.post("/api/auth/register", json={"name": "drugi0", "password": PASSWORD}).status_code == 201

    # A member plays a partie in Chromium over https: the pages, the API and the table's socket.
    pg = watched_page(browser, ignore_https_errors=True)
    pg.goto(origin + "/register")
    pg.fill("input[name=name]", "ana")
    pg.fill("input[name=password]", PASSWORD)
    pg.fill("input[name=password2]", PASSWORD)
    pg.click("#auth-form button[type=submit]")
    pg.wait_for_url("**/lobby")
    assert pg.evaluate("() => location.protocol") == "https:"
    proposed = api(pg, "POST", "/api/parties", {"game": "preferans", "settings": {"bule": 30, "refe": 0},
                                                "seats": [{"kind": "bot", "bot": "random"}] * 2})
    assert proposed["status"] == 201, proposed
    pid = proposed["body"]["id"]
    pg.goto(f"{origin}/table/{pid}")
    # the table's socket: wss through Caddy, open
    pg.wait_for_function("() => Klub.table && Klub.table.status === 'running' && Klub.live.ws"
                         " && Klub.live.ws.readyState === WebSocket.OPEN")
    assert pg.evaluate("() => Klub.live.ws.url").startswith(f"wss://localhost:{origin.rsplit(':', 1)[1]}/ws/parties/")
    wait_for(lambda: not say_something(pg, True), timeout=240, step=0.02)
    pg.wait_for_function("() => Klub.table.finished")
    assert api(pg, "GET", f"/api/parties/{pid}/score-sheet")["body"]["status"] == "finished"
    close_watched(pg)

    # Both instances served, and each saw the clients' own addresses, not the proxy's.
    logs = [i.log.read_text() for i in instances]
    assert all("/api/" in text for text in logs), logs
    both = "".join(logs)
    assert "127.0.0.2:" in both and "127.0.0.3:" in both and "10.9.8." not in both
