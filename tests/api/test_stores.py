"""The interface suite runs once per store (tests/api/conftest.py): every app of a run,
fresh, shared by a class or by the session, keeps its state in that run's store; on
PostgreSQL each is the lone, active member of its database's group."""

from typing import Any

from tests.support.app import AppStore, SharedApp, host_of
from tilewall.host.hostgroup.members import Role
from tilewall.store import PostgresStore


def on_the_store(client: Any, app_store: AppStore) -> None:
    host = host_of(client)
    assert isinstance(host.store, PostgresStore) is app_store.postgres, app_store.kind
    assert host.hostgroup.role is (Role.ACTIVE if app_store.postgres else Role.SOLO)


def test_the_apps_of_a_run_are_on_its_store(api, sessionless, app_store):
    on_the_store(api, app_store)
    on_the_store(sessionless, app_store)


class TestSharedApps(SharedApp):
    def test_a_class_app_is_on_the_store_of_the_run(self, api, app_store):
        on_the_store(api, app_store)
