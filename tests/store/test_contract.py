"""The store port (documents, users, sessions), the same on SQLite and PostgreSQL."""

import inspect
import logging
from pathlib import Path
from typing import Any

import pytest

from tilewall.host.access.roles import Account, Role, Scope
from tilewall.host.errors import StoreFailed
from tilewall.host.ports import Change, Persistence
from tilewall.store import SqlStore, open_store

BINARY = bytes(range(256)) * 64  # every byte value, 16 KiB
JSON = '{"name":"Hall ü 🎬","n":1}'.encode()


def port_operations() -> dict[str, Any]:
    """Every operation of the ``Persistence`` port (its own and its bases'), by name."""
    operations: dict[str, Any] = {}
    for part in reversed(Persistence.__mro__):
        if part.__module__ == Persistence.__module__:
            operations.update(
                (name, member)
                for name, member in vars(part).items()
                if callable(member) and not name.startswith("_")
            )
    return operations


def test_both_stores_offer_every_operation_of_the_port(store: SqlStore) -> None:
    # the types are mypy's to check (make lint); here the store open_store gives for
    # each database has every operation of the port, async where the port is, with its
    # parameters
    operations = port_operations()
    assert {"apply", "load_documents", "close"} <= set(operations)
    for name, declared in operations.items():
        implemented = getattr(store, name, None)
        assert callable(implemented), f"{type(store).__name__} has no {name}"
        assert inspect.iscoroutinefunction(implemented) == inspect.iscoroutinefunction(declared), (
            f"{type(store).__name__}.{name}: async in one, not in the other"
        )
        wanted = list(inspect.signature(declared).parameters)[1:]  # all but self
        got = list(inspect.signature(implemented).parameters)
        assert got == wanted, f"{type(store).__name__}.{name}{got}: the port says {wanted}"


async def test_a_new_store_is_empty(store: SqlStore) -> None:
    assert await store.load_documents() == {}
    assert await store.users() == {}
    assert await store.sessions() == []


async def test_documents_round_trip(store: SqlStore) -> None:
    await store.apply(
        [
            Change("source", "1", JSON),
            Change("source", "2", b"{}"),
            Change("display", "seat ü/1", BINARY),
            Change("setting", "mapping_generation", b"7"),
        ]
    )
    assert await store.load_documents() == {
        "source": {"1": JSON, "2": b"{}"},
        "display": {"seat ü/1": BINARY},
        "setting": {"mapping_generation": b"7"},
    }


async def test_a_put_replaces_the_document_in_place(store: SqlStore) -> None:
    await store.apply([Change("source", "1", b"old"), Change("source", "2", b"two")])
    await store.apply([Change("source", "1", b"new")])
    assert await store.load_documents() == {"source": {"1": b"new", "2": b"two"}}


async def test_delete(store: SqlStore) -> None:
    await store.apply([Change("source", "1", b"a"), Change("source", "2", b"b")])
    await store.apply([Change("source", "1", None), Change("source", "never there", None)])
    assert await store.load_documents() == {"source": {"2": b"b"}}
    await store.apply([Change("source", "2", None)])
    assert await store.load_documents() == {}


async def test_the_last_change_to_a_document_wins(store: SqlStore) -> None:
    await store.apply([Change("zone", "z", b"kept")])
    await store.apply(
        [
            Change("source", "1", b"first"),
            Change("source", "1", None),
            Change("source", "2", b"first"),
            Change("source", "2", b"second"),
            Change("zone", "z", None),
            Change("zone", "z", b"again"),
        ]
    )
    assert await store.load_documents() == {"source": {"2": b"second"}, "zone": {"z": b"again"}}


async def test_nothing_to_write_is_no_transaction(store: SqlStore) -> None:
    await store.apply([])
    assert await store.load_documents() == {}


def _broken() -> Change:
    """A change no database accepts (a document without a kind)."""
    bad: Any = None
    return Change(bad, "broken", b"x")


