"""The store's SQLAlchemy: its asyncio engine and connections (SQLAlchemy Core), taken
without the ORM that ``sqlalchemy.ext.asyncio`` would import with them
(:mod:`tilewall.reaches.sqlalchemy_core_only`), and statements written on SQLite in one
trip to aiosqlite's thread (:func:`executemany_in_one_trip`)."""

import functools
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from tilewall.reaches.aiosqlite_thread import run_on_thread
from tilewall.reaches.sqlalchemy_core_only import AsyncConnection, AsyncEngine, create_async_engine

__all__ = [
    "AsyncConnection",
    "AsyncEngine",
    "Step",
    "create_async_engine",
    "executemany_in_one_trip",
]


@dataclass(frozen=True, slots=True)
class Step:
    """A statement run once for each of ``rows`` (nothing when there are none); a step
    ``refusable`` may be refused by a constraint (its rows are then not written, and the
    transaction goes on)."""

    statement: sa.Insert | sa.Update | sa.Delete
    rows: Sequence[Mapping[str, Any]]
    refusable: bool = False


async def executemany_in_one_trip(conn: AsyncConnection, steps: Sequence[Step]) -> list[bool]:
    """Run ``steps`` in order in the transaction of ``conn``, a SQLite connection
    (aiosqlite), with one trip to its thread (:mod:`tilewall.reaches.aiosqlite_thread`);
    whether each was refused. The driver's errors are raised as SQLAlchemy's."""
    runs = []
    for step in steps:
        sql, names = _compiled(step.statement, conn.dialect)
        runs.append((sql, [tuple(row[n] for n in names) for row in step.rows], step.refusable))
    driver = (await conn.get_raw_connection()).driver_connection

    def write(connection: sqlite3.Connection) -> list[bool]:
        refused = []
        for sql, rows, refusable in runs:
            try:
                if rows:
                    connection.executemany(sql, rows)
                refused.append(False)
            except sqlite3.IntegrityError:
                if not refusable:
                    raise
                refused.append(True)
        return refused

    try:
        return await run_on_thread(driver, write)
    except sqlite3.Error as error:
        raise sa.exc.DBAPIError.instance("", None, error, sqlite3.Error) from error


@functools.cache
def _compiled(
    statement: sa.Insert | sa.Update | sa.Delete, dialect: sa.Dialect
) -> tuple[str, tuple[str, ...]]:
    """The SQL of ``statement`` and the names of its parameters in order."""
    compiled = statement.compile(dialect=dialect)
    return str(compiled), tuple(compiled.positiontup or ())
