"""``tilewall backup`` and ``tilewall restore``: a host's data in one archive, taken from
a running host, and a data directory made from it that a host starts from as it was.

The archive is a gzipped tar whose first member is ``manifest.json``: the format name
and version, when and by which tilewall it was made, what holds the host's state, and
every file with its size and SHA-256 (checked on restore). Beside it:

- the state: with SQLite, ``tilewall.db``, a consistent copy taken with SQLite's online
  backup API while the host keeps writing; with PostgreSQL (``--database``), ``tables.json``,
  every row of the host's tables read in one repeatable-read transaction (restored into
  a PostgreSQL database with ``--database``, or into SQLite in the data directory, which
  moves a host out of its group);
- ``media/``, ``trusted-keys/``, ``tls/`` and ``initial-admin-password`` from the data
  directory. Logs and troubleshooting reports are not kept.

The archive holds password hashes, session hashes and the TLS key: keep it private.
"""

import asyncio
import base64
import datetime as dt
import hashlib
import io
import json
import os
import shutil
import sqlite3
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tilewall import __version__
from tilewall.config import TRUSTED_KEYS_DIR
from tilewall.store import engine_for, open_store
from tilewall.store import tables as t
from tilewall.store.migrate import current
from tilewall.store.sqlite import FILE_NAME
from tilewall.tls import TLS_DIR

FORMAT = "tilewall-backup"
VERSION = 1
MANIFEST = "manifest.json"
TABLES = "tables.json"
#: what of the data directory goes into the archive (besides the database)
KEPT = ("media", TRUSTED_KEYS_DIR, TLS_DIR, "initial-admin-password")
#: what a restore with --force replaces in the data directory
DATABASE_FILES = (FILE_NAME, f"{FILE_NAME}-wal", f"{FILE_NAME}-shm")
REPLACED = (*DATABASE_FILES, *KEPT)
_ORDER = (t.users, t.sessions, t.documents)


class BackupError(Exception):
    """The backup or restore cannot be done; the message says why."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _files(data_dir: Path) -> Iterator[tuple[str, Path]]:
    """(archive name, path) of every kept file of ``data_dir``; partial uploads left out."""
    for name in KEPT:
        top = data_dir / name
        if top.is_file():
            yield name, top
        elif top.is_dir():
            for path in sorted(top.rglob("*")):
                if path.is_file() and not path.name.endswith(".partial"):
                    yield path.relative_to(data_dir).as_posix(), path


def _sqlite_snapshot(source: Path, target: Path) -> None:
    """A consistent copy of the live database ``source`` (WAL mode, other writers)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def _encode(row: sa.Row[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in row._mapping.items():
        out[key] = {"b64": base64.b64encode(value).decode()} if isinstance(value, bytes) else value
    return out


def _decode(row: dict[str, Any]) -> dict[str, Any]:
    return {k: base64.b64decode(v["b64"]) if isinstance(v, dict) else v for k, v in row.items()}


async def _dump_tables(url: str) -> dict[str, Any]:
    engine = engine_for(url)
    try:
        revision = await current(engine)
        async with engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                await conn.execute(sa.text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))
            rows = {
                table.name: [_encode(r) for r in (await conn.execute(sa.select(table))).all()]
                for table in _ORDER
            }
            await conn.rollback()
    finally:
        await engine.dispose()
    return {"schema": revision, "tables": rows}


def backup(data_dir: Path, archive: Path, database: str | None = None) -> dict[str, Any]:
    """Write the archive of the host in ``data_dir`` (state in ``database`` if given, else
    SQLite in ``data_dir``) to ``archive``; its manifest."""
    if database is None and not (data_dir / FILE_NAME).is_file():
        raise BackupError(f"{data_dir} holds no tilewall database ({FILE_NAME})")
    archive.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=archive.parent, prefix=".backup-") as work:
        staged: list[tuple[str, Path]] = []
        if database is None:
            snapshot = Path(work) / FILE_NAME
            _sqlite_snapshot(data_dir / FILE_NAME, snapshot)
            state: dict[str, Any] = {"kind": "sqlite", "file": FILE_NAME}
            staged.append((FILE_NAME, snapshot))
        else:
            dump = asyncio.run(_dump_tables(database))
            dumped = Path(work) / TABLES
            dumped.write_text(json.dumps(dump["tables"]))
            state = {"kind": "tables", "file": TABLES, "schema": dump["schema"]}
            staged.append((TABLES, dumped))
        # after the database: a file deleted in between is missing, one added is extra
        staged += list(_files(data_dir))
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "tilewall": __version__,
            "state": state,
            "files": {name: {"size": p.stat().st_size, "sha256": _sha256(p)} for name, p in staged},
        }
        partial = Path(work) / "archive.tar.gz"
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as raw, tarfile.open(fileobj=raw, mode="w:gz") as tar:
            body = json.dumps(manifest, indent=2).encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size, info.mode = len(body), 0o600
            tar.addfile(info, io.BytesIO(body))
            for name, path in staged:
                tar.add(path, arcname=name, recursive=False)
        partial.replace(archive)
    return manifest


