"""The Club's VAPID key pair (RFC 8292): who signs the push messages.

A browser subscribes with the public key (``applicationServerKey``); its push service
then takes only messages whose ``Authorization: vapid t=<JWT>,k=<public key>`` JWT is
signed (ES256) by the private key. The pair is made on the first start and kept in the
database (``push_keys``), so every instance and every restart signs with the same key
(with ``docker compose`` the database lives in its volume). ``KLUB_VAPID_PRIVATE_KEY``
overrides it; changing the key orphans the existing subscriptions (the pages subscribe
again with the new key, app/web/push.py).
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02, _check_sub
from sqlalchemy.exc import IntegrityError

from app.config import Settings
from app.db import Database
from app.db.models import PushKey

KEY_ROW = 1


class VapidError(ValueError):
    """The VAPID settings are wrong: the server does not start with them."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    """Strict base64url (the unpadded form; correct padding is accepted too)."""
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_-]*={0,2}", text):
        raise ValueError("not base64url")
    bare = text.rstrip("=")
    if len(text) != len(bare) and len(text) % 4:
        raise ValueError("wrong base64url padding")
    if len(bare) % 4 == 1:
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))


@dataclass(frozen=True)
class VapidKeys:
    signer: Vapid02  # signs the JWT of each message (pywebpush calls its sign())
    public_key: str  # base64url of the uncompressed P-256 point: the pages' applicationServerKey
    subject: str  # the JWT's "sub": mailto: or https:

    @classmethod
    def of(cls, private_key: ec.EllipticCurvePrivateKey, subject: str) -> VapidKeys:
        if not isinstance(private_key, ec.EllipticCurvePrivateKey) or not isinstance(private_key.curve, ec.SECP256R1):
            raise VapidError("a VAPID key is an EC key on the P-256 curve")
        point = private_key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return cls(Vapid02(private_key), b64url(point), subject)


def subject_of(settings: Settings) -> str:
    """``KLUB_VAPID_SUBJECT``, else the site (https) or mailto:admin@ its host."""
    if settings.vapid_subject:
        if not _check_sub(settings.vapid_subject):
            raise VapidError("KLUB_VAPID_SUBJECT is a mailto: address or an https:// URL")
        return settings.vapid_subject
    site = urlsplit(settings.site_origin)
    if site.scheme == "https" and _check_sub(f"https://{site.netloc}"):
        return f"https://{site.netloc}"
    fallback = f"mailto:admin@{site.hostname or 'localhost'}"
    return fallback if _check_sub(fallback) else "mailto:admin@localhost"


def parse_private_key(text: str) -> ec.EllipticCurvePrivateKey:
    """A private key as the settings give it: PEM, or base64url of its 32 raw bytes or of its DER."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_private_key(text.encode(), password=None)
        else:
            raw = b64url_decode(text.replace("\n", ""))
            if len(raw) == 32:
                key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
            else:
                key = serialization.load_der_private_key(raw, password=None)
    except (ValueError, TypeError) as e:
        raise VapidError(f"KLUB_VAPID_PRIVATE_KEY is no private key: {e}") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise VapidError("KLUB_VAPID_PRIVATE_KEY is not an EC key")
    return key


def pem_of(key: ec.EllipticCurvePrivateKey) -> str:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def load_keys(db: Database, settings: Settings) -> VapidKeys:
    """The settings' key pair, else the database's, else a new one (kept in the database;
    two instances starting together keep the first one written)."""
    subject = subject_of(settings)
    if settings.vapid_private_key:
        keys = VapidKeys.of(parse_private_key(settings.vapid_private_key), subject)
        if settings.vapid_public_key and settings.vapid_public_key.rstrip("=") != keys.public_key:
            raise VapidError("KLUB_VAPID_PUBLIC_KEY is not the public key of KLUB_VAPID_PRIVATE_KEY")
        return keys
    if settings.vapid_public_key:
        raise VapidError("KLUB_VAPID_PUBLIC_KEY needs its KLUB_VAPID_PRIVATE_KEY")
    with db.read() as s:
        row = s.get(PushKey, KEY_ROW)
        pem = row.private_key if row is not None else None
    if pem is None:
        fresh = pem_of(ec.generate_private_key(ec.SECP256R1()))
        try:
            with db.write() as s:
                s.add(PushKey(id=KEY_ROW, private_key=fresh, created_at=db.clock.now()))
        except IntegrityError:  # another instance made it first: its key is the Club's
            pass
        with db.read() as s:
            pem = s.get(PushKey, KEY_ROW).private_key
    return VapidKeys.of(serialization.load_pem_private_key(pem.encode(), password=None), subject)  # type: ignore[arg-type]
