"""The schema's migrations (alembic, in ``migrations/``), run on SQLite and PostgreSQL.

The same migrations serve both dialects; they run through the store's own async engine
(``run_sync``), so no second, synchronous driver is needed. On PostgreSQL the upgrade
holds a transaction-scoped advisory lock, so hosts of a group that start together
migrate one after the other, and DDL is transactional: a failed upgrade leaves the old
schema. ``render_as_batch`` (alembic's copy-and-move for ``ALTER TABLE``) is used only
on SQLite.
"""

import asyncio
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).parent / "migrations"

#: pg_advisory_xact_lock key held while migrating ("tilewall" as an integer)
MIGRATION_LOCK = 0x74696C6577616C6C


def _upgrade(connection: sa.Connection, revision: str) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def _current(connection: sa.Connection) -> str | None:
    from alembic.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the database of ``engine`` to ``revision`` (the newest schema by default),
    in one transaction."""
    async with engine.begin() as conn:
        await conn.run_sync(_upgrade, revision)


async def current(engine: AsyncEngine) -> str | None:
    """The schema revision the database of ``engine`` is at; None before any."""
    async with engine.connect() as conn:
        return await conn.run_sync(_current)


def migrate(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` (``sqlite:///PATH`` or ``postgresql://...``) to
    ``revision``; for use outside an event loop (scripts, operators' tools)."""
    from tilewall.store import engine_for

    async def go() -> None:
        engine = engine_for(url)
        try:
            await upgrade(engine, revision)
        finally:
            await engine.dispose()

    asyncio.run(go())
