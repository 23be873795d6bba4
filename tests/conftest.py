"""Fixtures every test may use; they live in the support package (tests/support)."""

from tests.support.app import (
    anon,
    api,
    data_dir,
    fast_password_hashing,
    host,
    sessionless,
)
from tests.support.http import ADMIN, PASSWORD, login
from tests.support.licence import signing_key

__all__ = [
    "ADMIN",
    "PASSWORD",
    "anon",
    "api",
    "data_dir",
    "fast_password_hashing",
    "host",
    "login",
    "sessionless",
    "signing_key",
]
