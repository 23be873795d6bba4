"""The audit trail of a real host process, on SQLite and on PostgreSQL: killed (SIGKILL)
right after acknowledged writes, every acknowledged write has its entry after the
restart; ``tilewall audit`` lists entries over the interface; ``tilewall audit verify``
(a process of its own, on the database) holds for an untouched trail and names the
first bad entry after an entry was edited, removed or inserted in the database."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.http import ADMIN, PASSWORD, TransportError, ok
from tests.support.pgserver import PostgresServer
from tests.support.server import ServerProcess
from tests.support.sources import WEB, source_body
from tilewall.host.audit import AuditRecord, Target, entry_hash

CREATE = "POST /api/sources"


def tilewall(*args: str) -> subprocess.CompletedProcess[str]:
    """The command line, in a process of its own."""
    command = [sys.executable, "-c", "import sys; from tilewall.cli import main; sys.exit(main())"]
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, timeout=60, check=False
    )


@dataclass
class Database:
    """Where the host under test keeps its state, and SQL run on it directly (as someone
    with access to the database would)."""

    args: list[str]
    execute: Callable[[str], str]


def _sqlite(data_dir: Path) -> Database:
    def execute(sql: str) -> str:
        with sqlite3.connect(data_dir / "tilewall.db") as conn:
            # the trigger that keeps the host's own writes in the chain would stop some
            # edits: whoever edits the rows can drop it first
            conn.execute("DROP TRIGGER IF EXISTS audit_chain")
            rows = conn.execute(sql).fetchall()
        return "\n".join("|".join(str(v) for v in row) for row in rows)

    return Database(["--data-dir", str(data_dir)], execute)


def _postgres(server: PostgresServer, url: str) -> Database:
    name = url.rsplit("/", 1)[1]
    return Database(["--database", url], lambda sql: server.psql(sql, name))


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        yield _sqlite(tmp_path / "data")
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = server.create_database("audit")
    try:
        yield _postgres(server, url)
    finally:
        server.drop_database(url)


@pytest.fixture
def host(database: Database, tmp_path: Path) -> Iterator[ServerProcess]:
    extra = database.args if database.args[0] == "--database" else []
    server = ServerProcess(tmp_path / "data", args=extra).start()
    try:
        yield server
    finally:
        server.close()


def _write_until_killed(server: ServerProcess, count: int) -> list[str]:
    """Create sources from two clients at once until ``count`` are acknowledged, then
    kill the host at once; the ids acknowledged."""
    acknowledged: list[str] = []
    stop = threading.Event()

    def writer(prefix: str) -> None:
        client = server.client()
        n = 0
        try:
            while not stop.is_set():
                n += 1
                body = source_body(WEB, f"{prefix}-{n}", URL=f"https://example.org/{n}")
                response = client.post("/sources", json=body)
                if response.status_code != 200:
                    return
                acknowledged.append(response.json()["sourceId"])
        except TransportError:
            pass  # the host died under us: that request was not acknowledged
        finally:
            client.close()

    threads = [threading.Thread(target=writer, args=(p,), daemon=True) for p in "ab"]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while len(acknowledged) < count and time.monotonic() < deadline:
        time.sleep(0.005)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(10)
    return list(acknowledged)


def _entries(server: ServerProcess, **params: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    more: dict[str, Any] = {}
    while True:
        page = ok(server.api.get("/audit", params={**params, **more, "limit": 1000}))
        assert page["verified"] is True
        found += page["entries"]
        if page["next"] is None:
            return found
        more = {"before": page["next"]}


@pytest.mark.timeout(120)
def test_sigkill_after_acknowledged_writes_leaves_each_with_its_entry(
    host: ServerProcess, database: Database
) -> None:
    acknowledged = _write_until_killed(host, 40)
    assert len(acknowledged) >= 40
    host.start()
    created = {e["target"]["id"]: e for e in _entries(host, operation=CREATE)}
    missing = [source for source in acknowledged if source not in created]
    assert not missing, f"acknowledged without an entry: {missing}"
    # and no entry for a source the host does not have
    sources = {s["sourceId"] for s in ok(host.api.get("/sources"))["sources"]}
    assert set(created) <= sources
    assert all(e["user"] == ADMIN and e["outcome"] == "ok" for e in created.values())
    done = tilewall("audit", "verify", *database.args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "holds" in done.stdout


def test_the_listing_over_the_interface(host: ServerProcess) -> None:
    ok(host.api.post("/sources", json=source_body(WEB, "Lobby page", URL="https://e.org/")))
    connection = ["--url", host.url, "--user", ADMIN, "--password", PASSWORD]
    listed = tilewall("audit", "--operation", CREATE, "--json", *connection)
    assert listed.returncode == 0, listed.stderr
    page = json.loads(listed.stdout)
    assert [e["target"]["name"] for e in page["entries"]] == ["Lobby page"]
    assert page["verified"] is True
    table = tilewall("audit", "--limit", "1", *connection)
    assert table.returncode == 0, table.stderr
    assert "audit entries" in table.stdout and "older entries: --before" in table.stdout
    as_csv = tilewall("audit", "--csv", "--who", ADMIN, *connection)
    assert as_csv.returncode == 0, as_csv.stderr
    assert as_csv.stdout.startswith("id,at,user,address,session,operation,")
    assert "Lobby page" in as_csv.stdout
    kept = tilewall("audit", "retention", "400", *connection)
    assert kept.returncode == 0 and kept.stdout == "audit entries are kept 400 days\n"
    assert ok(host.api.get("/audit/settings")) == {"retentionDays": 400}


# --- tampering, found by verify


def _populate(server: ServerProcess, count: int) -> None:
    for n in range(count):
        body = source_body(WEB, f"Page {n}", URL=f"https://example.org/{n}")
        ok(server.api.post("/sources", json=body))


def _verify(database: Database) -> tuple[int, str]:
    done = tilewall("audit", "verify", *database.args)
    return done.returncode, done.stdout + done.stderr


def _row(database: Database, entry_id: int) -> list[str]:
    columns = (
        'at_ms, "user", address, session, operation, target_kind, target_id, '
        "target_name, changes, outcome, prev, hash"
    )
    return database.execute(f"SELECT {columns} FROM audit WHERE id = {entry_id}").split("|")


def _last(database: Database) -> int:
    return int(database.execute("SELECT MAX(id) FROM audit"))


def _forge(database: Database, entry_id: int, prev: str, user: str) -> None:
    """Insert an entry at ``entry_id`` that chains off ``prev`` with a correct hash of its
    own, as someone who knows how entries are hashed would."""
    record = AuditRecord(1_800_000_000_000, user, "10.6.6.6", "", "DELETE /api/x", None, "[]")
    digest = entry_hash(entry_id, record, prev)
    database.execute(
        'INSERT INTO audit (id, at_ms, "user", address, session, operation, target_kind, '
        "target_id, target_name, changes, outcome, prev, hash) VALUES "
        f"({entry_id}, {record.at_ms}, '{user}', '10.6.6.6', '', 'DELETE /api/x', '', '', "
        f"'', '[]', 'ok', '{prev}', '{digest}')"
    )


@pytest.mark.timeout(120)
def test_verify_finds_an_edited_removed_or_inserted_entry(
    host: ServerProcess, database: Database
) -> None:
    _populate(host, 6)
    host.stop()  # the database is left to the one who tampers with it
    assert _verify(database) == (0, "the audit trail holds\n")
    last = _last(database)
    target = last - 3

    # edited: someone else did it
    database.execute(f"UPDATE audit SET \"user\" = 'nobody' WHERE id = {target}")
    assert _verify(database) == (1, f"the audit trail is broken at entry {target}\n")
    database.execute(f"UPDATE audit SET \"user\" = '{ADMIN}' WHERE id = {target}")
    assert _verify(database)[0] == 0

    # edited, with its own hash made right again: the next entry no longer follows it
    fields = _row(database, target)
    record = AuditRecord(
        int(fields[0]),
        "nobody",
        fields[2],
        fields[3],
        fields[4],
        Target(fields[5], fields[6], fields[7]),
        fields[8],
        fields[9],
    )
    rehashed = entry_hash(target, record, fields[10])
    database.execute(
        f"UPDATE audit SET \"user\" = 'nobody', hash = '{rehashed}' WHERE id = {target}"
    )
    assert _verify(database) == (1, f"the audit trail is broken at entry {target + 1}\n")
    database.execute(
        f"UPDATE audit SET \"user\" = '{ADMIN}', hash = '{fields[11]}' WHERE id = {target}"
    )
    assert _verify(database)[0] == 0

    # removed: named by the id it had
    saved = _row(database, target)
    database.execute(f"DELETE FROM audit WHERE id = {target}")
    assert _verify(database) == (1, f"the audit trail is broken at entry {target}\n")
    _restore(database, target, saved)
    assert _verify(database)[0] == 0

    # removed at the end (the newest entry)
    saved = _row(database, last)
    database.execute(f"DELETE FROM audit WHERE id = {last}")
    assert _verify(database) == (1, f"the audit trail is broken at entry {last}\n")
    _restore(database, last, saved)
    assert _verify(database)[0] == 0

    # inserted after the newest, chained off it with a right hash
    _forge(database, last + 1, _row(database, last)[11], "intruder")
    assert _verify(database) == (1, f"the audit trail is broken at entry {last + 1}\n")
    database.execute(f"DELETE FROM audit WHERE id = {last + 1}")
    assert _verify(database)[0] == 0

    # inserted in the middle: the entries after it moved up one; the first that no
    # longer follows the one before it is named
    for moved in range(last, target, -1):
        database.execute(f"UPDATE audit SET id = {moved + 1} WHERE id = {moved}")
    _forge(database, target + 1, _row(database, target)[11], "intruder")
    assert _verify(database) == (1, f"the audit trail is broken at entry {target + 2}\n")


def _restore(database: Database, entry_id: int, row: list[str]) -> None:
    values = ", ".join(f"'{value}'" for value in row[1:])
    database.execute(
        'INSERT INTO audit (id, at_ms, "user", address, session, operation, target_kind, '
        f"target_id, target_name, changes, outcome, prev, hash) VALUES ({entry_id}, {row[0]}, "
        f"{values})"
    )


def test_verify_without_a_database_says_so(tmp_path: Path) -> None:
    done = tilewall("audit", "verify", "--data-dir", str(tmp_path / "none"))
    assert done.returncode == 2
    assert "no host database" in done.stderr
