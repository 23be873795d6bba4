"""The audit trail in the store, on SQLite and PostgreSQL: two stores on one database
(two processes, or a host and the command line) writing in turn and at once chain every
entry after the one before, never two off the same one, and the chain verifies."""

import asyncio
import itertools
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa

from tilewall.host.audit import GENESIS, AuditQuery, AuditRecord
from tilewall.store import SqlStore, open_store, tables
from tilewall.store.audit import Appender
from tilewall.store.engine import Step


def record(n: int, user: str = "admin") -> AuditRecord:
    return AuditRecord(1_800_000_000_000 + n, user, "10.0.0.1", "", f"op {n}", None, "[]")


async def chain_of(store: SqlStore) -> list[tuple[int, str, str]]:
    entries, verified = await store.audit_page(AuditQuery(limit=1000))
    assert verified
    return [(e.id, e.prev, e.hash) for e in reversed(entries)]


async def test_two_stores_writing_in_turn_chain_each_entry_after_the_last(
    store: SqlStore, database: str | None, tmp_path: Path
) -> None:
    other = await open_store(tmp_path / "store", database)
    try:
        await store.append_audit([record(1)])
        await other.append_audit([record(2)])  # it reads where the head is
        await store.append_audit([record(3), record(4)])  # it expected entry 1 last
        await other.append_audit([record(5)])
        entries = await chain_of(store)
        assert [e[0] for e in entries] == [1, 2, 3, 4, 5]
        assert entries[0][1] == GENESIS
        assert all(b[1] == a[2] for a, b in itertools.pairwise(entries))
        assert await store.verify_audit() is None
    finally:
        await other.close()


async def test_two_stores_writing_at_once_never_fork_the_chain(
    store: SqlStore, database: str | None, tmp_path: Path
) -> None:
    other = await open_store(tmp_path / "store", database)
    try:

        async def write(writer: SqlStore, user: str) -> None:
            for n in range(20):
                await writer.append_audit([record(n, user)])

        await asyncio.gather(write(store, "a"), write(other, "b"), write(store, "c"))
        entries = await chain_of(store)
        assert [e[0] for e in entries] == list(range(1, 61))
        assert len({e[1] for e in entries}) == 60  # no two chained off the same entry
        assert await other.verify_audit() is None
    finally:
        await other.close()


async def test_a_page_verifies_while_its_entries_hold_and_follow_those_before_them(
    store: SqlStore,
) -> None:
    await store.append_audit([record(n, "ab"[n % 2]) for n in range(1, 7)])

    async def page(user: str) -> tuple[list[int], bool]:
        entries, verified = await store.audit_page(AuditQuery(user=user))
        return [e.id for e in entries], verified

    # a filtered page: each entry against the one before it, which is not in the page
    assert await page("b") == ([5, 3, 1], True)
    assert await page("a") == ([6, 4, 2], True)
    audit = tables.audit
    async with store.engine.begin() as conn:  # an entry edited in the database
        await conn.execute(sa.update(audit).where(audit.c.id == 3).values(outcome="edited"))
    assert await page("b") == ([5, 3, 1], False)
    assert await page("a") == ([6, 4, 2], True)  # 4 still follows what 3 was
    async with store.engine.begin() as conn:  # an entry removed: 2 follows nothing now
        await conn.execute(sa.delete(audit).where(audit.c.id == 1))
    assert await page("a") == ([6, 4, 2], False)


async def test_entries_are_written_when_the_head_is_forgotten_during_the_writes() -> None:
    """Retention ends its transaction, and the store forgets the head, while a batch's
    documents are written (PostgreSQL awaits each statement): the batch's entries are
    written all the same, chained after the head the batch expected."""
    appender = Appender("postgresql")
    documents = sa.insert(tables.documents)
    executed: list[object] = []

    class Result:
        rowcount = 1

        def one(self) -> SimpleNamespace:  # the head row, when it is read
            return SimpleNamespace(last_id=0, last_hash=GENESIS)

        def scalar(self) -> None:
            return None

    class Connection:
        async def execute(self, statement: object, rows: object = None) -> Result:
            executed.append(statement)
            if statement is documents:
                appender.forget()  # as prune_audit does once its transaction has ended
            return Result()

    conn: Any = Connection()
    await appender.append(conn, [record(1)])
    executed.clear()
    [entry] = await appender.append(conn, [record(2)], [Step(documents, [{"kind": "k"}])])
    inserted = [s for s in executed if isinstance(s, sa.Insert) and s.table is tables.audit]
    assert (entry.id, len(inserted)) == (2, 1)
