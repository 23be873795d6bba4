"""The app in this process, driven over HTTP through a ``TestClient``: fixtures for a
fresh app per test (``anon``, ``api``, ``host``), for one app shared by the tests of a
class (``SharedApp``), and for opening an app again on the same data directory.

What only a receiver or the machine would do (say hello, carry a licence) is done on the
host itself, on the app's event loop (``run``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.http import ADMIN, PASSWORD, Api, login

#: what the test client's requests are addressed to; cookies are kept for this host
BASE_URL = "http://testserver.local"


def admin_environment(mp: pytest.MonkeyPatch) -> None:
    """The environment a host under test starts in: the admin's credentials; it never acts
    on the machine and trusts only the keys a test makes."""
    mp.setenv("TILEWALL_ADMIN_USER", ADMIN)
    mp.setenv("TILEWALL_ADMIN_PASSWORD", PASSWORD)
    mp.delenv("TILEWALL_HOST_MANAGEMENT", raising=False)
    mp.delenv("TILEWALL_LICENCE_KEYS", raising=False)


@contextlib.contextmanager
def app_client(
    data_dir: Path, *, session: bool = True, keep: bool = False, root: str = "", **options: Any
) -> Iterator[Api]:
    """The app (``make_app(data_dir, **options)``) started, as a client; logged in unless
    ``session`` is false. Paths are relative to /api, or (``root="/api"``) to the host's
    root. Leaving the block shuts the app down, as stopping the host does."""
    from litestar.testing import TestClient

    from tilewall.server import make_app

    base_url = BASE_URL if root else f"{BASE_URL}/api"
    with TestClient(make_app(data_dir, **options), base_url=base_url) as client:
        api = Api(client, root=root)
        if session:
            login(api, keep)
        yield api


# --- fixtures (registered in tests/conftest.py) -------------------------------------------


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    """argon2 with its production cost takes about half a second per login on a busy
    machine; tests only need it to be argon2, so they use the cheapest parameters."""
    from argon2 import PasswordHasher

    from tilewall.host.system import accounts

    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(accounts, "_hasher", cheap)
        mp.setattr(accounts, "_DUMMY_HASH", cheap.hash("not a password of anyone"))
        yield


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    admin_environment(monkeypatch)
    return tmp_path / "data"


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
def shared_app(factory: pytest.TempPathFactory, name: str, **options: Any) -> Iterator[Api]:
    """Body of a fixture wider than a test: an app on its own data directory."""
    with pytest.MonkeyPatch.context() as mp:
        admin_environment(mp)
        with app_client(factory.mktemp(name) / "data", **options) as client:
            yield client


class SharedApp:
    """The tests of a class share one logged-in app (about half a second saved per test).
    Only for tests that do not interfere: each makes its own objects, under names of its
    own, and changes nothing host-wide (licence, settings)."""

    @pytest.fixture(scope="class")
    def shared_api(self, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
        with shared_app(tmp_path_factory, "shared") as client:
            yield client

    @pytest.fixture
    def api(self, shared_api: Api) -> Api:
        return shared_api

    @pytest.fixture
    def host(self, shared_api: Api) -> Any:
        return host_of(shared_api)


@pytest.fixture(scope="session")
def sessionless(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """One app for every test that only checks what a client without a session gets."""
    with shared_app(tmp_path_factory, "sessionless", session=False) as client:
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


def put_setting(api: Api, name: str, value: Any) -> None:
    """A durable host setting, written as the service owning it would."""
    host = host_of(api)

    async def put() -> None:
        async with host.core.change() as tx:
            tx.put_setting(name, value)

    run(api, put)


def reopened_settings(data_dir: Path) -> dict[str, Any]:
    """The settings a host opened afresh on ``data_dir`` finds: what was made durable."""
    from tilewall.server import open_host

    async def load() -> dict[str, Any]:
        opened = await open_host(data_dir)
        try:
            return dict(opened.core.state.settings)
        finally:
            await opened.close()

    return asyncio.run(load())
