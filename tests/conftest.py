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


_RERUNS: list[pytest.TestReport] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Keeps each failure that was run again (``--reruns``, ``make test``)."""
    # pytest-rerunfailures' outcome, beyond the three pytest's type names
    if str(report.outcome) == "rerun":
        _RERUNS.append(report)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Why each test run again failed the first time: a miss that passed on its second run
    is fixed by its cause, and its cause is in its first error."""
    if not _RERUNS:
        return
    terminalreporter.section("why the tests run again failed first")
    for report in _RERUNS:
        lines = str(report.longrepr).splitlines()
        errors = [line for line in lines if line.startswith("E ")][:6] or lines[-3:]
        terminalreporter.line(f"{report.nodeid} ({report.when})")
        for line in errors:
            terminalreporter.line(f"    {line[:2000]}")
