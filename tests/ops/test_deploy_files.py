"""The production shape's files (README.md, "Production"): docker-compose.yml puts Caddy in
front of several instances, which only Caddy reaches and which trust only Caddy's network
for the clients' addresses; deploy/Caddyfile is valid for localhost and for a real domain.
tests/ops/test_proxy_https.py runs the same shape on this machine (Caddy, two instances)."""

from __future__ import annotations

import ipaddress
import os
import shutil
import subprocess

import pytest
import yaml

from tests.support.paths import ROOT


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_only_caddy_is_published_and_the_instances_trust_only_its_network():
    services = compose()["services"]
    published = {name for name, s in services.items() if s.get("ports")}
    assert published == {"caddy"}
    assert set(services["caddy"]["ports"]) == {"80:80", "443:443", "443:443/udp"}  # 80: the ACME challenge
    app = services["app"]
    assert app["deploy"]["replicas"] == "${KLUB_INSTANCES:-2}" and app["expose"] == ["8000"]
    env = app["environment"]
    assert env["KLUB_SITE_ORIGIN"].startswith("https://") and env["KLUB_REDIS_URL"].startswith("redis://")
    assert env["KLUB_DATABASE_URL"].startswith("postgresql")
    subnet = ipaddress.ip_network(compose()["networks"]["klub"]["ipam"]["config"][0]["subnet"])
    trusted = [ipaddress.ip_network(x.strip()) for x in env["KLUB_TRUSTED_PROXIES"].split(",")]
    assert all(net.subnet_of(subnet) for net in trusted)
    assert all(s.get("networks") == ["klub"] for s in services.values())
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in services["caddy"]["volumes"]


@pytest.mark.parametrize("domain", ["localhost", "klub.example.org"])
def test_the_caddyfile_is_valid(domain, tmp_path):
    caddy = shutil.which("caddy")
    if caddy is None:
        if os.environ.get("KLUB_REQUIRE_BROWSER") == "1":
            pytest.fail("caddy is missing (make test installs Debian's caddy)", pytrace=False)
        pytest.skip("caddy is missing (make test installs Debian's caddy)")
    env = {**os.environ, "KLUB_DOMAIN": domain, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "d"),
           "XDG_CONFIG_HOME": str(tmp_path / "c")}
    done = subprocess.run([caddy, "validate", "--config", str(ROOT / "deploy/Caddyfile"), "--adapter", "caddyfile"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Valid configuration" in done.stdout + done.stderr, done.stderr
