"""Processes under test: tilewall, the ceiling app and Prism, each started on a free
loopback port, timed until its first answered request, measured, and stopped."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import psutil

from tilewall.client import Client
from tilewall.client.base import COOKIE

BENCH = Path(__file__).resolve().parent
LOOPBACK = "127.0.0.1"
PRISM = BENCH / "node_modules" / ".bin" / "prism"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        port: int = s.getsockname()[1]
        return port


def tilewall_program() -> list[str]:
    """``tilewall`` as a user runs it: the console script of this environment."""
    script = Path(sys.executable).parent / "tilewall"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from tilewall.cli import main; main()"]


def tilewall_command(data_dir: Path, port: int, server: str) -> list[str]:
    """``tilewall serve`` as a user runs it."""
    return [
        *tilewall_program(),
        "serve",
        "--host",
        LOOPBACK,
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        "--server",
        server,
    ]


def ceiling_command(port: int, server: str) -> list[str]:
    return [
        sys.executable,
        str(BENCH / "ceiling_app.py"),
        "--port",
        str(port),
        "--server",
        server,
    ]


def prism_command(document: Path, port: int) -> list[str]:
    return [
        str(PRISM),
        "mock",
        str(document),
        "--host",
        LOOPBACK,
        "--port",
        str(port),
        "--verboseLevel",
        "error",
        "--cors",
        "false",
    ]


def prism_version() -> str:
    if not PRISM.exists():
        return "not installed"
    done = subprocess.run([str(PRISM), "--version"], capture_output=True, text=True, timeout=60)
    return done.stdout.strip() or "unknown"


@dataclass
class Proc:
    """A server process under test."""

    name: str
    command: list[str]
    port: int
    ready_path: str
    log_path: Path
    ready_headers: dict[str, str] = field(default_factory=dict)
    #: environment beside this process's own
    env: dict[str, str] = field(default_factory=dict)
    popen: subprocess.Popen[bytes] | None = None
    startup_s: float = 0.0
    _log: IO[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def start(self, timeout_s: float = 60.0) -> float:
        """Start and wait for the first answered request; seconds from spawn to answer."""
        env = {**os.environ, **self.env}
        env.setdefault("SCARF_ANALYTICS", "false")
        # as installed: a wheel's modules are compiled when installed, so an environment
        # that asks not to write bytecode would time compiling the whole host at start-up
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        self._log = self.log_path.open("wb")
        started = time.perf_counter()
        self.popen = subprocess.Popen(
            self.command,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
        deadline = started + timeout_s
        with httpx.Client(timeout=5.0) as client:
            while True:
                if self.popen.poll() is not None:
                    raise RuntimeError(f"{self.name} exited early; log: {self.log_tail()}")
                try:
                    r = client.get(self.base_url + self.ready_path, headers=self.ready_headers)
                    if r.status_code < 500:
                        break
                except httpx.TransportError:
                    pass
                if time.perf_counter() > deadline:
                    self.stop()
                    raise RuntimeError(f"{self.name} did not answer within {timeout_s}s")
                time.sleep(0.005)
        self.startup_s = time.perf_counter() - started
        return self.startup_s

    def rss_bytes(self) -> int:
        """Resident memory of the process and its children."""
        if self.popen is None:
            return 0
        try:
            proc = psutil.Process(self.popen.pid)
            total = int(proc.memory_info().rss)
            for child in proc.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    total += int(child.memory_info().rss)
            return total
        except psutil.Error:
            return 0

    def settle(self, max_s: float = 20.0, busy_percent: float = 10.0) -> float:
        """Wait until the process is idle again: when wrk stops, requests it abandoned may
        still be queued, and their work must not leak into the next measurement."""
        if self.popen is None:
            return 0.0
        started = time.perf_counter()
        with contextlib.suppress(psutil.Error):
            proc = psutil.Process(self.popen.pid)
            while time.perf_counter() - started < max_s:
                if proc.cpu_percent(interval=0.15) < busy_percent:
                    break
        return time.perf_counter() - started

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self) -> None:
        """Stop this process (and what it started) by its own process group."""
        popen = self.popen
        if popen is None:
            return
        if popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(popen.pid, signal.SIGTERM)
            try:
                popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(popen.pid, signal.SIGKILL)
                popen.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None
        self.popen = None

    def __enter__(self) -> Proc:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def tilewall_proc(
    seed_dir: Path, work_dir: Path, server: str, label: str, copy: bool = True
) -> Proc:
    """tilewall on a copy of a seeded data directory (so runs never share state)."""
    data_dir = work_dir / f"data-{label}"
    if copy:
        if data_dir.exists():
            shutil.rmtree(data_dir)
        shutil.copytree(seed_dir, data_dir)
    port = free_port()
    return Proc(
        f"tilewall-{label}",
        tilewall_command(data_dir, port, server),
        port,
        "/api/openapi.json",
        work_dir / f"log-tilewall-{label}.txt",
    )


def ceiling_proc(work_dir: Path, server: str, label: str) -> Proc:
    port = free_port()
    return Proc(
        f"ceiling-{label}",
        ceiling_command(port, server),
        port,
        "/api/ping",
        work_dir / f"log-ceiling-{label}.txt",
    )


def prism_proc(document: Path, work_dir: Path, cookie: str) -> Proc:
    port = free_port()
    return Proc(
        "prism",
        prism_command(document, port),
        port,
        "/api/sources",
        work_dir / "log-prism.txt",
        ready_headers={"Cookie": cookie},
    )


@contextlib.contextmanager
def running(procs: list[Proc]) -> Iterator[list[Proc]]:
    """Start the processes side by side (their start-up is not what is measured here)."""
    try:
        with ThreadPoolExecutor(max_workers=max(len(procs), 1)) as pool:
            for future in [pool.submit(proc.start) for proc in procs]:
                future.result()
        yield procs
    finally:
        for proc in procs:
            proc.stop()


def session_id(base_url: str, user: str, password: str) -> str:
    """Log in once; the id of the session (it stays open for the run)."""
    with Client(base_url, user, password) as client:
        return str(client.login()["session"]["value"])


def login(base_url: str, user: str, password: str) -> str:
    """Log in once; the session cookie wrk sends with every request."""
    return f"{COOKIE}={session_id(base_url, user, password)}"


def run_receivers(config: dict[str, Any], path: Path, budget_s: float) -> dict[str, Any]:
    """Run ``bench/wsclients.py`` (the receivers, a process of their own) on ``config``,
    written to ``path``; its results, or ``{"error": ...}`` if it failed."""
    path.write_text(json.dumps(config))
    done = subprocess.run(
        [sys.executable, str(BENCH / "wsclients.py"), str(path)],
        capture_output=True,
        text=True,
        timeout=budget_s,
    )
    if done.returncode != 0 or not done.stdout.strip():
        return {"error": f"client failed: {done.stderr[-1500:]}"}
    result: dict[str, Any] = json.loads(done.stdout)
    return result
