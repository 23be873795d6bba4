"""Backups of a host on PostgreSQL: its tables dumped through SQLAlchemy in one
repeatable-read transaction, restored into another PostgreSQL database or into SQLite in
a data directory (a host leaving its group), every row as it was."""

import asyncio
from pathlib import Path

import pytest

from tilewall import backup
from tilewall.host.access.roles import Account
from tilewall.host.ports import Change
from tilewall.store import open_store


async def fill(url: str) -> None:
    store = await open_store(Path("."), url)
    try:
        await store.apply(
            [
                Change("source", "s1", b'{"name": "one"}'),
                Change("source", "s2", b"\x00\xff binary body"),
                Change("setting", "hostname", b'"wall-host"'),
            ]
        )
        await store.put_user(
            "admin", Account("$argon2id$v=19$m=1024,t=1,p=1$abc$def", created_ms=1700000000000)
        )
        await store.put_session("f" * 64, "admin", True, 1700000000001)
    finally:
        await store.close()


async def contents(data_dir: Path, url: str | None) -> tuple[object, ...]:
    store = await open_store(data_dir, url)
    try:
        return (await store.load_documents(), await store.users(), await store.sessions())
    finally:
        await store.close()


async def test_postgres_tables_restore_into_sqlite_and_into_postgres(
    tmp_path: Path,
    postgres_server,
) -> None:
    source = postgres_server.create_database()
    await fill(source)
    data = tmp_path / "data"
    (data / "media").mkdir(parents=True)
    (data / "media" / "a.png").write_bytes(b"png")
    archive = tmp_path / "pg.tar.gz"
    manifest = await asyncio.to_thread(backup.backup, data, archive, source)
    assert manifest["state"]["kind"] == "tables" and manifest["state"]["schema"]
    expected = await contents(tmp_path / "unused", source)

    into_sqlite = tmp_path / "standalone"
    await asyncio.to_thread(backup.restore, archive, into_sqlite)
    assert (into_sqlite / "media" / "a.png").read_bytes() == b"png"
    assert await contents(into_sqlite, None) == expected

    other = postgres_server.create_database()
    await asyncio.to_thread(backup.restore, archive, tmp_path / "member", other)
    assert await contents(tmp_path / "member", other) == expected
    # a database that already holds a host is not overwritten without force
    with pytest.raises(backup.BackupError, match="already holds a host"):
        await asyncio.to_thread(backup.restore, archive, tmp_path / "m2", other)
    await asyncio.to_thread(backup.restore, archive, tmp_path / "m3", other, True)
    assert await contents(tmp_path / "m3", other) == expected
