"""A real PostgreSQL for the tests: one server for the whole session (tests/support/pgserver.py:
a throw-away cluster started as the ``postgres`` user), a fresh database per test that
asks for one, and the databases of the apps under test when they run on PostgreSQL
(``AppDatabases``: one per data directory, copied from a migrated template, made ahead
and dropped behind in a thread of their own so that a test never waits for either).
"""

from __future__ import annotations

import asyncio
import collections
import tempfile
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.support.pgserver import PostgresServer, find_bin_dir, start_server

MISSING = (
    "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): "
    "scripts/system-deps installs Debian's postgresql-15"
)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL cluster of its own for the test session, stopped and removed after."""
    if find_bin_dir() is None:
        pytest.skip(MISSING)
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


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the newest schema, as a host's first start does."""
    from tilewall.store import open_store

    async def run() -> None:
        with tempfile.TemporaryDirectory() as folder:
            store = await open_store(Path(folder), url)
            await store.close()

    asyncio.run(run())


class AppDatabases:
    """The PostgreSQL databases of apps under test: the first app on a data directory gets
    a fresh database, copied from a template migrated once (a copy takes a tenth of a
    second, migrating takes several); an app opened again on that data directory (a
    restart) finds the same database. Databases are made ``AHEAD`` in a worker thread,
    and :meth:`drop_closed` drops, in that thread, those whose apps are all closed."""

    AHEAD = 2

    def __init__(self, server: PostgresServer) -> None:
        self.server = server
        template_url = server.create_database("template")
        migrate(template_url)
        self.template = template_url.rsplit("/", 1)[-1]
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="app-databases")
        self._ready: collections.deque[Future[str]] = collections.deque()
        self._by_dir: dict[Path, str] = {}
        self._open: collections.Counter[str] = collections.Counter()
        self._lock = threading.Lock()
        self._fill()

    def _fill(self) -> None:
        while len(self._ready) < self.AHEAD:
            self._ready.append(
                self._worker.submit(self.server.create_database, "app", self.template)
            )

    def database_for(self, data_dir: Path) -> str:
        """The database of the app on ``data_dir`` (made at its first app)."""
        key = data_dir.resolve()
        with self._lock:
            url = self._by_dir.get(key)
            if url is None:
                url = self._ready.popleft().result()
                self._fill()
                self._by_dir[key] = url
            return url

    def opened(self, url: str) -> None:
        with self._lock:
            self._open[url] += 1

    def closed(self, url: str) -> None:
        with self._lock:
            self._open[url] -= 1

    def drop_closed(self) -> None:
        """Drop the databases no app has open (an app opened again on the same data
        directory later in the same test is not dropped under: this runs between
        tests)."""
        with self._lock:
            done = [(key, url) for key, url in self._by_dir.items() if self._open[url] <= 0]
            for key, url in done:
                del self._by_dir[key]
                del self._open[url]
                self._worker.submit(self.server.drop_database, url)

    def close(self) -> None:
        with self._lock:
            for url in self._by_dir.values():
                self._worker.submit(self.server.drop_database, url)
            self._by_dir.clear()
            while self._ready:
                ready = self._ready.popleft()
                self._worker.submit(_drop_made, self.server, ready)
            self._worker.submit(self.server.drop_database, self.template)
        self._worker.shutdown(wait=True)


def _drop_made(server: PostgresServer, made: Future[str]) -> None:
    try:
        url = made.result()
    except Exception:
        return
    server.drop_database(url)
