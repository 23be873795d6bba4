"""Fixtures for the stores: a real PostgreSQL server for the session, a fresh database
per test, and ``store``, each test of the port contract run on SQLite and PostgreSQL."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.store.pgserver import PostgresServer, find_bin_dir, start_server
from tilewall.store import SqlStore, open_store


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL cluster of its own for the test session, stopped and removed after."""
    if find_bin_dir() is None:
        pytest.skip(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): "
            "scripts/system-deps installs Debian's postgresql-15"
        )
    server = start_server()
    try:
        yield server
    finally:
        server.destroy()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty database on the session's server; the server is running
    again after the test even if the test stopped it."""
    url = postgres_server.create_database()
    yield url
    if not postgres_server.running:
        postgres_server.start()


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
