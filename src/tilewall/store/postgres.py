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

import logging

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from tilewall.host.errors import StoreFailed
from tilewall.store.health import describe
from tilewall.store.migrate import upgrade
from tilewall.store.sql import SqlStore

log = logging.getLogger(__name__)

#: a database that does not answer a connection attempt within this is down
CONNECT_TIMEOUT_S = 5.0
#: no statement of the store takes long; one that hangs this long has lost its server
COMMAND_TIMEOUT_S = 30.0
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
            "server_settings": {"application_name": "tilewall"},
        },
    )


class PostgresStore(SqlStore):
    """Documents of the host model, users and sessions in a PostgreSQL database."""

    @classmethod
    async def open(cls, url: str) -> "PostgresStore":
        """The store in the database at ``url``, brought to the newest schema; raises
        :class:`StoreFailed` naming the database (without its password) if it cannot
        be reached."""
        made = engine(url)
        shown = made.url.render_as_string(hide_password=True)
        try:
            await upgrade(made)
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
        log.info("the store is the PostgreSQL database %s", shown)
        return cls(made)
