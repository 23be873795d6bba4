"""Fixtures for groups of hosts: the hosts of a group as real processes, on a fresh
database of the session's PostgreSQL server (tests/support/postgres.py)."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cluster import Cluster
from tests.support.pgserver import PostgresServer


@pytest.fixture
def cluster(
    postgres_server: PostgresServer, postgres_url: str, tmp_path: Path
) -> Iterator[Cluster]:
    """Hosts on one fresh database (start them with ``cluster.start()``); every one
    still running is stopped after the test."""
    made = Cluster(postgres_server, postgres_url, tmp_path)
    try:
        yield made
    finally:
        made.stop_all()
