"""The app in this process, driven over HTTP through a ``TestClient``: fixtures for a
fresh app per test (``anon``, ``api``, ``host``), for one app shared by the tests of a
class (``SharedApp``), and for opening an app again on the same data directory.

The apps keep their state in SQLite in their data directory, or, where ``app_store``
says so (the interface suite runs once on each: tests/api/conftest.py), in a fresh
PostgreSQL database of their own (one per data directory, so that an app opened again
on it finds its state).

What only a receiver or the machine would do (say hello, carry a licence) is done on the
host itself, on the app's event loop (``run``).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.http import ADMIN, PASSWORD, Api, login
from tests.support.postgres import AppDatabases

#: what the test client's requests are addressed to; cookies are kept for this host
BASE_URL = "http://testserver.local"


def admin_environment(mp: pytest.MonkeyPatch) -> None:
    """The environment a host under test starts in: the admin's credentials; it never acts
    on the machine and trusts only the keys a test makes."""
    mp.setenv("TILEWALL_ADMIN_USER", ADMIN)
    mp.setenv("TILEWALL_ADMIN_PASSWORD", PASSWORD)
    mp.delenv("TILEWALL_HOST_MANAGEMENT", raising=False)
    mp.delenv("TILEWALL_LICENCE_KEYS", raising=False)


# --- the store under the apps ------------------------------------------------------------

#: the stores the interface suite runs on
STORES = ("sqlite", "postgres")


@dataclass(frozen=True)
class AppStore:
    """What apps under test keep their state in: SQLite in their data directory, or
    (``databases`` given) a PostgreSQL database per data directory."""

    kind: str = "sqlite"
    databases: AppDatabases | None = None

    @property
    def postgres(self) -> bool:
        return self.databases is not None

    def database_for(self, data_dir: Path) -> str | None:
        """The ``database`` of the apps on ``data_dir``: None for SQLite."""
        return None if self.databases is None else self.databases.database_for(data_dir)

    def tidy(self) -> None:
        """Between tests: drop the databases of apps that are closed."""
        if self.databases is not None:
            self.databases.drop_closed()


SQLITE = AppStore()


def only_on(store: str, reason: str) -> pytest.MarkDecorator:
    """An interface test that runs on one store only (tests/api/conftest.py), saying why:
    it is about that store itself, or its counterpart on the other store is beside it."""
    if store not in STORES or not reason.strip():
        raise ValueError("only_on(store, reason): a store of STORES, and why")
    return pytest.mark.only_on(store, reason=reason)


#: the store of the test running, set by its ``data_dir`` (SQLite when unset)
_current: AppStore | None = None


def current_store() -> AppStore:
    return _current or SQLITE


@contextlib.contextmanager
def app_client(
    data_dir: Path,
    *,
    session: bool = True,
    keep: bool = False,
    root: str = "",
    store: AppStore | None = None,
    **options: Any,
) -> Iterator[Api]:
    """The app (``make_app(data_dir, **options)``) started, as a client; logged in unless
    ``session`` is false. Paths are relative to /api, or (``root="/api"``) to the host's
    root. Leaving the block shuts the app down, as stopping the host does.

    The app keeps its state where ``store`` (else the running test's) says, unless
    ``options`` name a ``database``."""
    from litestar.testing import TestClient

    from tilewall.server import make_app

    store = store or current_store()
    if "database" not in options and store.databases is not None:
        options["database"] = store.databases.database_for(data_dir)
    if not options.get("database"):
        start_from_migrated_sqlite(data_dir)
    tracked = store.databases if options.get("database") else None
    base_url = BASE_URL if root else f"{BASE_URL}/api"
    if tracked is not None:
        tracked.opened(options["database"])
    try:
        with TestClient(make_app(data_dir, **options), base_url=base_url) as client:
            api = Api(client, root=root)
            if session:
                login(api, keep)
            yield api
    finally:
        if tracked is not None:
            tracked.closed(options["database"])


@functools.cache
def _migrated_sqlite() -> Path:
    """A SQLite database the migrations brought to their head, made once per process."""
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    from tilewall.store.sqlite import FILE_NAME, Store

    async def migrate(folder: Path) -> None:
        store = await Store.open(folder)
        await store.close()

    folder = Path(tempfile.mkdtemp(prefix="tilewall-migrated-"))
    atexit.register(shutil.rmtree, folder, True)
    with ThreadPoolExecutor(1) as pool:  # a thread of its own: a test's loop may be running
        pool.submit(asyncio.run, migrate(folder)).result()
    return folder / FILE_NAME


def start_from_migrated_sqlite(data_dir: Path) -> None:
    """A new data directory starts with a copy of a migrated database, as PostgreSQL apps
    start from a migrated template: the migrations are run once per process, not for
    every app (about 80 ms each)."""
    from tilewall.store.sqlite import FILE_NAME

    if not (data_dir / FILE_NAME).exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_migrated_sqlite(), data_dir / FILE_NAME)


# --- fixtures (registered in tests/conftest.py) -------------------------------------------


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    """argon2 with its production cost takes about half a second per login on a busy
    machine; tests only need it to be argon2, so they use the cheapest parameters."""
    from argon2 import PasswordHasher

    from tilewall.host.access import passwords

    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(passwords, "_hasher", cheap)
        mp.setattr(passwords, "_DUMMY_HASH", cheap.hash("not a password of anyone"))
        yield


@pytest.fixture(scope="session")
def app_store(request: pytest.FixtureRequest) -> Iterator[AppStore]:
    """The store of the apps under test: SQLite, unless the test is parametrized with
    "postgres" (tests/api/conftest.py), which starts the session's PostgreSQL server
    and a template database migrated once."""
    kind = getattr(request, "param", "sqlite")
    if kind == "sqlite":
        yield SQLITE
        return
    databases = AppDatabases(request.getfixturevalue("postgres_server"))
    try:
        yield AppStore(kind, databases)
    finally:
        databases.close()


@pytest.fixture
def data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, app_store: AppStore
) -> Iterator[Path]:
    """The data directory of the test's app; the apps the test opens on it (and any
    other) keep their state in ``app_store``."""
    global _current
    admin_environment(monkeypatch)
    _current = app_store
    try:
        yield tmp_path / "data"
    finally:
        _current = None


@pytest.fixture
def anon(data_dir: Path) -> Iterator[Api]:
    """A client of a fresh app, without a session."""
    with app_client(data_dir, session=False) as client:
        yield client


@pytest.fixture
def api(anon: Api) -> Api:
    """A logged-in client of a fresh app."""
    login(anon)
    return anon


@pytest.fixture
def host(api: Api) -> Any:
    return host_of(api)


@contextlib.contextmanager
def shared_app(
    factory: pytest.TempPathFactory, name: str, store: AppStore, **options: Any
) -> Iterator[Api]:
    """Body of a fixture wider than a test: an app on its own data directory, keeping its
    state in ``store`` (the fixture's ``app_store``: a fixture wider than a test runs
    before the test's own ``data_dir`` says which store the test is on)."""
    with pytest.MonkeyPatch.context() as mp:
        admin_environment(mp)
        with app_client(factory.mktemp(name) / "data", store=store, **options) as client:
            yield client


class SharedApp:
    """The tests of a class share one logged-in app (about half a second saved per test).
    Only for tests that do not interfere: each makes its own objects, under names of its
    own, and changes nothing host-wide (licence, settings)."""

    @pytest.fixture(scope="class")
    def shared_api(
        self, tmp_path_factory: pytest.TempPathFactory, app_store: AppStore
    ) -> Iterator[Api]:
        with shared_app(tmp_path_factory, "shared", app_store) as client:
            yield client

    @pytest.fixture
    def api(self, shared_api: Api) -> Api:
        return shared_api

    @pytest.fixture
    def host(self, shared_api: Api) -> Any:
        return host_of(shared_api)


@pytest.fixture(scope="session")
def sessionless(tmp_path_factory: pytest.TempPathFactory, app_store: AppStore) -> Iterator[Api]:
    """One app for every test that only checks what a client without a session gets (one
    per store)."""
    with shared_app(tmp_path_factory, "sessionless", app_store, session=False) as client:
        yield client


# --- the host behind the client -----------------------------------------------------------


def host_of(api: Api) -> Any:
    return api.transport.app.state.host


def run(api: Api, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run host coroutine ``fn(*args, **kwargs)`` on the app's event loop; its result."""
    return api.transport.blocking_portal.call(functools.partial(fn, *args, **kwargs))


def set_licence(api: Api, **terms: Any) -> None:
    """The host carries a licence with ``terms`` (as an activated code would give it)."""
    from tilewall.host.model import Licence

    host = host_of(api)

    async def put() -> None:
        async with host.core.change() as tx:
            host.licence.set(tx, Licence(**terms))

    run(api, put)


def put_setting(api: Api, name: str, value: Any, own: bool = False) -> None:
    """A durable host setting, written as the service owning it would: one of the group's
    state, or (``own``) one of the host's own settings (the machine's, its failover
    settings: a member of a group keeps them apart; on SQLite they are the same)."""
    host = host_of(api)

    async def put() -> None:
        async with (host.member_core if own else host.core).change() as tx:
            tx.put_setting(name, value)

    run(api, put)


def reopened_settings(data_dir: Path) -> dict[str, Any]:
    """The settings a host opened afresh on ``data_dir`` finds: what was made durable (in
    the test's store; on PostgreSQL, the group's settings and this member's own, kept in
    its data directory, together)."""
    from tilewall.assembly import open_host
    from tilewall.host.clock import SystemClock
    from tilewall.host.state import Core
    from tilewall.store.member import MEMBER_STORE_FILE
    from tilewall.store.sqlite import Store

    database = current_store().database_for(data_dir)

    async def load() -> dict[str, Any]:
        opened = await open_host(data_dir, database=database)
        try:
            settings = dict(opened.core.state.settings)
        finally:
            await opened.close()
        if database is not None and (data_dir / MEMBER_STORE_FILE).exists():
            own = await Store.open_file(data_dir / MEMBER_STORE_FILE)
            try:
                core = Core(own, SystemClock())
                await core.load()
                settings.update(core.state.settings)
            finally:
                await own.close()
        return settings

    return asyncio.run(load())
