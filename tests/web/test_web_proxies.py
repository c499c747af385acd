"""The Club behind a reverse proxy (issue 37, item 2): the client's address comes from
X-Forwarded-For only when the direct peer is one of KLUB_TRUSTED_PROXIES (the right-most
untrusted address of the chain), so the throttles count each real client; over https the
cookies are Secure and every answer carries Strict-Transport-Security.

The throttle tests run the Club on a real uvicorn with the options ``python -m app serve``
gives it (app/cli.py ``uvicorn_options``), the trusted peer being 127.0.0.1."""

from __future__ import annotations

import pytest
import uvicorn
from fastapi.testclient import TestClient

from app.config import Settings
from app.web.proxies import TrustedProxies, parse_networks, request_id_of
from app.web.security import HSTS
from tests.support.proxies import browser, register, served
from tests.support.web import PASSWORD

REGISTER_LIMIT = Settings.model_fields["register_max_per_address"].default


# -- the X-Forwarded-For chain -------------------------------------------------------------

def test_the_client_is_the_right_most_untrusted_address_of_the_chain():
    proxies = TrustedProxies("127.0.0.1, 10.0.0.0/8, fd00::/8")
    assert "127.0.0.1" in proxies and "10.200.3.4" in proxies and "fd00::17" in proxies
    assert "::ffff:10.1.1.1" in proxies  # an IPv4 peer of a dual-stack socket
    assert "127.0.0.2" not in proxies and "11.0.0.1" not in proxies and "testclient" not in proxies
    assert "" not in proxies and None not in proxies
    # each proxy appends its peer: what stands left of the first untrusted entry is the client's own text
    assert proxies.client_of("203.0.113.9") == "203.0.113.9"
    assert proxies.client_of("1.1.1.1, 203.0.113.9, 10.0.0.5") == "203.0.113.9"
    assert proxies.client_of("6.6.6.6,203.0.113.9") == "203.0.113.9"  # a forged left part is ignored
    # ports and brackets go, addresses are written the standard way
    assert proxies.client_of("203.0.113.9:4711") == "203.0.113.9"
    assert proxies.client_of("[2001:DB8::1]:443, 10.0.0.5") == "2001:db8::1"
    assert proxies.client_of("2001:db8:0:0::2") == "2001:db8::2"
    # a chain of proxies only: the left-most; nothing usable: None
    assert proxies.client_of("10.0.0.1, 10.0.0.2") == "10.0.0.1"
    assert proxies.client_of(" , ") is None
    assert proxies.client_of("unknown") == "unknown"  # not an address: untrusted, kept as it is
    nobody = TrustedProxies("")
    assert "127.0.0.1" not in nobody and nobody.networks == ()


def test_a_bad_trusted_proxies_setting_stops_the_start():
    assert [str(n) for n in parse_networks("127.0.0.1,::1, 172.30.0.0/24")] == ["127.0.0.1/32", "::1/128", "172.30.0.0/24"]
    with pytest.raises(ValueError, match="caddy"):
        Settings(trusted_proxies="127.0.0.1,caddy", _env_file=None)
    assert Settings(_env_file=None).trusted_proxies == "127.0.0.1,::1"  # loopback, as uvicorn's default


def test_request_ids_are_plain_tokens():
    assert request_id_of(b"3f1c-ab.7_x:y/z+=@") == "3f1c-ab.7_x:y/z+=@"
    made = {request_id_of(v) for v in (None, b"", b"two words", b"x" * 129, b"line\r\nbreak")}
    assert len(made) == 5 and all(len(v) == 32 and int(v, 16) >= 0 for v in made)


def test_serve_gives_uvicorn_the_trusted_proxies_and_leaves_the_headers_to_the_app(monkeypatch, tmp_path):
    from app import cli
    from app.config import get_settings

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: seen.update(kw))
    monkeypatch.setenv("KLUB_DATABASE_URL", f"sqlite:///{tmp_path / 'klub.db'}")
    monkeypatch.setenv("KLUB_TRUSTED_PROXIES", "172.30.0.0/24")
    get_settings.cache_clear()
    try:
        assert cli.main(["serve", "--port", "8123"]) == 0
    finally:
        get_settings.cache_clear()
    assert seen["forwarded_allow_ips"] == "172.30.0.0/24" and seen["proxy_headers"] is False
    assert "log_config" not in seen  # text logs: uvicorn's own configuration


# -- throttles per real client, on a served uvicorn ----------------------------------------

