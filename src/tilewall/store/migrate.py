"""The schema's migrations (alembic, in ``migrations/``), run on SQLite and PostgreSQL.

The same migrations serve both dialects; they run through the store's own async engine
(``run_sync``), so no second, synchronous driver is needed. On PostgreSQL the upgrade
holds a transaction-scoped advisory lock, so hosts of a group that start together
migrate one after the other, and DDL is transactional: a failed upgrade leaves the old
schema. ``render_as_batch`` (alembic's copy-and-move for ``ALTER TABLE``) is used only
on SQLite.

A database already at the newest schema is told by reading its ``alembic_version``
against the heads of ``migrations/versions`` (read from the files, without alembic):
alembic itself is imported only when there is something to migrate.
"""

import ast
import functools
from pathlib import Path

import sqlalchemy as sa

from tilewall.store.engine import AsyncEngine

MIGRATIONS = Path(__file__).parent / "migrations"
VERSION_TABLE = "alembic_version"

#: pg_advisory_xact_lock key held while migrating ("tilewall" as an integer)
MIGRATION_LOCK = 0x74696C6577616C6C


def _upgrade(connection: sa.Connection, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    if connection.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def _current(connection: sa.Connection) -> str | None:
    from alembic.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


@functools.cache
def head_revisions(versions: Path = MIGRATIONS / "versions") -> frozenset[str]:
    """The newest revisions of the migrations: those no other revision follows."""
    revisions: set[str] = set()
    followed: set[str] = set()
    for path in versions.glob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            value: ast.expr | None = None
            if isinstance(node, ast.Assign):
                names, value = [t.id for t in node.targets if isinstance(t, ast.Name)], node.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names, value = [node.target.id], node.value
            if value is None:
                continue
            if "revision" in names:
                revisions.add(ast.literal_eval(value))
            if "down_revision" in names:
                down = ast.literal_eval(value)
                followed.update([down] if isinstance(down, str) else down or ())
    return frozenset(revisions - followed)


def _stamped(connection: sa.Connection) -> frozenset[str] | None:
    """The revisions the database is at; None before any."""
    if not sa.inspect(connection).has_table(VERSION_TABLE):
        return None
    rows = connection.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}"))
    return frozenset(str(row[0]) for row in rows)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the database of ``engine`` to ``revision`` (the newest schema by default),
    in one transaction; a database already at the newest schema is left as it is
    without loading alembic."""
    if revision == "head":
        async with engine.connect() as conn:
            if await conn.run_sync(_stamped) == head_revisions():
                return
    async with engine.begin() as conn:
        await conn.run_sync(_upgrade, revision)


async def current(engine: AsyncEngine) -> str | None:
    """The schema revision the database of ``engine`` is at; None before any."""
    async with engine.connect() as conn:
        return await conn.run_sync(_current)
