"""The interface suite runs once per store: every test of tests/api is run with its apps
on SQLite (``[sqlite]``) and again on PostgreSQL (``[postgres]``: one server for the
session, a fresh database per app, copied from a migrated template).

A test about one store only is marked ``only_on(store, reason)``
(tests/support/app.py) and runs on that store alone; where a behaviour differs by design,
each store's test is beside the other's."""

from collections.abc import Iterator

import pytest

from tests.support.app import STORES, AppStore


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "app_store" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("only_on")
    stores = STORES if marker is None else (marker.args[0],)
    metafunc.parametrize("app_store", stores, indirect=True, scope="session")


@pytest.fixture(autouse=True)
def _on_each_store(app_store: AppStore) -> Iterator[None]:
    yield
    app_store.tidy()
