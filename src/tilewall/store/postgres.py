"""The PostgreSQL store: what a group of hosts shares (``--database postgresql://...``).

Driver: asyncpg, through SQLAlchemy's ``postgresql+asyncpg`` dialect. It speaks
PostgreSQL's protocol natively on asyncio (no thread per query, no libpq to install:
its wheel is self-contained), it is SQLAlchemy's most used async PostgreSQL driver, and
it gives direct access to what host groups need beyond SQL: ``LISTEN``/``NOTIFY``
listeners and session advisory locks on a dedicated connection. psycopg 3 would do as
well, but wants libpq (or its binary wheel) and adds nothing the store needs.

Durability is PostgreSQL's: a change is answered once its transaction has committed
(with the server's ``synchronous_commit``; a server that has it off is warned about).
A lost connection fails the write in progress with
:class:`~tilewall.host.errors.StoreFailed` (503) and nothing of it is kept; the pool
checks each connection before use (``pool_pre_ping``) and opens new ones, so the store
works again by itself as soon as the database is back. One case cannot be told apart
by any client: a connection lost while ``COMMIT`` is in flight may have committed; the
host then answers 503 and keeps its memory as it was, and the row written is read back
at the next start.
"""

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from tilewall.host.errors import NotActive, StoreFailed
from tilewall.host.hostgroup.members import ChangeBatch, Snapshot
from tilewall.store import hostgroup_sql
from tilewall.store.engine import AsyncConnection, AsyncEngine, create_async_engine
from tilewall.store.health import describe
from tilewall.store.migrate import upgrade
from tilewall.store.sql import SqlStore

log = logging.getLogger(__name__)

#: a database that does not answer a connection attempt within this is down
CONNECT_TIMEOUT_S = 5.0
#: no statement of the store takes long; one that hangs this long has lost its server
COMMAND_TIMEOUT_S = 30.0
#: the server ends a session left in a transaction this long: no transaction of the store
#: waits between its statements, so only a host that stalled mid-write leaves one, and its
#: lock on the group's state must not outlive the active member's lease by much
IDLE_IN_TRANSACTION_MS = 10_000
_SCHEMES = {"postgres", "postgresql", "postgresql+asyncpg"}


def database_url(url: str) -> sa.URL:
    """``url`` (``postgresql://USER:PASSWORD@HOST:PORT/DATABASE``, libpq's ``postgres://``
    and ``sslmode`` accepted) as the URL of the asyncpg dialect; ValueError otherwise."""
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError:
        raise ValueError(f"{url!r} is not a database URL") from None
    if parsed.drivername not in _SCHEMES:
        raise ValueError(
            f"{parsed.drivername}:// is not a PostgreSQL URL: "
            "use postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
        )
    query = dict(parsed.query)
    if "sslmode" in query:  # libpq's name; asyncpg takes the same values as ssl
        query.setdefault("ssl", query.pop("sslmode"))
    return parsed.set(drivername="postgresql+asyncpg", query=query)


def engine(url: str) -> AsyncEngine:
    """A pooled engine on the database at ``url`` that replaces dead connections."""
    return create_async_engine(
        database_url(url),
        pool_pre_ping=True,
        hide_parameters=True,
        connect_args={
            "timeout": CONNECT_TIMEOUT_S,
            "command_timeout": COMMAND_TIMEOUT_S,
            "server_settings": {
                "application_name": "tilewall",
                "idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS),
            },
        },
    )


def _record_backends(made: AsyncEngine, backends: dict[int, int]) -> None:
    """Keep the backend pid of each open connection of ``made``'s pool in ``backends``
    (a group's member records them, so that a standby can end them if it stalls)."""

    def opened(dbapi_connection: Any, *_: Any) -> None:
        driver = getattr(dbapi_connection, "driver_connection", None)
        pid = getattr(driver, "get_server_pid", None)
        if pid is not None:
            backends[id(dbapi_connection)] = int(pid())

    def closed(dbapi_connection: Any, _record: Any) -> None:
        backends.pop(id(dbapi_connection), None)

    # at checkout: the pool may hold connections opened before the store listened
    sa.event.listen(made.sync_engine, "checkout", opened)
    sa.event.listen(made.sync_engine, "close", closed)


@dataclass
class Fence:
    """What lets a member of a group write: the generation under which it is active
    (None while it is not), and the error that refuses a write otherwise."""

    member_id: str
    refusal: Callable[[], NotActive]
    generation: int | None = None
    #: whether the member's lease is held as this process sees it (a member that stalled
    #: refuses writes until it has renewed it)
    held: Callable[[], bool] = lambda: True

    @property
    def open(self) -> bool:
        return self.generation is not None and self.held()


