"""Password hashes (argon2), made and checked in one place; checking a user that does
not exist costs what checking one that does costs. Tests put a cheap hasher in
``_hasher``'s place."""

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()
#: checked against when the user does not exist, so both cases cost the same
_DUMMY_HASH: str | None = None


def _dummy_hash() -> str:
    """Made on first use, not at import (a hash costs tens of milliseconds and 64 MiB)."""
    global _DUMMY_HASH
    if _DUMMY_HASH is None:
        _DUMMY_HASH = _hasher.hash("not a password of anyone")
    return _DUMMY_HASH


def hash_password(password: str) -> str:
    """The hash kept for ``password`` (slow on purpose: call it off the event loop)."""
    return _hasher.hash(password)


def matches(hashed: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``hashed`` was made from; False for no hash,
    after the same work."""
    try:
        return _hasher.verify(hashed or _dummy_hash(), password) and hashed is not None
    except (VerificationError, InvalidHashError):
        return False
