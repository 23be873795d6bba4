"""The audit trail's lookup keys: each entry's id under its user, its target's id and its
operation, in ``audit_keys``, so that a page by any of them reads only its own entries.

The entries' table has no index: each would cost every commit of changes a page written
and synced. The keys are written instead a second's entries at a time, in a transaction
of their own, where they cost a few pages for thousands of entries (:class:`Keeping`).
Until then an entry is found in the tail after the last one keyed (``audit_keyed``),
which a page reads by id: a second or two of entries.

A window of time is a range of ids (entries' times rise with their ids,
:func:`tilewall.host.audit.chain`), found by bisecting the ids (:func:`first_at`).
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import sqlalchemy as sa

from tilewall.host.audit import AuditQuery
from tilewall.host.errors import StoreFailed
from tilewall.store.engine import AsyncConnection
from tilewall.store.tables import audit, audit_head, audit_keyed, audit_keys

log = logging.getLogger(__name__)

#: the kinds of key, numbered as stored, with the entry's column each is taken from
USER, TARGET, OPERATION = 1, 2, 3
COLUMNS: dict[int, sa.Column[Any]] = {
    USER: audit.c.user,
    TARGET: audit.c.target_id,
    OPERATION: audit.c.operation,
}
#: entries keyed in one transaction, at most
BATCH = 20_000
#: how long after entries were appended their keys are written
DELAY_S = 1.0

_UPTO = sa.select(audit_keyed.c.upto).where(audit_keyed.c.id == 1)
#: (base id, last id, keyed up to): the ids a page is chosen among, and how it is read
_BOUNDS = sa.select(audit_head.c.base_id, audit_head.c.last_id, _UPTO.scalar_subquery()).where(
    audit_head.c.id == 1
)


async def bounds(conn: AsyncConnection) -> tuple[int, int, int]:
    """The first kept id less one, the last id, and the id up to which every entry's
    keys are written, in one read."""
    base_id, last_id, upto = (await conn.execute(_BOUNDS)).one()
    return int(base_id), int(last_id), int(upto)


async def write_keys(conn: AsyncConnection, limit: int = BATCH) -> int:
    """Write the keys of up to ``limit`` entries after the last one keyed; how many
    (the database copies them: no entry goes through Python)."""
    upto = int((await conn.execute(_UPTO.with_for_update())).scalar_one())
    newest = (await conn.execute(sa.select(sa.func.max(audit.c.id)))).scalar()
    last = min(int(newest or 0), upto + limit)
    if last <= upto:
        return 0
    for kind, column in COLUMNS.items():
        keys = sa.select(sa.literal(kind, sa.SmallInteger), column, audit.c.id).where(
            audit.c.id > upto, audit.c.id <= last, column != ""
        )
        await conn.execute(sa.insert(audit_keys).from_select(["kind", "key", "id"], keys))
    await conn.execute(sa.update(audit_keyed).where(audit_keyed.c.id == 1).values(upto=last))
    return last - upto


async def forget_keys(conn: AsyncConnection, first: int, last: int) -> None:
    """Remove the keys of the entries ``first`` to ``last`` (before they are removed)."""
    for kind, column in COLUMNS.items():
        removed = sa.select(column).where(audit.c.id.between(first, last)).distinct()
        await conn.execute(
            sa.delete(audit_keys).where(
                audit_keys.c.kind == kind,
                audit_keys.c.key.in_(removed.scalar_subquery()),
                audit_keys.c.id <= last,
            )
        )


async def first_at(conn: AsyncConnection, at_ms: int, low: int, high: int) -> int:
    """The first id from ``low`` whose entry is at or after ``at_ms`` (``high + 1``: none
    up to ``high``), by bisection: ids of entries whose times rise with them."""
    while low <= high:
        middle = (low + high) // 2
        # the first kept entry from ``middle`` on (an entry removed leaves a gap)
        row = (
            await conn.execute(
                sa.select(audit.c.id, audit.c.at_ms)
                .where(audit.c.id >= middle, audit.c.id <= high)
                .order_by(audit.c.id)
                .limit(1)
            )
        ).first()
        if row is None or int(row.at_ms) >= at_ms:
            high = middle - 1
        else:
            low = int(row.id) + 1
    return low


def chosen(query: AuditQuery, first: int, last: int, upto: int) -> sa.Select[Any]:
    """The ids of the page ``query`` asks for among the ids ``first`` to ``last``,
    newest first: by the rarest key it names (a target, a user, an operation) from the
    keys written up to ``upto`` and from the entries after it, else by id."""
    matches = _matches(query)
    newest = audit.c.id.desc()
    keyed = _keys_named(query)
    if not keyed:
        return (
            sa.select(audit.c.id)
            .where(audit.c.id.between(first, last), *matches)
            .order_by(newest)
            .limit(query.limit)
        )
    kind, value = keyed[0]
    indexed = (
        sa.select(audit_keys.c.id)
        .join(audit, audit.c.id == audit_keys.c.id)
        .where(
            audit_keys.c.kind == kind,
            audit_keys.c.key == value,
            audit_keys.c.id.between(first, min(last, upto)),
            *matches,
        )
        .order_by(audit_keys.c.id.desc())
        .limit(query.limit)
    )
    tail = (
        sa.select(audit.c.id)
        .where(audit.c.id.between(max(first, upto + 1), last), *matches)
        .order_by(newest)
        .limit(query.limit)
    )
    both = sa.union_all(indexed.subquery().select(), tail.subquery().select()).subquery()
    return sa.select(both.c.id).order_by(both.c.id.desc()).limit(query.limit)


def _keys_named(query: AuditQuery) -> list[tuple[int, str]]:
    """The keys ``query`` filters by, (kind, value), the rarest kind first: a target's
    entries are fewer than a user's, a user's than an operation's."""
    named = ((TARGET, query.target), (USER, query.user), (OPERATION, query.operation))
    return [(kind, value) for kind, value in named if value is not None]


def _matches(query: AuditQuery) -> list[sa.ColumnElement[bool]]:
    """What an entry of the page must hold (its time: entries written before times rose
    with ids may lie outside the range of ids found for the window)."""
    out = [COLUMNS[kind] == value for kind, value in _keys_named(query)]
    if query.since_ms is not None:
        out.append(audit.c.at_ms >= query.since_ms)
    if query.until_ms is not None:
        out.append(audit.c.at_ms < query.until_ms)
    return out


class Keeping:
    """Writes the keys :data:`DELAY_S` after entries were appended, again while more
    come; a failed pass is left to the next (the entries are still found, in the tail)."""

    def __init__(self, write: Callable[[], Awaitable[int]]) -> None:
        self._write = write
        self._task: asyncio.Task[None] | None = None
        self._more = False

    def appended(self) -> None:
        self._more = True
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="audit-keys")

    async def _run(self) -> None:
        try:
            while self._more:
                await asyncio.sleep(DELAY_S)
                self._more = False
                await self._write()
        except StoreFailed as error:
            log.warning("the audit trail's keys are not written for now: %s", error)
        except Exception:
            log.exception("the audit trail's keys are not written for now")
        finally:
            self._task = None

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