def read_manifest(archive: Path) -> dict[str, Any]:
    try:
        with tarfile.open(archive, "r:gz") as tar:
            member = tar.next()
            if member is None or member.name != MANIFEST:
                raise BackupError(f"{archive} is not a tilewall backup (no {MANIFEST} first)")
            extracted = tar.extractfile(member)
            assert extracted is not None
            manifest: dict[str, Any] = json.loads(extracted.read())
    except (OSError, tarfile.TarError, ValueError) as error:
        raise BackupError(f"{archive} cannot be read as a tilewall backup: {error}") from None
    if manifest.get("format") != FORMAT:
        raise BackupError(f"{archive} is not a tilewall backup")
    if manifest.get("version") != VERSION:
        raise BackupError(
            f"{archive} is a backup of format version {manifest.get('version')}; "
            f"this tilewall reads version {VERSION}"
        )
    return manifest


def _occupied(data_dir: Path, database: str | None) -> list[str]:
    if not data_dir.exists():
        return []
    names = sorted(p.name for p in data_dir.iterdir())
    return names if database is None else [n for n in names if n in REPLACED]


async def _load_tables(url: str, dump: dict[str, Any], schema: str | None, force: bool) -> None:
    store = await open_store(Path("."), url)  # brings the database to the newest schema
    await store.close()
    engine = engine_for(url)
    try:
        if (await current(engine)) != schema:
            raise BackupError(
                f"the backup's tables are of schema {schema}; the database is at "
                f"{await current(engine)}: restore with the tilewall that made it"
            )
        async with engine.begin() as conn:
            for table in _ORDER:
                held = (await conn.execute(sa.select(sa.func.count()).select_from(table))).scalar()
                if held and not force:
                    raise BackupError(
                        f"the database already holds a host ({table.name} is not empty); "
                        "give --force to replace it"
                    )
                await conn.execute(sa.delete(table))
            for table in _ORDER:
                rows = [_decode(r) for r in dump.get(table.name, [])]
                if rows:
                    await conn.execute(sa.insert(table), rows)
    finally:
        await engine.dispose()


def restore(
    archive: Path, data_dir: Path, database: str | None = None, force: bool = False
) -> dict[str, Any]:
    """Make ``data_dir`` (and ``database``, if given) what the archive holds; its manifest.

    Refuses a data directory that is not empty (with ``database``: one that holds any of
    what the archive restores) unless ``force``; then what the archive restores is replaced
    and anything else (logs) is left alone.
    """
    manifest = read_manifest(archive)
    occupied = _occupied(data_dir, database)
    if occupied and not force:
        raise BackupError(
            f"{data_dir} is not empty ({', '.join(occupied[:5])}); "
            "restore into an empty directory, or give --force to replace its contents"
        )
    data_dir.mkdir(parents=True, exist_ok=True)
    state = manifest["state"]
    with tempfile.TemporaryDirectory(dir=data_dir, prefix=".restore-") as work:
        staging = Path(work)
        with tarfile.open(archive, "r:gz") as tar:
            tar.extractall(staging, filter="data")
        (staging / MANIFEST).unlink()
        for name, facts in manifest["files"].items():
            path = staging / name
            if not path.is_file() or _sha256(path) != facts["sha256"]:
                raise BackupError(f"{archive}: {name} is missing or damaged")
        if state["kind"] == "tables":
            dump = json.loads((staging / TABLES).read_text())
            (staging / TABLES).unlink()
            target = database or f"sqlite:///{data_dir / FILE_NAME}"
            if database is None:
                for name in DATABASE_FILES:
                    (data_dir / name).unlink(missing_ok=True)
            asyncio.run(_load_tables(target, dump, state.get("schema"), force))
        elif database is not None:
            raise BackupError("this backup holds a SQLite database; restore it without --database")
        for name in REPLACED:
            if state["kind"] == "tables" and name in DATABASE_FILES:
                continue  # the tables were loaded in place
            old, new = data_dir / name, staging / name
            if old.is_dir():
                shutil.rmtree(old)
            else:
                old.unlink(missing_ok=True)  # a stale -wal must never meet the copy
            if new.exists():
                new.replace(old)
    return manifest
