"""Fixtures every test may use; they live in the support package (tests/support)."""

from typing import Any

import pytest

from tests.support.app import (
    anon,
    api,
    app_store,
    data_dir,
    fast_password_hashing,
    host,
    sessionless,
)
from tests.support.groups import first_units_first, make_scheduler
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The units of work that take longest come first (tests/support/groups.py)."""
    first_units_first(items)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadscope`` (``make test``) shares out modules and the groups of modules
    that tests/support/groups.py names."""
    return make_scheduler(config, log)
