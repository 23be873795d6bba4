"""Persistence: the host's documents, users and sessions, in SQLite (the embedded
default, in the data directory) or PostgreSQL (a database a group of hosts shares)."""

from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from tilewall.store import postgres, sqlite
from tilewall.store.postgres import PostgresStore
from tilewall.store.sql import SqlStore
from tilewall.store.sqlite import Store

__all__ = ["PostgresStore", "SqlStore", "Store", "engine_for", "open_store"]


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


def engine_for(url: str) -> AsyncEngine:
    """An engine on the database at ``url``: ``sqlite:///PATH`` or ``postgresql://...``."""
    path = _sqlite_file(url)
    return sqlite.engine(path) if path is not None else postgres.engine(url)


async def open_store(data_dir: Path, database: str | None = None) -> SqlStore:
    """The host's store: SQLite in ``data_dir`` unless ``database`` names a database
    (``postgresql://USER:PASSWORD@HOST:PORT/DATABASE``, or ``sqlite:///PATH``)."""
    if not database:
        return await Store.open(data_dir)
    path = _sqlite_file(database)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        return await Store.open_file(path)
    return await PostgresStore.open(database)
