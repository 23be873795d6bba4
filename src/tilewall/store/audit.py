"""The audit trail's statements (:mod:`tilewall.host.audit`), run on a connection of the
store: entries are appended in the transaction of what they record."""

from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import sqlalchemy as sa

from tilewall.host.audit import AuditEntry, AuditQuery, AuditRecord, Target, chain
from tilewall.store.engine import AsyncConnection
from tilewall.store.tables import audit, audit_head

_HEAD = sa.select(
    audit_head.c.last_id, audit_head.c.last_hash, audit_head.c.base_id, audit_head.c.base_hash
).where(audit_head.c.id == 1)
_COLUMNS = [
    audit.c.id,
    audit.c.at_ms,
    audit.c.user,
    audit.c.address,
    audit.c.session,
    audit.c.operation,
    audit.c.target_kind,
    audit.c.target_id,
    audit.c.target_name,
    audit.c.changes,
    audit.c.outcome,
    audit.c.prev,
    audit.c.hash,
]
#: a write that changes nothing (SQLite: it takes the database's write lock)
_TOUCH = sa.update(audit_head).where(audit_head.c.id == 1).values(last_id=audit_head.c.last_id)
#: the entry that says which entries (first id, last id) retention removed
Noting = Callable[[int, int], AuditRecord]
#: entries read at a time while a whole chain is checked
CHUNK = 5000


def _row(entry: AuditEntry) -> dict[str, Any]:
    record = entry.record
    target = record.target or Target("", "", "")
    return {
        "id": entry.id,
        "at_ms": record.at_ms,
        "user": record.user,
        "address": record.address,
        "session": record.session,
        "operation": record.operation,
        "target_kind": target.kind,
        "target_id": target.id,
        "target_name": target.name,
        "changes": record.changes,
        "outcome": record.outcome,
        "prev": entry.prev,
        "hash": entry.hash,
    }


def entry_of(row: Sequence[Any]) -> AuditEntry:
    (id_, at_ms, user, address, session, operation, kind, target_id, name) = row[:9]
    changes, outcome, prev, digest = row[9:]
    target = Target(kind, target_id, name) if kind or target_id else None
    record = AuditRecord(int(at_ms), user, address, session, operation, target, changes, outcome)
    return AuditEntry(int(id_), record, prev, digest)


class Appender:
    """Appends entries in the transaction of what they record, chained after the last
    entry written, which it keeps in memory so that a write usually costs no read.

    On SQLite one statement: the entries are inserted and a trigger (migration 0006)
    checks that each follows the head row and moves the head on; SQLite has one writer at
    a time. On PostgreSQL two: the head row is moved on from the entry expected first
    (which locks it: a second writer waits for the first to commit), then the entries
    are inserted. When the head is not where it was expected (another process wrote,
    retention moved it), the head is read under lock and the entries chained from there.
    Ids are the primary key besides: two writes can never chain off the same entry."""

    def __init__(self, dialect: str) -> None:
        self._triggered = dialect == "sqlite"
        #: (id, hash) of the last entry written, as this store last saw it
        self._last: tuple[int, str] | None = None

    async def append(
        self, conn: AsyncConnection, records: Sequence[AuditRecord]
    ) -> list[AuditEntry]:
        if not records:
            return []
        entries = await self._expected(conn, records)
        if entries is None:
            if self._triggered:
                # SQLite locks the database for writing at its first write: take the
                # lock before reading the head, so that no other writer moves it on
                # between the read and the insert
                await conn.execute(_TOUCH)
            row = (await conn.execute(_HEAD.with_for_update())).one()
            entries = chain(records, int(row.last_id), str(row.last_hash))
            await self._insert(conn, entries, int(row.last_id), str(row.last_hash))
        # expected from now on; if the transaction fails the store forgets it, and if it
        # is wrong all the same, the next write finds the head elsewhere and reads it
        self._last = (entries[-1].id, entries[-1].hash)
        return entries

    async def _expected(
        self, conn: AsyncConnection, records: Sequence[AuditRecord]
    ) -> list[AuditEntry] | None:
        """The entries written after the last one this store knows of; None (nothing
        written) when the head is elsewhere."""
        if self._last is None:
            return None
        entries = chain(records, *self._last)
        if self._triggered:
            try:
                # the trigger refuses the first entry, and so the statement, if the
                # head is elsewhere; the transaction goes on
                await conn.execute(sa.insert(audit), [_row(entry) for entry in entries])
            except sa.exc.IntegrityError:
                return None
            return entries
        moved = await conn.execute(_move(self._last, entries[-1]))
        if moved.rowcount != 1:
            return None
        await conn.execute(sa.insert(audit), [_row(entry) for entry in entries])
        return entries

    async def _insert(
        self, conn: AsyncConnection, entries: list[AuditEntry], last_id: int, last_hash: str
    ) -> None:
        if not self._triggered:
            await conn.execute(_move((last_id, last_hash), entries[-1]))
        await conn.execute(sa.insert(audit), [_row(entry) for entry in entries])

    def forget(self) -> None:
        """A transaction failed, or the head moved elsewhere: read it next time."""
        self._last = None


