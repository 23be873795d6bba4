"""The same alembic migrations build the schema on SQLite and on PostgreSQL, and the
schema they build is the one the store's statements are written against."""

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy.ext.asyncio import AsyncEngine

from tilewall.host.access.roles import Role
from tilewall.host.audit import GENESIS, AuditQuery
from tilewall.store import engine_for, migrate_database, open_store
from tilewall.store.migrate import MIGRATIONS, current, upgrade
from tilewall.store.tables import metadata

HEAD = "0010"
TABLES = {
    "documents",
    "users",
    "sessions",
    "plays",
    "group_state",
    "group_members",
    "group_log",
    "audit",
    "audit_head",
    "audit_keys",
    "audit_keyed",
}


@pytest.fixture
def url(database: str | None, tmp_path: Path) -> str:
    """A database URL of either dialect: a SQLite file, or a fresh PostgreSQL database."""
    return database or f"sqlite:///{tmp_path / 'migrated.db'}"


def _differences(connection: sa.Connection) -> list[object]:
    return list(compare_metadata(MigrationContext.configure(connection), metadata))


def _downgrade(connection: sa.Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.downgrade(config, "base")


async def _tables(engine: AsyncEngine) -> set[str]:
    async with engine.connect() as conn:
        names = await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
    return set(names) - {"alembic_version"}


async def test_the_migrations_build_the_schema_of_the_tables(url: str) -> None:
    engine = engine_for(url)
    try:
        assert await current(engine) is None
        await upgrade(engine)
        assert await current(engine) == HEAD
        assert await _tables(engine) == TABLES
        async with engine.connect() as conn:
            assert await conn.run_sync(_differences) == []
        await upgrade(engine)  # at head already: nothing to do
        assert await current(engine) == HEAD
    finally:
        await engine.dispose()


async def test_the_initial_migration_goes_down_and_up_again(url: str) -> None:
    engine = engine_for(url)
    try:
        await upgrade(engine)
        async with engine.begin() as conn:
            await conn.run_sync(_downgrade)
        assert await current(engine) is None
        assert await _tables(engine) == set()
        await upgrade(engine)
        assert await current(engine) == HEAD
    finally:
        await engine.dispose()


def test_migrate_takes_a_url_of_either_dialect(url: str) -> None:
    migrate_database(url)

    async def revision() -> str | None:
        engine = engine_for(url)
        try:
            return await current(engine)
        finally:
            await engine.dispose()

    assert asyncio.run(revision()) == HEAD


def test_hosts_of_a_group_starting_together_migrate_one_after_the_other(
    postgres_url: str,
) -> None:
    code = "import sys; from tilewall.store import migrate_database; migrate_database(sys.argv[1])"
    hosts = [
        subprocess.Popen([sys.executable, "-c", code, postgres_url], stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    for host in hosts:
        _, err = host.communicate(timeout=60)
        assert host.returncode == 0, err.decode()[-2000:]

    async def revision() -> str | None:
        engine = engine_for(postgres_url)
        try:
            return await current(engine)
        finally:
            await engine.dispose()

    assert asyncio.run(revision()) == HEAD


async def test_users_from_before_roles_are_administrators(url: str, tmp_path: Path) -> None:
    engine = engine_for(url)
    try:
        await upgrade(engine, "0006")
        async with engine.begin() as conn:
            await conn.execute(
                sa.text(
                    "INSERT INTO users (name, password_hash, created_ms) "
                    "VALUES ('old-admin', 'h', 1), ('old-user', 'h', 2)"
                )
            )
        await upgrade(engine)
        assert await current(engine) == HEAD
    finally:
        await engine.dispose()
    store = await open_store(tmp_path / "store", url)
    try:
        users = await store.users()
    finally:
        await store.close()
    assert {name: a.role for name, a in users.items()} == {
        "old-admin": Role.ADMINISTRATOR,
        "old-user": Role.ADMINISTRATOR,
    }
    assert not any(a.disabled or a.scope or a.scoped_reads for a in users.values())


async def test_entries_from_before_the_keys_are_found_by_them(url: str, tmp_path: Path) -> None:
    engine = engine_for(url)
    try:
        await upgrade(engine, "0009")
        async with engine.begin() as conn:
            for n, user in enumerate(["ann", "bob", "ann"], start=1):
                await conn.execute(
                    sa.text(
                        "INSERT INTO audit VALUES (:id, :at, :user, '', '', 'op', 'display',"
                        " :target, '', '[]', 'ok', :prev, :hash)"
                    ),
                    {"id": n, "at": 1000 * n, "user": user, "target": f"d{n}"}
                    | {"prev": f"h{n - 1}" if n > 1 else GENESIS, "hash": f"h{n}"},
                )
            await conn.execute(sa.text("UPDATE audit_head SET last_id = 3, last_hash = 'h3'"))
        await upgrade(engine)
    finally:
        await engine.dispose()
    store = await open_store(tmp_path / "store", url)
    try:
        by_user, _ = await store.audit_page(AuditQuery(user="ann"))
        by_target, _ = await store.audit_page(AuditQuery(target="d2"))
        assert await store.write_audit_keys() == 0  # all keyed by the migration
    finally:
        await store.close()
    assert [e.id for e in by_user] == [3, 1]
    assert [e.id for e in by_target] == [2]
