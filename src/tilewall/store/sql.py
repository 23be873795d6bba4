"""The store's ports over one SQLAlchemy Core async engine, for SQLite and PostgreSQL.

The statements are the same for both dialects; upserts are single ``INSERT ... ON
CONFLICT DO UPDATE`` statements, which both dialects speak (SQLAlchemy builds them with
the dialect's own ``insert``). Every write is one transaction, answered only once it has
committed; any failure of the database, its connection or the disk under it is raised
as :class:`~tilewall.host.errors.StoreFailed` with nothing of the transaction kept.
"""

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import sqlalchemy as sa

from tilewall.host.access.roles import Account
from tilewall.host.audit import AuditEntry, AuditQuery, AuditRecord, entry_hash, first_bad
from tilewall.host.errors import StoreFailed
from tilewall.host.ports import Change
from tilewall.store import audit as audit_sql
from tilewall.store import audit_keys, tables, user_rows
from tilewall.store.engine import AsyncConnection, AsyncEngine, Step
from tilewall.store.health import FAILURES, Health, describe
from tilewall.store.migrate import Schema

#: the kinds a write names users and sessions by, beside the host's document kinds
USER = "~user"
SESSION = "~session"


def _insert_of(dialect: str) -> Callable[[sa.Table], Any]:
    """The dialect's ``INSERT`` with ``ON CONFLICT`` (its module is imported when first
    needed: a host on SQLite never loads the PostgreSQL dialect)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert
    if dialect == "sqlite":
        from sqlalchemy.dialects import sqlite

        return sqlite.insert
    raise KeyError(dialect)


#: the lock of each SQLite database's writers in this process (see :func:`write_turn`)
_SQLITE_WRITERS: "weakref.WeakKeyDictionary[sa.Engine, asyncio.Lock]" = weakref.WeakKeyDictionary()


def write_turn(engine: AsyncEngine) -> contextlib.AbstractAsyncContextManager[Any]:
    """Held around each write transaction. SQLite has one writer at a time, and a writer
    that finds the database locked sleeps in steps of milliseconds before it tries
    again: the writers of one process (the host's batches of changes, the play log,
    sessions) take turns on an asyncio lock instead. PostgreSQL needs no turn."""
    if engine.dialect.name != "sqlite":
        return contextlib.nullcontext()
    lock = _SQLITE_WRITERS.get(engine.sync_engine)
    if lock is None:
        lock = _SQLITE_WRITERS[engine.sync_engine] = asyncio.Lock()
    return lock


def upsert(dialect: str, table: sa.Table, *update: str) -> sa.Insert:
    """``INSERT`` into ``table`` that updates the ``update`` columns of the row that has
    the same primary key, in one statement."""
    insert = _insert_of(dialect)(table)
    keys = [column.name for column in table.primary_key]
    statement: sa.Insert = insert.on_conflict_do_update(
        index_elements=keys, set_={name: insert.excluded[name] for name in update}
    )
    return statement


class Statements:
    """The store's statements for one dialect, built once."""

    def __init__(self, dialect: str) -> None:
        docs, users, sessions = tables.documents, tables.users, tables.sessions
        self.put_documents = upsert(dialect, docs, "body")
        self.delete_document = sa.delete(docs).where(
            docs.c.kind == sa.bindparam("b_kind"), docs.c.key == sa.bindparam("b_key")
        )
        self.documents = sa.select(docs.c.kind, docs.c.key, docs.c.body)
        # a changed user keeps its creation time
        self.put_user = upsert(dialect, users, *user_rows.UPDATED)
        self.users = user_rows.select()
        self.put_session = upsert(dialect, sessions, "user", "keep", "created_ms")
        self.sessions = sa.select(
            sessions.c.token_hash, sessions.c.user, sessions.c.keep, sessions.c.created_ms
        )


