"""Password hashing with argon2id."""

from __future__ import annotations

import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

# argon2-cffi's defaults are argon2id with RFC 9106's low-memory profile (64 MiB, t=3).
_hasher = PasswordHasher()


def set_cost(time_cost: int, memory_kib: int) -> None:
    """Change the hashing cost (the tests use a cheap one; old hashes still verify)."""
    global _hasher, _DUMMY_HASH
    _hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=1)
    _DUMMY_HASH = None

MIN_LENGTH = 8
MAX_LENGTH = 256


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
