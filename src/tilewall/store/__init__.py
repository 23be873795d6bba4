"""Persistence: the host's documents, users and sessions, in SQLite (the embedded
default, in the data directory) or PostgreSQL (a database a group of hosts shares).

The PostgreSQL side (``postgres``, its driver and the group's link) is imported only
when a PostgreSQL database is named, so a host on SQLite starts without it."""

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from tilewall.store import sqlite
from tilewall.store.engine import AsyncEngine
from tilewall.store.migrate import upgrade
from tilewall.store.sql import SqlStore
from tilewall.store.sqlite import Store

if TYPE_CHECKING:
    from tilewall.store.postgres import PostgresStore

__all__ = [
    "PostgresStore",
    "SqlStore",
    "Store",
    "database_line",
    "engine_for",
    "is_postgres",
    "migrate_database",
    "open_store",
]


def __getattr__(name: str) -> Any:
    if name == "PostgresStore":
        from tilewall.store.postgres import PostgresStore

        return PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def is_postgres(store: SqlStore) -> bool:
    """Whether ``store`` keeps its state in PostgreSQL."""
    return store.engine.dialect.name == "postgresql"


def _sqlite_file(url: str) -> Path | None:
    """The file of a ``sqlite:///PATH`` URL; None for any other URL."""
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError:
        return None
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise ValueError("a SQLite database URL must name a file: sqlite:///PATH")
    return Path(parsed.database)


def database_line(store: SqlStore) -> str:
    """Where the store's database is (a PostgreSQL URL without its password) and at which
    migration, for a person reading the start-up lines."""
    url = store.engine.url
    if url.get_backend_name() == "sqlite":
        where = f"SQLite {url.database}"
    else:
        where = "PostgreSQL " + url.set(drivername="postgresql").render_as_string(
            hide_password=True
        )
    return where if store.schema is None else f"{where}, {store.schema}"


def engine_for(url: str) -> AsyncEngine:
    """An engine on the database at ``url``: ``sqlite:///PATH`` or ``postgresql://...``."""
    path = _sqlite_file(url)
    if path is not None:
        return sqlite.engine(path)
    from tilewall.store import postgres

    return postgres.engine(url)


async def open_store(data_dir: Path, database: str | None = None) -> SqlStore:
    """The host's store: SQLite in ``data_dir`` unless ``database`` names a database
    (``postgresql://USER:PASSWORD@HOST:PORT/DATABASE``, or ``sqlite:///PATH``)."""
    if not database:
        return await Store.open(data_dir)
    path = _sqlite_file(database)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        return await Store.open_file(path)
    from tilewall.store.postgres import PostgresStore

    return await PostgresStore.open(database)


def migrate_database(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` (``sqlite:///PATH`` or ``postgresql://...``) to
    ``revision``; for use outside an event loop (scripts, operators' tools)."""

    async def go() -> None:
        engine = engine_for(url)
        try:
            await upgrade(engine, revision)
        finally:
            await engine.dispose()

    asyncio.run(go())