async def test_many_changes_are_one_transaction(store: SqlStore) -> None:
    await store.apply([Change("source", "old", b"before"), Change("zone", "z", b"before")])
    with pytest.raises(StoreFailed, match="nothing was changed"):
        await store.apply(
            [
                Change("source", "new", b"after"),
                Change("source", "old", None),
                Change("zone", "z", b"after"),
                _broken(),
                Change("preset", "p", b"after"),
            ]
        )
    assert await store.load_documents() == {
        "source": {"old": b"before"},
        "zone": {"z": b"before"},
    }
    # and the store goes on working
    await store.apply([Change("preset", "p", b"after")])
    assert (await store.load_documents())["preset"] == {"p": b"after"}


async def test_an_outage_is_logged_once_and_the_recovery_once(
    store: SqlStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="tilewall.store")
    for _ in range(3):
        with pytest.raises(StoreFailed):
            await store.apply([_broken()])
    await store.apply([Change("source", "1", b"ok")])
    messages = [r.getMessage() for r in caplog.records]
    assert sum("the store cannot write" in m for m in messages) == 1, messages
    assert sum("writes again after 3 failed writes" in m for m in messages) == 1, messages
    # the statement and its values stay out of the log
    assert not any("INSERT" in m or "broken" in m for m in messages), messages


async def test_users(store: SqlStore) -> None:
    scope = Scope.of(walls=["w1"], zones=["z1", "z2"], displays=[3], sources=["s1"])
    operator = Account("hash-2", Role.OPERATOR, scope, True, False, 2_000)
    await store.put_user("admin", Account("hash-1", created_ms=1_000))
    await store.put_user("operator", operator)
    await store.put_user("admin", Account("hash-3", created_ms=3_000))  # a new password
    users = await store.users()
    assert users == {"admin": Account("hash-3"), "operator": operator}
    assert users["operator"].scope == scope and users["operator"].scoped_reads
    assert users["admin"].created_ms == 1_000  # kept
    await store.put_user("operator", Account("hash-2", Role.VIEWER, disabled=True))
    assert (await store.users())["operator"] == Account("hash-2", Role.VIEWER, disabled=True)
    assert await store.delete_user("operator") is True
    assert await store.delete_user("operator") is False
    assert await store.users() == {"admin": Account("hash-3")}


async def test_sessions(store: SqlStore) -> None:
    await store.put_user("admin", Account("h"))
    await store.put_session("t1", "admin", True, 1_700_000_000_001)
    await store.put_session("t2", "admin", False, 1_700_000_000_002)
    await store.put_session("t3", "admin", False, 1_700_000_000_003)
    assert sorted(await store.sessions()) == [
        ("t1", "admin", True, 1_700_000_000_001),
        ("t2", "admin", False, 1_700_000_000_002),
        ("t3", "admin", False, 1_700_000_000_003),
    ]
    await store.delete_sessions(["t2", "unknown"])
    await store.delete_sessions([])
    assert sorted(s[0] for s in await store.sessions()) == ["t1", "t3"]


async def test_removing_a_user_ends_their_sessions(store: SqlStore) -> None:
    await store.put_user("a", Account("h"))
    await store.put_user("b", Account("h"))
    await store.put_session("ta", "a", True, 1)
    await store.put_session("tb", "b", True, 1)
    await store.delete_user("a")
    assert await store.sessions() == [("tb", "b", True, 1)]


async def test_everything_is_there_after_reopening(database: str | None, tmp_path: Path) -> None:
    first = await open_store(tmp_path / "store", database)
    try:
        await first.apply([Change("source", "1", JSON), Change("display", "2", BINARY)])
        await first.put_user("admin", Account("hash"))
        await first.put_session("t", "admin", True, 2)
    finally:
        await first.close()
    again = await open_store(tmp_path / "store", database)
    try:
        assert await again.load_documents() == {"source": {"1": JSON}, "display": {"2": BINARY}}
        assert await again.users() == {"admin": Account("hash")}
        assert await again.sessions() == [("t", "admin", True, 2)]
    finally:
        await again.close()
