"""Fixtures for the stores: ``store``, each test of the port contract run on SQLite and
PostgreSQL (the session's server and a fresh database per test: tests/support/postgres.py)."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tilewall.store import SqlStore, open_store


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """What ``open_store`` is given: None for SQLite in the data directory, or the URL
    of a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return None
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
async def store(database: str | None, tmp_path: Path) -> AsyncIterator[SqlStore]:
    opened = await open_store(tmp_path / "store", database)
    try:
        yield opened
    finally:
        await opened.close()
