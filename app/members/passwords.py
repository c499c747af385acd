"""Password hashing with argon2id."""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

# argon2id, RFC 9106's low-memory profile: above OWASP's minimum (m=19 MiB, t=2, p=1).
DEFAULT_TIME_COST = 3
DEFAULT_MEMORY_KIB = 64 * 1024
DEFAULT_PARALLELISM = 4


def default_hasher() -> PasswordHasher:
    return PasswordHasher(
        time_cost=DEFAULT_TIME_COST, memory_cost=DEFAULT_MEMORY_KIB, parallelism=DEFAULT_PARALLELISM, type=Type.ID
    )


_hasher = default_hasher()


def set_cost(time_cost: int, memory_kib: int) -> None:
    """Change the hashing cost (the tests use a cheap one; old hashes still verify)."""
    global _hasher, _DUMMY_HASH
    _hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=1, type=Type.ID)
    _DUMMY_HASH = None

MIN_LENGTH = 8
MAX_LENGTH = 256  # NIST 800-63B: at least 64 allowed
COMMON_PASSWORDS = Path(__file__).with_name("common_passwords.txt")


@lru_cache(maxsize=1)
def _common() -> frozenset[str]:
    lines = COMMON_PASSWORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip().lower() for line in lines if line.strip() and not line.startswith("#"))


def is_common(password: str) -> bool:
    """A password of the shipped list of the most common ones (case ignored)."""
    return password.strip().lower() in _common()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


def generate_password() -> str:
    return secrets.token_urlsafe(12)


# Hashed once, so an unknown name costs as much time as a wrong password.
_DUMMY_HASH: str | None = None


def spend_verify_time(password: str) -> None:
    global _DUMMY_HASH
    if _DUMMY_HASH is None:
        _DUMMY_HASH = hash_password(generate_password())
    verify_password(_DUMMY_HASH, password)
