"""The SQLite store, the embedded default: ``DATA_DIR/tilewall.db`` in WAL mode with
``synchronous=FULL``, so a committed change survives a crash or a power cut: each commit
is fsynced before it returns, and the host answers only after it. The host commits its
changes in batches (:mod:`tilewall.host.commit`), one transaction and one fsync each."""

from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tilewall.store.engine import AsyncEngine, create_async_engine
from tilewall.store.migrate import upgrade
from tilewall.store.sql import SqlStore

FILE_NAME = "tilewall.db"


def _pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def engine(path: Path) -> AsyncEngine:
    """An engine on the SQLite database at ``path`` (created on first connection)."""
    # no rollback when a connection goes back to the pool: every use of it ends its own
    # transaction (a write commits or rolls back, a read's connection rolls back when it
    # closes), and each call to the database is a trip to aiosqlite's thread
    made = create_async_engine(
        f"sqlite+aiosqlite:///{path}", hide_parameters=True, pool_reset_on_return=None
    )
    sa.event.listen(made.sync_engine, "connect", _pragmas)
    return made


class Store(SqlStore):
    """Documents of the host model, users and sessions, in ``DATA_DIR/tilewall.db``."""

    @classmethod
    async def open(cls, data_dir: Path) -> "Store":
        data_dir.mkdir(parents=True, exist_ok=True)
        return await cls.open_file(data_dir / FILE_NAME)

    @classmethod
    async def open_file(cls, path: Path) -> "Store":
        """The store in the SQLite file ``path``, brought to the newest schema."""
        made = engine(path)
        try:
            schema = await upgrade(made)
        except BaseException:
            await made.dispose()
            raise
        store = cls(made)
        store.schema = schema
        return store
