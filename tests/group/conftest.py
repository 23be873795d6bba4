"""Fixtures for groups of hosts: the session's PostgreSQL server (the store tests' own)
and a fresh database per test, and the hosts of a group as real processes."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.group.cluster import Cluster
from tests.store.conftest import postgres_server, postgres_url
from tests.store.pgserver import PostgresServer

__all__ = ["cluster", "postgres_server", "postgres_url"]


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
