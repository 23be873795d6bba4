"""A real PostgreSQL server for tests and benchmarks: a throw-away cluster (``initdb``)
in a temporary directory, served by ``pg_ctl`` on a free port of 127.0.0.1 with its unix
socket inside that directory, with as many databases as wanted (made empty, or copied
from a template database).

Debian's ``postgresql-NN`` packages (``scripts/system-deps`` installs them) put the
binaries under ``/usr/lib/postgresql/NN/bin``, not on PATH; the newest there is used.
PostgreSQL refuses to run as root: as root, the cluster belongs to the ``postgres``
user the package creates, and the server commands run as that user (``runuser``).
The cluster trusts local connections and runs with ``fsync=off``: it exists for one
test session or benchmark run, and its durability is not what is measured.

Nothing here depends on pytest (the tests' fixtures are in tests/support/postgres.py)
nor on the tests (the benchmarks use it too: bench/takeover.py).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SUPERUSER = "postgres"


def find_bin_dir() -> Path | None:
    """The newest ``/usr/lib/postgresql/NN/bin`` holding ``initdb`` and ``pg_ctl``."""

    def version(path: str) -> float:
        try:
            return float(Path(path).parent.name)
        except ValueError:
            return 0.0

    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True):
        if all((Path(folder) / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PostgresServer:
    """One cluster; :meth:`start` it, make databases, :meth:`stop` (and start) it again,
    :meth:`destroy` it."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="tilewall-pg-"))
        self.data = self.root / "cluster"
        self.socket_dir = self.root / "socket"
        self.log = self.root / "server.log"
        self.port = free_port()
        self._serial = itertools.count(1)  # databases may be made from several threads
        #: how long making and starting the cluster took
        self.start_seconds = 0.0
        #: the cluster's owner when running as root (PostgreSQL will not run as root)
        self.owner = pwd.getpwnam(SUPERUSER) if os.geteuid() == 0 else None
        self._chown(self.root)

    def _chown(self, path: Path) -> None:
        if self.owner is not None:
            os.chown(path, self.owner.pw_uid, self.owner.pw_gid)

    def _as_owner(self, command: list[str]) -> list[str]:
        if self.owner is None:
            return command
        runuser = shutil.which("runuser")
        if runuser:
            return [runuser, "-u", SUPERUSER, "--", *command]
        return ["su", SUPERUSER, "-s", "/bin/sh", "-c", shlex.join(command)]

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        command = self._as_owner([str(self.bin_dir / args[0]), *args[1:]])
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            log = self.log.read_text()[-3000:] if self.log.exists() else ""
            raise RuntimeError(
                f"{args[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout}\n{log}"
            )
        return done

    def init(self) -> PostgresServer:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        self.socket_dir.mkdir()
        self._chown(self.socket_dir)
        return self

    def start(self) -> PostgresServer:
        options = " ".join(
            [
                f"-c port={self.port}",
                "-c listen_addresses=127.0.0.1",
                f"-c unix_socket_directories={self.socket_dir}",
                "-c fsync=off",
                "-c max_connections=100",
            ]
        )
        self._run(
            "pg_ctl",
            "start",
            "-w",
            "-t",
            "60",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
        )
        return self

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m MODE``: fast ends every connection and shuts down cleanly."""
        self._run("pg_ctl", "stop", "-w", "-t", "60", "-m", mode, "-D", str(self.data))

    @property
    def running(self) -> bool:
        command = [str(self.bin_dir / "pg_ctl"), "status", "-D", str(self.data)]
        done = subprocess.run(self._as_owner(command), capture_output=True)
        return done.returncode == 0

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run ``sql`` as the superuser over TCP and return what psql printed."""
        done = subprocess.run(
            [
                str(self.bin_dir / "psql"),
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                SUPERUSER,
                "-d",
                database,
                "-c",
                sql,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    @property
    def version(self) -> float:
        """The server's major version (from the folder of its binaries)."""
        try:
            return float(self.bin_dir.parent.name)
        except ValueError:
            return 0.0

    def create_database(self, prefix: str = "t", template: str | None = None) -> str:
        """A new database, empty or a copy of database ``template`` (which nobody may be
        connected to); its URL. A copy is made file by file (PostgreSQL 15's
        ``STRATEGY FILE_COPY``: a third of the CPU of the default, which writes the whole
        copy to the write-ahead log; its checkpoints cost nothing with ``fsync=off``)."""
        name = f"{prefix}_{os.getpid()}_{next(self._serial)}"
        copy = f' TEMPLATE "{template}"' if template else ""
        if template and self.version >= 15:
            copy += " STRATEGY FILE_COPY"
        self.psql(f'CREATE DATABASE "{name}"{copy}')
        return self.url(name)

    def drop_database(self, url_or_name: str) -> None:
        """Drop a database (by name or URL), ending the connections still open to it."""
        name = url_or_name.rsplit("/", 1)[-1]
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def destroy(self) -> None:
        with contextlib.suppress(Exception):
            if self.running:
                self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def start_server(attempts: int = 3) -> PostgresServer:
    """A new cluster, started; a few tries, since a free port can be taken meanwhile."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        raise FileNotFoundError("no PostgreSQL under /usr/lib/postgresql/*/bin")
    began = time.monotonic()
    server = PostgresServer(bin_dir).init()
    for attempt in range(attempts):
        try:
            server.start()
            server.start_seconds = time.monotonic() - began
            return server
        except RuntimeError:
            if attempt == attempts - 1:
                server.destroy()
                raise
            server.port = free_port()
            time.sleep(0.2)
    raise AssertionError("unreachable")
