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
import logging
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from tilewall.store.engine import AsyncEngine

MIGRATIONS = Path(__file__).parent / "migrations"
VERSION_TABLE = "alembic_version"

#: pg_advisory_xact_lock key held while migrating ("tilewall" as an integer)
MIGRATION_LOCK = 0x74696C6577616C6C


@dataclass(frozen=True)
class Schema:
    """The revisions a database was at before it was opened (None: an empty database) and
    is at now."""

    before: frozenset[str] | None
    after: frozenset[str]

    def __str__(self) -> str:
        now = "at migration " + ", ".join(sorted(self.after))
        if self.before is None:
            return f"{now} (created)"
        if self.before != self.after:
            return f"{now} (migrated from {', '.join(sorted(self.before)) or 'none'})"
        return now


def _upgrade(connection: sa.Connection, revision: str) -> Schema:
    # alembic's INFO lines (its plugins as it is imported, each step) would bury the one
    # start-up line that says where the database is and at which migration (Schema)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    from alembic import command
    from alembic.config import Config

    if connection.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    before = _stamped(connection)  # under the lock: another host may just have migrated
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)
    return Schema(before, _stamped(connection) or frozenset())


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


async def upgrade(engine: AsyncEngine, revision: str = "head") -> Schema:
    """Bring the database of ``engine`` to ``revision`` (the newest schema by default),
    in one transaction; a database already at the newest schema is left as it is
    without loading alembic."""
    async with engine.connect() as conn:
        before = await conn.run_sync(_stamped)
    if revision == "head" and before == head_revisions():
        return Schema(before, before)
    async with engine.begin() as conn:
        return await conn.run_sync(_upgrade, revision)


async def current(engine: AsyncEngine) -> str | None:
    """The schema revision the database of ``engine`` is at; None before any."""
    async with engine.connect() as conn:
        return await conn.run_sync(_current)