class SqlStore:
    """Documents of the host model, users and sessions in one SQL database.

    ``failures`` are the exceptions that mean the database cannot do what was asked
    (they become :class:`StoreFailed`); anything else is a bug and propagates as is.
    """

    failures: tuple[type[BaseException], ...] = FAILURES
    #: the migrations the database was at and is at, once opened
    schema: Schema | None = None

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._health = Health()
        self._sql = Statements(engine.dialect.name)
        self._audit = audit_sql.Appender(engine.dialect.name)
        self._audit_keys = audit_keys.Keeping(self.write_audit_keys)

    @property
    def engine(self) -> AsyncEngine:
        return self._engine

    @asynccontextmanager
    async def _write(self, changed: Sequence[tuple[str, str]]) -> AsyncIterator[AsyncConnection]:
        """One write transaction of the ``changed`` (kind, key) pairs, committed when the
        block exits; any failure of the database, its connection or the disk is raised
        as :class:`StoreFailed` (nothing of the transaction is kept)."""
        self._may_write()
        try:
            async with write_turn(self._engine), self._engine.begin() as conn:
                written = await self._open_write(conn, changed)
                yield conn
                await self._close_write(conn, written)
        except self.failures as error:
            self._audit.forget()
            raise self._health.failed(error) from error
        except BaseException:
            self._audit.forget()
            raise
        self._health.succeeded()
        self._committed(written)
        if self._audit.take_appended():
            self._audit_keys.appended()

    def _may_write(self) -> None:
        """Raise if this store must not write now (a standby of a group)."""

    async def _open_write(self, conn: AsyncConnection, changed: Sequence[tuple[str, str]]) -> Any:
        """Called first in each write transaction (a group's store fences it here)."""
        return None

    async def _close_write(self, conn: AsyncConnection, written: Any) -> None:
        """Called last in each write transaction, before it commits."""

    def _committed(self, written: Any) -> None:
        """Called once a write transaction has committed."""

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        try:
            async with self._engine.connect() as conn:
                yield conn
        except self.failures as error:
            raise StoreFailed(f"the host's store cannot be read: {describe(error)}") from error

    async def close(self) -> None:
        await self._audit_keys.close()
        await self._engine.dispose()

    # documents

    async def load_documents(self) -> dict[str, dict[str, bytes]]:
        out: dict[str, dict[str, bytes]] = {}
        async with self._read() as conn:
            for kind, key, body in await conn.execute(self._sql.documents):
                out.setdefault(kind, {})[key] = bytes(body)
        return out

    async def apply(self, changes: Iterable[Change], audit: Sequence[AuditRecord] = ()) -> None:
        """Write every change and the ``audit`` entries that record them in one
        transaction; it is committed when this returns.

        The last change to a document wins; writes are upserts, deletions delete.
        """
        latest: dict[tuple[str, str], bytes | None] = {}
        for change in changes:
            latest[(change.kind, change.key)] = change.body
        puts = [
            {"kind": k, "key": key, "body": b} for (k, key), b in latest.items() if b is not None
        ]
        gone = [{"b_kind": k, "b_key": key} for (k, key), b in latest.items() if b is None]
        if not puts and not gone and not audit:
            return
        writes = [Step(self._sql.delete_document, gone), Step(self._sql.put_documents, puts)]
        async with self._write(list(latest)) as conn:
            await self._audit.append(conn, audit, writes)

    # users

    async def users(self) -> dict[str, Account]:
        async with self._read() as conn:
            return user_rows.accounts_of(await conn.execute(self._sql.users))

    async def put_user(
        self, name: str, account: Account, audit: Sequence[AuditRecord] = ()
    ) -> None:
        async with self._write([(USER, name)]) as conn:
            await conn.execute(self._sql.put_user, user_rows.row_of(name, account))
            await self._audit.append(conn, audit)

    async def delete_user(self, name: str, audit: Sequence[AuditRecord] = ()) -> bool:
        users, sessions = tables.users, tables.sessions
        async with self._write([(USER, name)]) as conn:
            result = await conn.execute(sa.delete(users).where(users.c.name == name))
            await conn.execute(sa.delete(sessions).where(sessions.c.user == name))
            await self._audit.append(conn, audit)
        return bool(result.rowcount)

    # sessions

    async def sessions(self) -> list[tuple[str, str, bool, int]]:
        async with self._read() as conn:
            rows = await conn.execute(self._sql.sessions)
            return [(t, u, bool(k), int(c)) for t, u, k, c in rows]

    async def put_session(
        self,
        token_hash: str,
        user: str,
        keep: bool,
        now_ms: int,
        audit: Sequence[AuditRecord] = (),
    ) -> None:
        async with self._write([(SESSION, token_hash)]) as conn:
            await conn.execute(
                self._sql.put_session,
                {"token_hash": token_hash, "user": user, "keep": keep, "created_ms": now_ms},
            )
            await self._audit.append(conn, audit)

    async def delete_sessions(
        self, token_hashes: Iterable[str], audit: Sequence[AuditRecord] = ()
    ) -> None:
        hashes = list(token_hashes)
        if not hashes and not audit:
            return
        sessions = tables.sessions
        async with self._write([(SESSION, h) for h in hashes]) as conn:
            if hashes:
                await conn.execute(sa.delete(sessions).where(sessions.c.token_hash.in_(hashes)))
            await self._audit.append(conn, audit)

    # the audit trail

    async def append_audit(self, records: Sequence[AuditRecord]) -> None:
        """Write entries that record no change of the store's own (a failed login)."""
        if records:
            async with self._write([]) as conn:
                await self._audit.append(conn, records)

    async def audit_page(self, query: AuditQuery) -> tuple[list[AuditEntry], bool]:
        """The entries ``query`` asks for, newest first, and whether each holds its
        content and follows the entry before it (or, the first kept, what it follows)."""
        async with self._read() as conn:
            page = await audit_sql.page(conn, query)
            base = None
            if any(before is None for _, before in page):  # the first kept one, or a gap
                base, _ = await audit_sql.head(conn)
        verified = all(_holds(entry, before, base) for entry, before in page)
        return [entry for entry, _ in page], verified

    async def prune_audit(
        self, before_ms: int, noted: Callable[[int, int], AuditRecord] | None = None
    ) -> int:
        """Remove the oldest entries, those before the first at or after ``before_ms``,
        with the entry ``noted`` makes of the ids removed (first, last); how many went."""
        async with self._write([]) as conn:
            removed = await audit_sql.prune(conn, before_ms, noted)
        self._audit.forget()  # its entry moved the head
        return removed

    async def write_audit_keys(self) -> int:
        """Write the lookup keys of the entries not keyed yet, in transactions of a few
        thousand (:mod:`tilewall.store.audit_keys`); how many entries."""
        written = 0
        while True:
            async with self._write([]) as conn:
                keyed = await audit_keys.write_keys(conn)
            written += keyed
            if keyed < audit_keys.BATCH:
                return written

    async def verify_audit(self) -> int | None:
        """The id of the first entry that breaks the whole chain; None when it holds."""
        async with self._read() as conn:
            base, last = await audit_sql.head(conn)
            async for chunk in audit_sql.chunks(conn):
                bad = first_bad(chunk, base, None)
                if bad is not None:
                    return bad
                base = (chunk[-1].id, chunk[-1].hash)
        return first_bad([], base, last)


def _holds(entry: AuditEntry, before: str | None, base: tuple[int, str] | None) -> bool:
    """Whether ``entry`` holds its content and follows the entry before it (``before``:
    that entry's hash; None: it is not kept, so ``entry`` must follow ``base``, what the
    first kept entry follows)."""
    if before is None and base is not None and entry.id - 1 == base[0]:
        before = base[1]
    return before == entry.prev and entry_hash(entry.id, entry.record, entry.prev) == entry.hash
