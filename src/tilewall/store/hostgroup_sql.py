"""The SQL of a group of hosts on one PostgreSQL database: fencing each write, the log of
writes, and what a standby reads to follow them.

Every write transaction of a store on PostgreSQL starts with one statement that bumps
``group_state.revision`` and logs the write in ``group_log`` with the (kind, key) pairs
it changes, and ends with a ``NOTIFY`` (delivered only if it commits). A member of a
group bumps the revision only *where the generation is still its own*: the member that
takes over bumps the generation first, on the same row, so from then on a write of the
member it replaced matches no row and is refused inside its own transaction. Updates of
one row are serialised by the row's lock, so every write is either before the takeover
(and in the state the new active member loads) or refused.
"""

import json
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa

from tilewall.host.hostgroup.members import ChangeBatch, SessionRow, Snapshot
from tilewall.store import tables, user_rows
from tilewall.store.engine import AsyncConnection, AsyncEngine
from tilewall.store.sql import SESSION, USER

#: the channel every committed write is announced on (payload: revision, generation,
#: member); followers read what changed from ``group_log``
CHANGES = "tilewall_changes"
#: the channel of the group's own events (a member joined, a takeover, a handover asked)
EVENTS = "tilewall_group"
#: who writes when the store is used outside a group (``tilewall user add``, tests)
OUTSIDE = "outside"

NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint"

_LOG = f"""
INSERT INTO group_log (revision, generation, member_id, at_ms, changed)
SELECT revision, generation, :member, {NOW_MS}, :changed FROM bump
RETURNING revision, generation
"""

#: a member's write: only while the generation is its own
FENCED_WRITE = sa.text(
    """
WITH bump AS (
    UPDATE group_state SET revision = revision + 1
    WHERE id = 1 AND generation = :generation
    RETURNING revision, generation)
"""
    + _LOG
)

#: a write from outside any group (an operator's tool)
UNFENCED_WRITE = sa.text(
    """
WITH bump AS (
    UPDATE group_state SET revision = revision + 1 WHERE id = 1
    RETURNING revision, generation)
"""
    + _LOG
)

ANNOUNCE = sa.text("SELECT pg_notify(:channel, :payload)")

#: how many revisions of the log are kept; a standby further behind reloads everything
KEEP_LOG = 20_000


def encode_changed(changed: Sequence[tuple[str, str]]) -> str:
    return json.dumps([list(pair) for pair in changed], separators=(",", ":"))


def announcement(revision: int, generation: int, member: str) -> str:
    return json.dumps({"r": revision, "g": generation, "m": member}, separators=(",", ":"))


async def revision_of(conn: AsyncConnection) -> int:
    state = tables.group_state
    value = (await conn.execute(sa.select(state.c.revision).where(state.c.id == 1))).scalar()
    return int(value or 0)


async def member_key(engine: AsyncEngine) -> bytes:
    """The members' secret (``group_state.member_key``; b"" where none was made)."""
    state = tables.group_state
    async with engine.connect() as conn:
        found = await conn.execute(sa.select(state.c.member_key).where(state.c.id == 1))
        key = found.scalar()
    return bytes.fromhex(key) if key else b""


async def snapshot(engine: AsyncEngine) -> Snapshot:
    """Everything, as of one instant (one REPEATABLE READ transaction)."""
    async with engine.connect() as conn:
        conn = await conn.execution_options(isolation_level="REPEATABLE READ")
        async with conn.begin():
            revision = await revision_of(conn)
            documents: dict[str, dict[str, bytes]] = {}
            docs = tables.documents
            for kind, key, body in await conn.execute(
                sa.select(docs.c.kind, docs.c.key, docs.c.body)
            ):
                documents.setdefault(kind, {})[key] = bytes(body)
            found = await conn.execute(user_rows.select())
            sessions = tables.sessions
            rows = await conn.execute(
                sa.select(
                    sessions.c.token_hash, sessions.c.user, sessions.c.keep, sessions.c.created_ms
                )
            )
            return Snapshot(
                revision,
                documents,
                user_rows.accounts_of(found),
                [(t, u, bool(k), int(c)) for t, u, k, c in rows],
            )


async def log_since(engine: AsyncEngine, revision: int) -> list[tuple[int, list[list[str]]]]:
    """The log's entries after ``revision``, oldest first: (revision, changed pairs)."""
    log = tables.group_log
    async with engine.connect() as conn:
        rows = await conn.execute(
            sa.select(log.c.revision, log.c.changed)
            .where(log.c.revision > revision)
            .order_by(log.c.revision)
        )
        return [(int(r), json.loads(changed)) for r, changed in rows]


def _chunks(items: Sequence[Any], size: int = 500) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


async def changed(engine: AsyncEngine, revision: int, pairs: set[tuple[str, str]]) -> ChangeBatch:
    """The current value of each of ``pairs`` (documents, users, sessions): what the
    writes up to ``revision`` changed, as it is now."""
    users = sorted(key for kind, key in pairs if kind == USER)
    sessions = sorted(key for kind, key in pairs if kind == SESSION)
    documents = sorted(pair for pair in pairs if pair[0] not in (USER, SESSION))
    batch = ChangeBatch(
        revision,
        {pair: None for pair in documents},
        {name: None for name in users},
        {token: None for token in sessions},
    )
    docs, user_t, session_t = tables.documents, tables.users, tables.sessions
    async with engine.connect() as conn:
        for chunk in _chunks(documents):
            rows = await conn.execute(
                sa.select(docs.c.kind, docs.c.key, docs.c.body).where(
                    sa.tuple_(docs.c.kind, docs.c.key).in_(list(chunk))
                )
            )
            for kind, key, body in rows:
                batch.documents[(kind, key)] = bytes(body)
        for chunk in _chunks(users):
            found = await conn.execute(user_rows.select().where(user_t.c.name.in_(chunk)))
            batch.users.update(user_rows.accounts_of(found))
        for chunk in _chunks(sessions):
            live = await conn.execute(
                sa.select(
                    session_t.c.token_hash,
                    session_t.c.user,
                    session_t.c.keep,
                    session_t.c.created_ms,
                ).where(session_t.c.token_hash.in_(chunk))
            )
            for token, user, keep, created in live:
                row: SessionRow = (user, bool(keep), int(created))
                batch.sessions[token] = row
    return batch


async def prune_log(engine: AsyncEngine) -> None:
    """Forget log entries older than the last :data:`KEEP_LOG` revisions."""
    log = tables.group_log
    async with engine.begin() as conn:
        newest = await revision_of(conn)
        await conn.execute(sa.delete(log).where(log.c.revision <= newest - KEEP_LOG))


async def leave(engine: AsyncEngine, member_id: str) -> None:
    """Take a member that stops out of the members' list, and say so."""
    members = tables.group_members
    async with engine.begin() as conn:
        await conn.execute(sa.delete(members).where(members.c.member_id == member_id))
        payload = json.dumps({"m": member_id, "e": "left"})
        await conn.execute(ANNOUNCE, {"channel": EVENTS, "payload": payload})
