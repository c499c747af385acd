"""The devices that get a member's push notices: add (or refresh), remove, list.

A subscription is what a browser's ``PushSubscription.toJSON()`` gives: the push
service's ``endpoint`` URL and the browser's keys ``p256dh`` (its P-256 public key) and
``auth`` (16 bytes), base64url. Each is checked strictly; a bad one is a 422 that
changes nothing. A member keeps at most :data:`MAX_PER_MEMBER`: a sixth device drops
the one sent least recently. A subscription belongs to the login session that sent it
and goes with it (logout, expiry, a password change ending the other sessions).

The endpoint is where the server will POST: only ``https://`` hosts by name, on the
default port, that are not local names (SSRF). Where a name resolves to is checked
again at each send (app/push/sender.py). ``KLUB_PUSH_ALLOW_LOOPBACK`` also accepts
``http://127.0.0.1:<port>/...``, the tests' push receiver.
"""

from __future__ import annotations

import ipaddress
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import delete, select

from app.db.models import PushSubscription
from app.errors import Invalid, NotFound
from app.members.service import CurrentMember
from app.push.vapid import b64url_decode

if TYPE_CHECKING:
    from app.club import Club

MAX_PER_MEMBER = 5
MAX_ENDPOINT = 2048
LOOPBACK = "127.0.0.1"
# Names that never reach the public internet (RFC 6761, 6762, 8375 and the usual private ones).
LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".intranet", ".lan", ".home", ".corp", ".home.arpa",
                  ".localdomain", ".test", ".invalid", ".example", ".onion")
HOST_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")


def check_endpoint(endpoint: Any, allow_loopback: bool = False) -> str:
    def bad(why: str) -> Invalid:
        return Invalid(f"the endpoint {why}", code="invalid_endpoint")

    if not isinstance(endpoint, str) or not endpoint:
        raise bad("is a URL of the push service")
    if len(endpoint) > MAX_ENDPOINT:
        raise bad(f"has at most {MAX_ENDPOINT} characters")
    if not endpoint.isascii() or any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in endpoint):
        raise bad("has no spaces, control characters or non-ASCII characters")
    try:
        url = urlsplit(endpoint)
        port = url.port
    except ValueError:
        raise bad("is not a URL") from None
    if url.username is not None or url.password is not None or "@" in url.netloc:
        raise bad("carries no user name or password")
    if url.fragment or "#" in endpoint:
        raise bad("has no fragment")
    host = (url.hostname or "").lower()
    if allow_loopback and url.scheme == "http" and host == LOOPBACK:
        return endpoint
    if url.scheme != "https":
        raise bad("is an https:// URL")
    if not host:
        raise bad("names a host")
    if port not in (None, 443):
        raise bad("uses the default https port")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        raise bad("names its host, not an address")
    labels = host.rstrip(".").split(".")
    if len(labels) < 2 or not all(HOST_LABEL.fullmatch(label) for label in labels) or labels[-1].isdigit():
        raise bad("names a host of the internet (such as fcm.googleapis.com)")
    if host == "localhost" or ("." + host.rstrip(".")).endswith(LOCAL_SUFFIXES):
        raise bad("names a host of the internet, not a local one")
    return endpoint


def check_keys(p256dh: Any, auth: Any) -> tuple[str, str]:
    try:
        point = b64url_decode(p256dh)
        if len(point) != 65 or point[0] != 4:
            raise ValueError
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, TypeError):
        raise Invalid("keys.p256dh is the browser's P-256 public key: 65 bytes (an uncompressed point), base64url",
                      code="invalid_push_key") from None
    try:
        secret = b64url_decode(auth)
    except (ValueError, TypeError):
        secret = b""
    if len(secret) != 16:
        raise Invalid("keys.auth is the browser's authentication secret: 16 bytes, base64url", code="invalid_push_auth")
    return p256dh.rstrip("="), auth.rstrip("=")


def subscribe(club: Club, member: CurrentMember, endpoint: Any, p256dh: Any, auth: Any, lang: str) -> dict[str, Any]:
    """Add this device (or refresh it: its keys, language and session); the oldest of the
    member's devices past :data:`MAX_PER_MEMBER` go. ``created`` tells which."""
    endpoint = check_endpoint(endpoint, club.settings.push_allow_loopback)
    p256dh, auth = check_keys(p256dh, auth)
    now = club.clock.now()
    with club.db.write() as s:
        row = s.scalar(select(PushSubscription).where(PushSubscription.endpoint == endpoint))
        created = row is None
        if row is None:
            row = PushSubscription(endpoint=endpoint, created_at=now)
            s.add(row)
        row.member_id = member.id
        row.session_id = member.session_id
        row.p256dh, row.auth, row.lang, row.updated_at = p256dh, auth, lang, now
        s.flush()
        mine = s.scalars(
            select(PushSubscription.id).where(PushSubscription.member_id == member.id)
            .order_by(PushSubscription.updated_at.desc(), PushSubscription.id.desc())
        ).all()
        dropped = list(mine[MAX_PER_MEMBER:])
        if dropped:
            s.execute(delete(PushSubscription).where(PushSubscription.id.in_(dropped)))
        return {"id": row.id, "created": created, "devices": min(len(mine), MAX_PER_MEMBER), "dropped": len(dropped)}


def unsubscribe(club: Club, member: CurrentMember, endpoint: Any) -> None:
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT:
        raise Invalid("the endpoint is the URL of the push service the device subscribed with", code="invalid_endpoint")
    with club.db.write() as s:
        gone = s.execute(delete(PushSubscription).where(
            PushSubscription.endpoint == endpoint, PushSubscription.member_id == member.id))
        if not gone.rowcount:
            raise NotFound("no device of yours has this endpoint", code="no_such_subscription")


def devices(club: Club, member: CurrentMember) -> list[dict[str, Any]]:
    """The member's devices, newest first: the push service's origin (never the whole
    endpoint, a secret), the language, and whether it is this session's."""
    with club.db.read() as s:
        rows = s.scalars(select(PushSubscription).where(PushSubscription.member_id == member.id)
                         .order_by(PushSubscription.updated_at.desc(), PushSubscription.id.desc())).all()
    return [
        {
            "id": row.id,
            "service": f"{urlsplit(row.endpoint).scheme}://{urlsplit(row.endpoint).netloc}",
            "lang": row.lang,
            "this_session": row.session_id == member.session_id,
            "created_at": row.created_at.isoformat(),
            "last_sent_at": row.last_sent_at.isoformat() if row.last_sent_at else None,
        }
        for row in rows
    ]
