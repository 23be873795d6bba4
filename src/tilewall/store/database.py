"""The SQLite store: WAL, synchronous FULL, one transaction per acknowledged change."""

import errno
import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from tilewall.host.errors import StoreFailed, StoreFull
from tilewall.host.ports import Change
from tilewall.store import tables

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).parent / "migrations"


def _is_full(error: BaseException) -> bool:
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno == errno.ENOSPC:
            return True
        if "disk is full" in str(seen) or "No space left" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class _Health:
    """Logs the first failure of an outage with its cause, and the recovery; the
    failures in between are counted, so a full disk does not flood the log."""

    def __init__(self) -> None:
        self.failures = 0

    def failed(self, error: BaseException) -> StoreFailed:
        full = _is_full(error)
        if self.failures == 0:
            log.error("the store cannot write: %s", error)
        self.failures += 1
        if full:
            return StoreFull("the host's disk is full: nothing was changed; free space and retry")
        return StoreFailed(
            f"the host's store cannot write ({type(error).__name__}): nothing was changed"
        )

    def succeeded(self) -> None:
        if self.failures:
            log.warning("the store writes again after %d failed writes", self.failures)
            self.failures = 0


def _pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def migrate(path: Path) -> None:
    """Bring the database at ``path`` to the newest schema."""
    engine = sa.create_engine(f"sqlite:///{path}")
    sa.event.listen(engine, "connect", _pragmas)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    engine.dispose()


class Store:
    """Documents of the host model, users and sessions, in ``DATA_DIR/tilewall.db``."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._health = _Health()

    @property
    def engine(self) -> AsyncEngine:
        return self._engine

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        """One write transaction; any failure of the database or the disk is raised as
        :class:`StoreFailed` (nothing of the transaction is kept)."""
        try:
            async with self._engine.begin() as conn:
                yield conn
        except (sa.exc.DBAPIError, sa.exc.SQLAlchemyError, OSError) as error:
            raise self._health.failed(error) from error
        self._health.succeeded()

    @classmethod
    async def open(cls, data_dir: Path) -> "Store":
        data_dir.mkdir(parents=True, exist_ok=True)
        path = data_dir / "tilewall.db"
        migrate(path)
        engine = create_async_engine(f"sqlite+aiosqlite:///{path}")
        sa.event.listen(engine.sync_engine, "connect", _pragmas)
        return cls(engine)

    async def close(self) -> None:
        await self._engine.dispose()

    async def load_documents(self) -> dict[str, dict[str, bytes]]:
        out: dict[str, dict[str, bytes]] = {}
        async with self._engine.connect() as conn:
            rows = await conn.execute(sa.select(tables.documents))
            for kind, key, body in rows:
                out.setdefault(kind, {})[key] = body
        return out

    async def apply(self, changes: Iterable[Change]) -> None:
        """Write every change in one transaction; it is on disk when this returns."""
        docs = tables.documents
        async with self._write() as conn:
            for change in changes:
                where = (docs.c.kind == change.kind) & (docs.c.key == change.key)
                await conn.execute(sa.delete(docs).where(where))
                if change.body is not None:
                    await conn.execute(
                        sa.insert(docs).values(kind=change.kind, key=change.key, body=change.body)
                    )

    # users

    async def users(self) -> dict[str, str]:
        async with self._engine.connect() as conn:
            rows = await conn.execute(sa.select(tables.users.c.name, tables.users.c.password_hash))
            return {name: pw for name, pw in rows}

    async def put_user(self, name: str, password_hash: str, now_ms: int) -> None:
        async with self._write() as conn:
            await conn.execute(sa.delete(tables.users).where(tables.users.c.name == name))
            await conn.execute(
                sa.insert(tables.users).values(
                    name=name, password_hash=password_hash, created_ms=now_ms
                )
            )

    async def delete_user(self, name: str) -> bool:
        async with self._write() as conn:
            result = await conn.execute(sa.delete(tables.users).where(tables.users.c.name == name))
            await conn.execute(sa.delete(tables.sessions).where(tables.sessions.c.user == name))
            return bool(result.rowcount)

    # sessions

    async def sessions(self) -> list[tuple[str, str, bool, int]]:
        s = tables.sessions
        async with self._engine.connect() as conn:
            rows = await conn.execute(sa.select(s.c.token_hash, s.c.user, s.c.keep, s.c.created_ms))
            return [(t, u, bool(k), c) for t, u, k, c in rows]

    async def put_session(self, token_hash: str, user: str, keep: bool, now_ms: int) -> None:
        async with self._write() as conn:
            await conn.execute(
                sa.insert(tables.sessions).values(
                    token_hash=token_hash, user=user, keep=keep, created_ms=now_ms
                )
            )

    async def delete_sessions(self, token_hashes: Iterable[str]) -> None:
        hashes = list(token_hashes)
        if not hashes:
            return
        async with self._write() as conn:
            await conn.execute(
                sa.delete(tables.sessions).where(tables.sessions.c.token_hash.in_(hashes))
            )
