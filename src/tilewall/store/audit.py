"""The audit trail's statements (:mod:`tilewall.host.audit`), run on a connection of the
store: entries are appended in the transaction of what they record."""

from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import sqlalchemy as sa

from tilewall.host.audit import AuditEntry, AuditQuery, AuditRecord, Target, chain
from tilewall.store.audit_keys import bounds, chosen, first_at, forget_keys
from tilewall.store.engine import AsyncConnection, Step, executemany_in_one_trip
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
_INSERT = sa.insert(audit)
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

    On SQLite one statement, run with the writes it records in one trip to SQLite's
    thread: the entries are inserted and a trigger (migration 0006) checks that each
    follows the head row and moves the head on; SQLite has one writer at a time. On
    PostgreSQL two: the head row is moved on from the entry expected first
    (which locks it: a second writer waits for the first to commit), then the entries
    are inserted. When the head is not where it was expected (another process wrote,
    retention moved it), the head is read under lock and the entries chained from there.
    Ids are the primary key besides: two writes can never chain off the same entry."""

    def __init__(self, dialect: str) -> None:
        self._triggered = dialect == "sqlite"
        #: (id, hash, time) of the last entry written, as this store last saw it
        self._last: tuple[int, str, int] | None = None
        #: whether entries were appended since :meth:`take_appended` last asked
        self._appended = False

    async def append(
        self, conn: AsyncConnection, records: Sequence[AuditRecord], writes: Sequence[Step] = ()
    ) -> list[AuditEntry]:
        """Run ``writes`` (what ``records`` record), then append the entries of
        ``records``: on SQLite in one trip to its thread when the head is where this
        store expects it (a commit of changes waits for each trip on a busy loop)."""
        # what this store expects now: ``forget`` may be called while the writes below
        # are awaited (retention moved the head), and the entries must still be written
        last = self._last
        entries = self._expected(records, last)
        if self._triggered:
            # the trigger refuses the first entry, and so the statement, if the head is
            # elsewhere; the transaction goes on
            appending = [Step(_INSERT, [_row(entry) for entry in entries or ()], True)]
            refused = await executemany_in_one_trip(conn, [*writes, *appending])
            if refused[-1]:
                entries = None
        else:
            for step in writes:
                if step.rows:
                    await conn.execute(step.statement, step.rows)
            if entries and last is not None:  # entries are only expected after a last one
                moved = await conn.execute(_move(last[:2], entries[-1]))
                if moved.rowcount == 1:
                    await conn.execute(_INSERT, [_row(entry) for entry in entries])
                else:
                    entries = None
        if entries is None:
            entries = await self._append_at_head(conn, records)
        if entries:
            # expected from now on; if the transaction fails the store forgets it, and if
            # it is wrong all the same, the next write finds the head elsewhere
            newest = entries[-1]
            self._last = (newest.id, newest.hash, newest.record.at_ms)
            self._appended = True
        return entries

    def take_appended(self) -> bool:
        """Whether entries were appended since this was last asked."""
        appended, self._appended = self._appended, False
        return appended

    @staticmethod
    def _expected(
        records: Sequence[AuditRecord], last: tuple[int, str, int] | None
    ) -> list[AuditEntry] | None:
        """The entries of ``records`` after ``last``, the last one this store knows of
        (None: it knows of none)."""
        if not records:
            return []
        return None if last is None else chain(records, *last)

    async def _append_at_head(
        self, conn: AsyncConnection, records: Sequence[AuditRecord]
    ) -> list[AuditEntry]:
        """The entries of ``records`` after the head, read under lock, written."""
        if self._triggered:
            # SQLite locks the database for writing at its first write: take the lock
            # before reading the head, so that no other writer moves it on between the
            # read and the insert
            await conn.execute(_TOUCH)
        row = (await conn.execute(_HEAD.with_for_update())).one()
        last_id, last_hash = int(row.last_id), str(row.last_hash)
        last_at = (
            await conn.execute(sa.select(audit.c.at_ms).where(audit.c.id == last_id))
        ).scalar()
        entries = chain(records, last_id, last_hash, int(last_at or 0))
        if not self._triggered:
            await conn.execute(_move((last_id, last_hash), entries[-1]))
        await conn.execute(_INSERT, [_row(entry) for entry in entries])
        return entries

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


#: the entry before each entry of a page (its hash is what the entry's ``prev`` must be)
_BEFORE = audit.alias("before")


async def page(conn: AsyncConnection, query: AuditQuery) -> list[tuple[AuditEntry, str | None]]:
    """The newest ``query.limit`` entries that match, newest first (keyset paging on the
    id: a page goes on from the id before which the last one stopped), each with the
    hash of the entry before it (None: there is none).

    The window of time is found as a range of ids, the page's ids are chosen in it by
    the keys it names (:func:`tilewall.store.audit_keys.chosen`), then the page's
    entries and those before them are read, in one statement."""
    base_id, last_id, upto = await bounds(conn)
    first, last = base_id + 1, last_id
    if query.before is not None:
        last = min(last, query.before - 1)
    if query.until_ms is not None:
        last = min(last, await first_at(conn, query.until_ms, first, last) - 1)
    if query.since_ms is not None:
        first = await first_at(conn, query.since_ms, first, last)
    if first > last:
        return []
    ids = chosen(query, first, last, upto)
    newest = audit.c.id.desc()
    statement = (
        sa.select(*_COLUMNS, _BEFORE.c.hash)
        .select_from(audit.outerjoin(_BEFORE, _BEFORE.c.id == audit.c.id - 1))
        .where(audit.c.id.in_(ids.correlate(None)))
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
    cut = await first_at(conn, before_ms, base_id + 1, last_id) - 1
    if cut <= base_id:
        return 0
    cut_hash = (await conn.execute(sa.select(audit.c.hash).where(audit.c.id == cut))).scalar()
    if cut_hash is None:  # the chain is broken there already: leave it to be found
        return 0
    await forget_keys(conn, base_id + 1, cut)
    await conn.execute(sa.delete(audit).where(audit.c.id <= cut))
    await conn.execute(
        sa.update(audit_head).where(audit_head.c.id == 1).values(base_id=cut, base_hash=cut_hash)
    )
    if noted is not None:
        await Appender(conn.dialect.name).append(conn, [noted(base_id + 1, cut)])
    return cut - base_id
