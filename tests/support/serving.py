"""A real ``tilewall serve`` in a subprocess for the hardening tests: any options
(TLS, a data directory restored from a backup, ...), its output kept for reading."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ADMIN = "admin"
PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Served:
    """``tilewall serve --host 127.0.0.1 --port PORT --data-dir DATA_DIR *args``."""

    def __init__(
        self,
        data_dir: Path,
        *args: str,
        env: dict[str, str] | None = None,
        command: list[str] | None = None,
        bind: str = "127.0.0.1",
    ) -> None:
        self.data_dir = data_dir
        self.args = list(args)
        self.port = free_port()
        self.bind = bind
        self.env = {
            **os.environ,
            "TILEWALL_ADMIN_USER": ADMIN,
            "TILEWALL_ADMIN_PASSWORD": PASSWORD,
            **(env or {}),
        }
        for name in ("TILEWALL_HOST_MANAGEMENT", "TILEWALL_LICENCE_KEYS", "TILEWALL_DATABASE"):
            if env is None or name not in env:
                self.env.pop(name, None)
        self.command = command or [sys.executable, "-c", "from tilewall.cli import main; main()"]
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir.parent / f"serve-{self.port}.log"
        self.scheme = "https" if any(a.startswith("--tls") for a in self.args) else "http"

    @property
    def origin(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    @property
    def base(self) -> str:
        return f"{self.origin}/api"

    def output(self) -> str:
        if not self.log_path.exists():
            return ""
        return self.log_path.read_bytes().decode(errors="replace")

    def start(self, timeout: float = 60.0, verify: Any = False) -> Served:
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as out:
            self.proc = subprocess.Popen(
                [
                    *self.command,
                    "serve",
                    "--host",
                    self.bind,
                    "--port",
                    str(self.port),
                    "--data-dir",
                    str(self.data_dir),
                    *self.args,
                ],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.output()[-3000:]}")
            try:
                httpx.get(f"{self.base}/openapi.json", timeout=2.0, verify=verify)
                return self
            except httpx.TransportError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"server did not start in time: {self.output()[-3000:]}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def __enter__(self) -> Served:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


def logged_in(base: str, **kwargs: Any) -> httpx.Client:
    """An httpx client on ``base`` holding a session of the admin."""
    client = httpx.Client(base_url=base, timeout=15, **kwargs)
    response = client.post("/session", json={"user": ADMIN, "password": PASSWORD})
    response.raise_for_status()
    client.cookies.clear()
    client.cookies.set("JSESSIONID", response.json()["session"]["value"])
    return client