def test_registrations_through_a_trusted_proxy_are_counted_per_forwarded_client(settings):
    with served(settings, register_max_per_address=REGISTER_LIMIT, trusted_proxies="127.0.0.1") as url, \
            browser(url) as proxy:
        for i in range(REGISTER_LIMIT):
            assert register(proxy, f"prvi{i}", "203.0.113.1").status_code == 201
            # a client's own X-Forwarded-For, with the proxy's address appended: the latter counts
            assert register(proxy, f"drugi{i}", f"198.51.100.{i}, 203.0.113.2").status_code == 201
        r = register(proxy, "prvi5", "203.0.113.1")
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_registrations"
        assert int(r.headers["Retry-After"]) > 3000
        assert register(proxy, "drugi5", "9.9.9.9, 203.0.113.2").status_code == 429
        # A third client still has its 5; and the proxy's own requests count as its own address.
        assert register(proxy, "treci0", "2001:db8::3").status_code == 201
        assert register(proxy, "proksi0").status_code == 201


def test_a_forged_x_forwarded_for_from_an_untrusted_peer_is_ignored(settings):
    # Trusting another address: 127.0.0.1 is a client like any other.
    with served(settings, register_max_per_address=REGISTER_LIMIT, trusted_proxies="10.1.2.3") as url, \
            browser(url) as c:
        for i in range(REGISTER_LIMIT):
            r = register(c, f"lazni{i}", f"203.0.113.{i}")
            assert r.status_code == 201
            assert r.headers["x-request-id"] != "nije-moj"
        r = register(c, "lazni5", "203.0.113.77")
        assert r.status_code == 429, r.text
        # Nor is its X-Request-ID taken.
        r = c.get("/healthz", headers={"X-Request-ID": "nije-moj", "X-Forwarded-For": "203.0.113.1"})
        assert r.status_code == 200 and len(r.headers["x-request-id"]) == 32 and r.headers["x-request-id"] != "nije-moj"


def test_trusting_nobody_ignores_every_forwarded_header(settings):
    with served(settings, register_max_per_address=2, trusted_proxies="") as url, \
            browser(url) as c:
        assert [register(c, f"niko{i}", f"203.0.113.{i}").status_code for i in range(3)] == [201, 201, 429]


def test_failed_logins_are_counted_per_forwarded_client(settings):
    with served(settings, login_max_failures=3, trusted_proxies="127.0.0.0/8") as url, \
            browser(url) as proxy:
        assert register(proxy, "ana", "203.0.113.50").status_code == 201

        def login(name: str, password: str, client: str) -> int:
            return proxy.post("/api/auth/login", json={"name": name, "password": password},
                              headers={"X-Forwarded-For": client}).status_code

        assert [login(f"niko{i}", "pogresna-lozinka", "203.0.113.66") for i in range(4)] == [401, 401, 401, 429]
        assert login("ana", PASSWORD, "203.0.113.66") == 429  # that address waits, whatever the name
        assert login("ana", PASSWORD, "203.0.113.50") == 200  # ana's own address does not


def test_a_trusted_proxy_names_the_request_id(settings):
    with served(settings, trusted_proxies="127.0.0.1") as url, browser(url) as proxy:
        r = proxy.get("/healthz", headers={"X-Request-ID": "caddy-5d1f", "X-Forwarded-For": "203.0.113.1"})
        assert r.headers["x-request-id"] == "caddy-5d1f"
        r = proxy.get("/no/such/page", headers={"X-Request-ID": "bad id\twith tab"})
        assert r.status_code == 404 and len(r.headers["x-request-id"]) == 32


# -- https: Secure cookies and HSTS -----------------------------------------------------------

@pytest.mark.parametrize("origin", ["https://klub.example", "http://127.0.0.1:8000"])
def test_hsts_and_secure_cookies_only_for_an_https_site(settings, origin):
    from app.web.main import create_app

    https = origin.startswith("https://")
    app = create_app(settings.model_copy(update={"site_origin": origin}))
    with TestClient(app, headers={"Origin": origin}) as c:
        answers = [c.get("/"), c.get("/healthz"), c.get("/no/such/page"), c.get("/static/css/klub.css"),
                   c.get("/api/me"), c.post("/api/auth/register", json={"name": "ana", "password": PASSWORD}),
                   c.get("/rules/lora?lang=en"), c.get("/lang/sr-Latn", follow_redirects=False)]
        statuses = [r.status_code for r in answers]
        assert statuses[:5] == [200, 200, 404, 200, 401] and statuses[5] == 201, statuses
        for r in answers:
            assert r.headers.get("strict-transport-security") == (HSTS if https else None), r.url
        assert HSTS == "max-age=31536000; includeSubDomains"
        session = answers[5].headers["set-cookie"]
        assert session.startswith("__Host-klub_session=" if https else "klub_session=")
        language = [r.headers["set-cookie"] for r in answers[6:]]
        assert [v.split(";")[0] for v in language] == ["klub_lang=en", "klub_lang=sr-Latn"]
        for cookie in [session, *language]:
            assert ("; secure" in cookie.lower()) == https, cookie