def _move(expected: tuple[int, str], last: AuditEntry) -> sa.Update:
    return (
        sa.update(audit_head)
        .where(
            audit_head.c.id == 1,
            audit_head.c.last_id == expected[0],
            audit_head.c.last_hash == expected[1],
        )
        .values(last_id=last.id, last_hash=last.hash)
    )


async def head(conn: AsyncConnection) -> tuple[tuple[int, str], tuple[int, str]]:
    """((base id, base hash), (last id, last hash))."""
    row = (await conn.execute(_HEAD)).one()
    return (int(row.base_id), row.base_hash), (int(row.last_id), row.last_hash)


def _filtered(statement: sa.Select[Any], query: AuditQuery) -> sa.Select[Any]:
    if query.since_ms is not None:
        statement = statement.where(audit.c.at_ms >= query.since_ms)
    if query.until_ms is not None:
        statement = statement.where(audit.c.at_ms < query.until_ms)
    if query.user is not None:
        statement = statement.where(audit.c.user == query.user)
    if query.target is not None:
        statement = statement.where(audit.c.target_id == query.target)
    if query.operation is not None:
        statement = statement.where(audit.c.operation == query.operation)
    if query.before is not None:
        statement = statement.where(audit.c.id < query.before)
    return statement


#: the entry before each entry of a page (its hash is what the entry's ``prev`` must be)
_BEFORE = audit.alias("before")


async def page(conn: AsyncConnection, query: AuditQuery) -> list[tuple[AuditEntry, str | None]]:
    """The newest ``query.limit`` entries that match, newest first (keyset paging on the
    id: a page goes on from the id before which the last one stopped), each with the
    hash of the entry before it (None: there is none).

    The page's ids are chosen first, from an index that holds them (a filter's, or a
    window's: every id in the window is read from the index and sorted, not every
    entry); then the page's entries and those before them are read, in one statement."""
    newest = audit.c.id.desc()
    chosen = _filtered(sa.select(audit.c.id), query).order_by(newest).limit(query.limit)
    statement = (
        sa.select(*_COLUMNS, _BEFORE.c.hash)
        .select_from(audit.outerjoin(_BEFORE, _BEFORE.c.id == audit.c.id - 1))
        .where(audit.c.id.in_(chosen.correlate(None)))
        .order_by(newest)
    )
    rows = await conn.execute(statement)
    return [(entry_of(row[:-1]), row[-1]) for row in rows]


async def chunks(conn: AsyncConnection) -> AsyncIterator[list[AuditEntry]]:
    """Every kept entry, oldest first, a chunk at a time."""
    after = -1
    while True:
        statement = sa.select(*_COLUMNS).where(audit.c.id > after).order_by(audit.c.id).limit(CHUNK)
        rows = (await conn.execute(statement)).all()
        if rows:
            yield [entry_of(row) for row in rows]
        if len(rows) < CHUNK:
            return
        after = int(rows[-1][0])


async def prune(conn: AsyncConnection, before_ms: int, noted: Noting | None) -> int:
    """Remove the entries before the first one at or after ``before_ms`` (a whole prefix:
    the chain of what is kept holds from its first entry), and note the last one removed
    as what the first kept one follows; the entry ``noted`` makes of the ids removed
    (first, last) is appended after. How many went."""
    row = (await conn.execute(_HEAD.with_for_update())).one()
    base_id, last_id = int(row.base_id), int(row.last_id)
    first_kept = (
        await conn.execute(sa.select(sa.func.min(audit.c.id)).where(audit.c.at_ms >= before_ms))
    ).scalar()
    cut = last_id if first_kept is None else int(first_kept) - 1
    if cut <= base_id:
        return 0
    cut_hash = (await conn.execute(sa.select(audit.c.hash).where(audit.c.id == cut))).scalar()
    if cut_hash is None:  # the chain is broken there already: leave it to be found
        return 0
    await conn.execute(sa.delete(audit).where(audit.c.id <= cut))
    await conn.execute(
        sa.update(audit_head).where(audit_head.c.id == 1).values(base_id=cut, base_hash=cut_hash)
    )
    if noted is not None:
        await Appender(conn.dialect.name).append(conn, [noted(base_id + 1, cut)])
    return cut - base_id
