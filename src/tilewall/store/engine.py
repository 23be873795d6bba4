"""The store's SQLAlchemy: its asyncio engine and connections (SQLAlchemy Core), taken
without the ORM that ``sqlalchemy.ext.asyncio`` would import with them
(:mod:`tilewall.reaches.sqlalchemy_core_only`), and a statement written in one trip to
aiosqlite's thread."""

import functools
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from tilewall.reaches.sqlalchemy_core_only import AsyncConnection, AsyncEngine, create_async_engine

__all__ = ["AsyncConnection", "AsyncEngine", "create_async_engine", "executemany_in_one_trip"]


async def executemany_in_one_trip(
    conn: AsyncConnection, statement: sa.Insert, rows: Sequence[Mapping[str, Any]]
) -> None:
    """``statement`` once for each of ``rows``, in the transaction of ``conn``, a SQLite
    connection (aiosqlite), with one trip to its thread: SQLAlchemy's own executemany
    takes three (a cursor opened, the statement, the cursor closed). The driver's errors
    are raised as SQLAlchemy's (an :class:`sqlalchemy.exc.IntegrityError`, ...)."""
    sql, order = _compiled(statement, conn.dialect)
    driver = (await conn.get_raw_connection()).driver_connection
    if driver is None:
        raise sa.exc.InvalidRequestError("the connection is closed")
    try:
        await driver.executemany(sql, [tuple(row[name] for name in order) for row in rows])
    except sqlite3.Error as error:
        raise sa.exc.DBAPIError.instance(sql, None, error, sqlite3.Error) from error


@functools.cache
def _compiled(statement: sa.Insert, dialect: sa.Dialect) -> tuple[str, tuple[str, ...]]:
    """The SQL of ``statement`` and the names of its parameters in order."""
    compiled = statement.compile(dialect=dialect)
    return str(compiled), tuple(compiled.positiontup or ())
