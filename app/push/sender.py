"""Posting one message to a push service (pywebpush): the payload encrypted for the
device (``aes128gcm``, RFC 8291), signed with the Club's VAPID key (RFC 8292), with the
Topic, Urgency and TTL headers (RFC 8030).

SSRF care: the endpoint was checked when it was subscribed (app/push/subscriptions.py);
here its host must also resolve to public addresses only (a name that points into a
private network is refused), a redirect is never followed, and no more than 64 KB of an
answer is read. ``KLUB_PUSH_ALLOW_LOOPBACK``
lets ``http://127.0.0.1`` through (the tests' push receiver).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
import threading
from urllib.parse import urlsplit

import requests
from pywebpush import WebPushException, webpush

from app.push.outbox import Job, Outcome
from app.push.subscriptions import LOOPBACK
from app.push.vapid import VapidKeys

log = logging.getLogger("klub.push")
GONE = (404, 410)  # the subscription expired or was withdrawn: drop the device
RETRY = (408, 425, 429, 500, 502, 503, 504)
MAX_ANSWER = 64 * 1024  # what is read of a push service's answer (its body says nothing we need)


class _Guarded(requests.Session):
    """No redirect followed, and at most MAX_ANSWER bytes of an answer read."""

    def request(self, *args, **kwargs):  # type: ignore[override]
        kwargs["allow_redirects"] = False
        kwargs["stream"] = True
        response = super().request(*args, **kwargs)
        try:
            response._content = response.raw.read(MAX_ANSWER, decode_content=True) or b""
        finally:
            response._content_consumed = True
            response.close()
        return response


_local = threading.local()


def _session() -> requests.Session:
    session = getattr(_local, "session", None)
    if session is None:
        session = _local.session = _Guarded()
        session.trust_env = False  # no proxy of the environment between us and the push service
    return session


def public_host(endpoint: str, allow_loopback: bool) -> bool:
    """Every address the endpoint's host resolves to is a public one (or the loopback
    receiver of the tests, when allowed)."""
    url = urlsplit(endpoint)
    host = url.hostname or ""
    if allow_loopback and url.scheme == "http" and host == LOOPBACK:
        return True
    if url.scheme != "https":
        return False
    try:
        infos = socket.getaddrinfo(host, url.port or 443, type=socket.SOCK_STREAM)
    except OSError:
        return False
    addresses = {ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos}
    return bool(addresses) and all(a.is_global and not a.is_multicast for a in addresses)


def send(job: Job, keys: VapidKeys, allow_loopback: bool = False, timeout: float = 10.0) -> Outcome:
    if not public_host(job.endpoint, allow_loopback):
        log.warning("push to subscription %s refused: its host is not a public one", job.subscription_id)
        return Outcome(job, "retry")  # DNS may be down for a moment; after the last try it goes
    headers = {"Topic": job.topic, "Urgency": job.urgency}
    try:
        webpush(
            {"endpoint": job.endpoint, "keys": {"p256dh": job.p256dh, "auth": job.auth}},
            data=json.dumps(job.payload, ensure_ascii=False, separators=(",", ":")),
            vapid_private_key=keys.signer,
            vapid_claims={"sub": keys.subject},  # aud (the endpoint's origin) and exp are added per message
            content_encoding="aes128gcm",
            ttl=job.ttl,
            headers=headers,
            timeout=timeout,
            requests_session=_session(),
        )
    except WebPushException as e:
        status = e.response.status_code if e.response is not None else None
        if status in GONE:
            return Outcome(job, "gone")
        if status in RETRY:
            return Outcome(job, "retry", _retry_after(e.response))
        log.warning("push to subscription %s failed: %s", job.subscription_id, status)
        return Outcome(job, "dropped")
    except requests.RequestException as e:
        log.info("push to subscription %s did not arrive: %r", job.subscription_id, e)
        return Outcome(job, "retry")
    except Exception:
        log.exception("push to subscription %s failed", job.subscription_id)
        return Outcome(job, "dropped")
    return Outcome(job, "sent")


def _retry_after(response) -> float | None:
    value = response.headers.get("Retry-After") if response is not None else None
    if value and value.strip().isdigit():
        return float(value.strip())
    return None
