"""Fixtures every test may use; they live in the support package (tests/support)."""

from tests.support.app import (
    anon,
    api,
    app_store,
    data_dir,
    fast_password_hashing,
    host,
    sessionless,
)
from tests.support.http import ADMIN, PASSWORD, login
from tests.support.licence import signing_key
from tests.support.postgres import postgres_server, postgres_url

__all__ = [
    "ADMIN",
    "PASSWORD",
    "anon",
    "api",
    "app_store",
    "data_dir",
    "fast_password_hashing",
    "host",
    "login",
    "postgres_server",
    "postgres_url",
    "sessionless",
    "signing_key",
]
