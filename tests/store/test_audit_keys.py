"""The audit trail's lookup keys (tilewall.store.audit_keys), on SQLite and PostgreSQL: a
page by user, target or operation finds the same entries whether their keys are written
yet or not, a window of time is a range of ids, retention takes the keys of what it
removes, and the keys follow the entries by themselves."""

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.support.app import app_client
from tilewall.host.audit import AuditQuery, AuditRecord, Target
from tilewall.store import SqlStore, audit_keys, tables

T0 = 1_800_000_000_000


def record(n: int, at_ms: int | None = None) -> AuditRecord:
    """Entry ``n``: users a, b, c in turn, targets t0 to t3, operations x and y."""
    target = Target("display", f"t{n % 4}", f"Display {n % 4}")
    at = T0 + n * 1000 if at_ms is None else at_ms
    return AuditRecord(at, "abc"[n % 3], "10.0.0.1", "", "xy"[n % 2], target, "[]")


async def ids(store: SqlStore, **query: object) -> list[int]:
    entries, verified = await store.audit_page(AuditQuery(**query))  # type: ignore[arg-type]
    assert verified
    return [e.id for e in entries]


def expected(first: int, last: int, keep: object) -> list[int]:
    return [n for n in range(last, first - 1, -1) if keep(record(n))]  # type: ignore[operator]


async def keyed(store: SqlStore) -> list[tuple[int, str, int]]:
    keys = tables.audit_keys
    async with store.engine.connect() as conn:
        rows = await conn.execute(sa.select(keys).order_by(keys.c.id, keys.c.kind))
        return [tuple(row) for row in rows]


async def test_a_page_by_any_key_finds_entries_keyed_and_not_yet_keyed(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the keys written only when the test says: on a loaded machine the second the
    # store waits may pass between two of its steps
    monkeypatch.setattr(audit_keys, "DELAY_S", 3600)
    await store.append_audit([record(n) for n in range(1, 21)])
    assert await store.write_audit_keys() == 20
    await store.append_audit([record(n) for n in range(21, 31)])  # not keyed yet
    for query in (
        {"user": "a"},
        {"target": "t1"},
        {"operation": "x"},
        {"user": "b", "operation": "y"},
        {"target": "t2", "user": "c"},
    ):

        def keep(r: AuditRecord, q: dict[str, str] = query) -> bool:
            fields = {"user": r.user, "target": r.target and r.target.id, "operation": r.operation}
            return all(fields[k] == v for k, v in q.items())

        assert await ids(store, **query) == expected(1, 30, keep), query
        # pages of 3 across the entries keyed and those not: the same entries in turn
        paged: list[int] = []
        while True:
            page = await ids(store, limit=3, before=paged[-1] if paged else None, **query)
            if not page:
                break
            paged += page
        assert paged == expected(1, 30, keep), query
    assert await store.write_audit_keys() == 10
    assert await ids(store, user="a") == expected(1, 30, lambda r: r.user == "a")
    assert await store.write_audit_keys() == 0


async def test_a_window_of_time_is_a_range_of_ids(store: SqlStore) -> None:
    await store.append_audit([record(n) for n in range(1, 41)])
    await store.write_audit_keys()
    since, until = T0 + 10 * 1000, T0 + 20 * 1000
    assert await ids(store, since_ms=since, until_ms=until) == list(range(19, 9, -1))
    assert await ids(store, since_ms=since, until_ms=until, user="b") == [19, 16, 13, 10]
    assert await ids(store, since_ms=T0 + 40 * 1000 + 1) == []
    assert await ids(store, until_ms=T0 + 3 * 1000) == [2, 1]
    assert await ids(store, since_ms=T0, until_ms=T0 + 41_000, limit=2) == [40, 39]


async def test_an_entry_is_never_dated_before_the_one_it_follows(store: SqlStore) -> None:
    # a clock stepped back a minute between entries 2 and 3
    await store.append_audit([record(1), record(2)])
    await store.append_audit([record(3, at_ms=T0 - 60_000), record(4)])
    entries, _ = await store.audit_page(AuditQuery())
    assert [e.record.at_ms for e in reversed(entries)] == [
        T0 + 1000,
        T0 + 2000,
        T0 + 2000,
        T0 + 4000,
    ]
    assert await ids(store, since_ms=T0 + 2000, until_ms=T0 + 3000) == [3, 2]
    assert await store.verify_audit() is None


async def test_retention_takes_the_keys_of_the_entries_it_removes(store: SqlStore) -> None:
    await store.append_audit([record(n) for n in range(1, 31)])
    await store.write_audit_keys()
    removed = await store.prune_audit(T0 + 11 * 1000)
    assert removed == 10
    assert {key_id for _, _, key_id in await keyed(store)} == set(range(11, 31))
    assert await ids(store, user="a") == expected(11, 30, lambda r: r.user == "a")
    assert await store.verify_audit() is None


async def test_the_keys_follow_the_entries_by_themselves(store: SqlStore) -> None:
    await store.append_audit([record(n) for n in range(1, 6)])
    deadline = time.monotonic() + 10
    while len(await keyed(store)) < 15 and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    # each entry under its user, its target and its operation
    assert sorted(await keyed(store)) == sorted(
        (kind, key, n)
        for n in range(1, 6)
        for kind, key in ((1, "abc"[n % 3]), (2, f"t{n % 4}"), (3, "xy"[n % 2]))
    )


def test_a_stopped_hosts_last_entries_are_keyed_when_it_starts_again(data_dir: Path) -> None:
    def keyed_and_last() -> tuple[int, int]:
        with sqlite3.connect(data_dir / "tilewall.db") as db:
            (upto,) = db.execute("SELECT upto FROM audit_keyed").fetchone()
            (last,) = db.execute("SELECT max(id) FROM audit").fetchone()
        return upto, last

    with app_client(data_dir):  # its start and the login append entries
        pass
    # stopped within the second after: the keys of its last entries were not written
    upto, last = keyed_and_last()
    assert upto < last
    with app_client(data_dir, session=False):
        # the scheduler's first round on the host started again writes them
        deadline = time.monotonic() + 10
        while keyed_and_last()[0] < last and time.monotonic() < deadline:
            time.sleep(0.1)
    assert keyed_and_last()[0] >= last
