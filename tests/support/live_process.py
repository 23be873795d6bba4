"""Child processes for the live test sources: each in a process group of its own, ended
with TERM then KILL (or KILL at once, as a crash), reaped, startable again on its ports."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

HERE = Path(__file__).resolve().parent


def free_port(kind: int = socket.SOCK_STREAM, pair: bool = False) -> int:
    """A port free on 127.0.0.1 now (``pair``: an even one whose successor is free too)."""
    while True:
        with socket.socket(socket.AF_INET, kind) as sock:
            sock.bind(("127.0.0.1", 0))
            port: int = sock.getsockname()[1]
        if not pair:
            return port
        if port % 2 == 0 and port < 65535 and port_free(port + 1, kind):
            return port


def port_free(port: int, kind: int) -> bool:
    with socket.socket(socket.AF_INET, kind) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return False
            raise
    return True


def listening(port: int) -> bool:
    """True if a socket listens on TCP ``port``. Unlike a failed bind, a connection of the
    last run left in TIME_WAIT does not count: a server started again is ready only once
    it listens itself."""
    wanted = f":{port:04X}"
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError), open(table) as rows:
            for row in rows:
                fields = row.split()
                # local address, remote address, state; 0A is LISTEN
                if fields[1].endswith(wanted) and fields[3] == "0A":
                    return True
    return False


def wait_for(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} not within {timeout} s")
        time.sleep(0.05)


class Child:
    """A child process in a process group of its own (so its children end with it)."""

    name = "child"

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        # stderr of every run, kept for the messages of failures until the source is done
        self._log = tempfile.NamedTemporaryFile(prefix=f"tilewall-{self.name}-", suffix=".log")  # noqa: SIM115

    def command(self) -> list[str]:
        raise NotImplementedError

    def ready(self) -> bool:
        """True once the process serves (polled after start)."""
        return True

    def start(self, timeout: float = 15) -> None:
        if self.running:
            return
        self.process = subprocess.Popen(
            self.command(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._log,
            start_new_session=True,
            cwd=HERE,
        )
        self._started()
        try:
            wait_for(lambda: self._alive_or_fail() and self.ready(), timeout, f"{self.name} ready")
        except BaseException:
            self.stop()
            raise

    def _started(self) -> None:
        """Hook: the process has just started."""

    def _alive_or_fail(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"{self.name} ended ({self.process.returncode}): {self.log()}")
        return True

    def log(self) -> str:
        """What the process wrote on stderr (its last lines)."""
        self._log.flush()
        return Path(self._log.name).read_text(errors="replace")[-2000:]

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def _signal(self, sig: int) -> None:
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)

    def stop(self, timeout: float = 5) -> None:
        """Ends the process group: TERM, then KILL after ``timeout``; reaps the process."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self.process.wait()
        self._signal(signal.SIGKILL)  # anything of its group still left
        self._close()

    def kill(self) -> None:
        """Ends the process group at once, as a crash or a pulled cable would."""
        if self.process is None:
            return
        self._signal(signal.SIGKILL)
        self.process.wait()
        self._close()

    def _close(self) -> None:
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def __enter__(self) -> Any:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
        self._log.close()