class PostgresStore(SqlStore):
    """Documents of the host model, users and sessions in a PostgreSQL database.

    Every write is logged and announced (see :mod:`tilewall.store.hostgroup_sql`); with a
    :class:`Fence` (a member of a group) it is refused unless the member is active.
    """

    def __init__(self, engine: AsyncEngine, url: str = "") -> None:
        super().__init__(engine)
        #: the URL the store was opened with (the group opens its own connections)
        self.url = url
        self.fence: Fence | None = None
        #: the newest revision this process committed or followed
        self.revision = 0
        self._advanced = asyncio.Event()
        #: the backend pid of each open connection of the pool
        self.backends: dict[int, int] = {}
        _record_backends(engine, self.backends)

    # --- fencing and the log of writes ----------------------------------------------------

    def _may_write(self) -> None:
        if self.fence is not None and not self.fence.open:
            raise self.fence.refusal()

    async def _open_write(
        self, conn: AsyncConnection, changed: Sequence[tuple[str, str]]
    ) -> tuple[int, int, str]:
        fence = self.fence
        params: dict[str, Any] = {"changed": hostgroup_sql.encode_changed(changed)}
        if fence is None:
            statement = hostgroup_sql.UNFENCED_WRITE
            params["member"] = hostgroup_sql.OUTSIDE
        else:
            if fence.generation is None or not fence.held():
                raise fence.refusal()
            statement = hostgroup_sql.FENCED_WRITE
            params["member"] = fence.member_id
            params["generation"] = fence.generation
        row = (await conn.execute(statement, params)).first()
        if row is None:
            # another member took over: this one must not write any more
            raise fence.refusal() if fence is not None else StoreFailed("the group's state is gone")
        return int(row[0]), int(row[1]), str(params["member"])

    async def _close_write(self, conn: AsyncConnection, written: tuple[int, int, str]) -> None:
        payload = hostgroup_sql.announcement(*written)
        await conn.execute(
            hostgroup_sql.ANNOUNCE, {"channel": hostgroup_sql.CHANGES, "payload": payload}
        )

    def _committed(self, written: tuple[int, int, str]) -> None:
        self.advance(written[0])

    def advance(self, revision: int) -> None:
        """This process has ``revision`` (committed it, or followed it)."""
        if revision > self.revision:
            self.revision = revision
            self._advanced.set()
            self._advanced = asyncio.Event()

    async def wait_revision(self, revision: int, timeout_s: float) -> bool:
        """Wait until :meth:`advance` reached ``revision``; whether it did in time."""
        try:
            async with asyncio.timeout(timeout_s):
                while self.revision < revision:
                    await self._advanced.wait()
        except TimeoutError:
            return False
        return True

    # --- what a standby reads ----------------------------------------------------------------

    async def snapshot(self) -> Snapshot:
        try:
            return await hostgroup_sql.snapshot(self._engine)
        except self.failures as error:
            raise StoreFailed(f"the group's state cannot be read: {describe(error)}") from error

    async def member_key(self) -> bytes:
        """The members' secret, which a standby signs what it forwards with."""
        try:
            return await hostgroup_sql.member_key(self._engine)
        except self.failures as error:
            raise StoreFailed(f"the group's key cannot be read: {describe(error)}") from error

    async def log_since(self, revision: int) -> list[tuple[int, list[list[str]]]]:
        return await hostgroup_sql.log_since(self._engine, revision)

    async def changed(self, revision: int, pairs: set[tuple[str, str]]) -> ChangeBatch:
        return await hostgroup_sql.changed(self._engine, revision, pairs)

    @classmethod
    async def open(cls, url: str) -> "PostgresStore":
        """The store in the database at ``url``, brought to the newest schema; raises
        :class:`StoreFailed` naming the database (without its password) if it cannot
        be reached."""
        made = engine(url)
        shown = made.url.render_as_string(hide_password=True)
        try:
            schema = await upgrade(made)
            async with made.connect() as conn:
                commit = (await conn.execute(sa.text("SHOW synchronous_commit"))).scalar()
        except cls.failures as error:
            await made.dispose()
            raise StoreFailed(f"cannot open the database {shown}: {describe(error)}") from error
        if commit == "off":
            log.warning(
                "the database %s has synchronous_commit off: "
                "a change acknowledged just before its server crashes may be lost",
                shown,
            )
        store = cls(made, url)
        store.schema = schema
        return store
