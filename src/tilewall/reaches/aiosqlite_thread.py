"""Running a function on aiosqlite's own thread, with its SQLite connection.

aiosqlite gives each connection a thread, and each of its calls is a trip there and
back: the call queued, the thread woken, the result handed back to the event loop, which
runs it when its turn comes. SQLAlchemy's adapter takes three trips a statement (a
cursor opened, the statement, the cursor closed). The host writes each batch of changes
with two statements (the documents, their audit entries) and a commit: on a busy loop,
and most where two processes share the CPUs, the trips are what a commit waits for, not
SQLite. So the batch's statements are run in one trip (:func:`run_on_thread`).

Relies on aiosqlite's private ``Connection._execute(fn)`` (queues ``fn`` for the
connection's thread and awaits its result) and ``Connection._conn`` (the
``sqlite3.Connection``, read on that thread).
"""

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


async def run_on_thread(driver: Any, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work(connection)`` on the thread of the aiosqlite connection ``driver``."""
    result: T = await driver._execute(lambda: work(driver._conn))
    return result
