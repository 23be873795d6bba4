"""A real server: ``tilewall serve`` in a process of its own on a free port (the one way
every test that needs a process starts one), the same app served in a thread of the test
process, and any ASGI app served on this event loop.

A ``ServerProcess`` runs as an operator runs it: a data directory, the admin's password
in the environment; it is stopped, killed (a crash, a power cut) and started again on
the same data directory and port. ``server.api`` is a logged-in client of its interface.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Self

import httpx
import pytest

from tests.support.http import ADMIN, PASSWORD, Api, login, ok, url
from tests.support.sources import signage_source, streamer_source
from tests.support.waiting import wait_until

#: how long a host may take to start: a few seconds, but the tests run four at a time
#: (``make test``) and a loaded machine takes longer
STARTUP_S = 90.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``tilewall serve`` on ``data_dir``, on a free local port (kept across restarts)."""

    def __init__(
        self,
        data_dir: Path,
        *,
        port: int | None = None,
        demo: bool = False,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        log_path: Path | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.demo = demo
        #: more options of ``tilewall serve`` (``--database URL``, ...)
        self.args = list(args)
        #: more environment of the process
        self.env = dict(env or {})
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path or data_dir.parent / f"{data_dir.name}-server.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.api = self.client(session=False)
        self.api.relogin = True

    @property
    def base(self) -> str:
        """Where the interface is: what a client is pointed at."""
        return f"{self.url}/api"

    def client(self, session: bool = True) -> Api:
        """A new client of the interface (logged in unless ``session`` is false)."""
        api = Api(httpx.Client(base_url=self.base, timeout=15.0))
        if session:
            login(api)
        return api

    # --- the process ----------------------------------------------------------------------

    def start(self, timeout: float = STARTUP_S) -> Self:
        """Start, wait until it serves, log in."""
        self.spawn()
        self.wait_ready(timeout)
        login(self.api)
        return self

    def spawn(self) -> None:
        """Start the process; ``wait_ready`` waits until it serves."""
        env = {
            **os.environ,
            "TILEWALL_ADMIN_USER": ADMIN,
            "TILEWALL_ADMIN_PASSWORD": PASSWORD,
            **self.env,
        }
        # it never acts on the machine, and trusts no licence key
        env.pop("TILEWALL_HOST_MANAGEMENT", None)
        env.pop("TILEWALL_LICENCE_KEYS", None)
        command = [
            sys.executable,
            "-c",
            "import sys; from tilewall.cli import main; sys.exit(main())",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            *(["--demo"] if self.demo else []),
            *self.args,
        ]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)

    def wait_ready(self, timeout: float = STARTUP_S) -> None:
        wait_until(self._ready, timeout, 0.1, "the host to serve")

    def _ready(self) -> bool:
        if not self.alive:
            raise AssertionError(f"the host exited: {self.log()[-2000:]}")
        try:
            return httpx.get(f"{self.url}/receiver/", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, no flushing; as a crash or a power cut."""
        if self.alive:
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """SIGTERM, as an operator stops the service (SIGKILL if it does not end)."""
        if self.alive:
            assert self.process is not None
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self) -> Self:
        """Stop and start again on the same data directory and port."""
        self.stop()
        return self.start()

    def close(self) -> None:
        self.stop()
        self.api.close()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    # --- its interface, for tests with receiver pages -----------------------------------------

    def login(self) -> None:
        """Log the server's own client in (again)."""
        login(self.api)

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        """One request with the server's own client; the response, whatever its status."""
        return self.api.request(method, path, **kwargs)

    def ok(self, method: str, path: str, **kwargs: Any) -> Any:
        """A request that must succeed; the JSON answer (None when empty)."""
        response = self.api.request(method, path, **kwargs)
        assert response.status_code in (200, 201, 204), (
            f"{method} {path}: {response.status_code} {response.text}"
        )
        return response.json() if response.content else None

    def station(self, seat: str) -> dict[str, Any] | None:
        for device in self.ok("GET", "/network")["network"]:
            if device["seatId"] == seat:
                return device
        return None

    def wait_station(
        self, seat: str, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10.0
    ) -> dict[str, Any]:
        def check() -> dict[str, Any] | None:
            device = self.station(seat)
            return device if device is not None and predicate(device) else None

        return wait_until(check, timeout, 0.1, f"station {seat}")

    def lock(self, seat: str) -> int:
        """Lock a receiver (connected or about to be); its display id."""
        device = self.ok("PUT", url("network", seat, "lock"))
        if device.get("displayId") is None:
            device = self.wait_station(seat, lambda d: d.get("displayId") is not None)
        return int(device["displayId"])

    def upload(self, name: str, path: Path) -> None:
        ok(self.api.put(f"/media/{name}", content=path.read_bytes()))

    def signage(self, name: str, files: list[str], interval_s: int = 30) -> str:
        return str(
            signage_source(self.api, name, *files, interval=interval_s, typed=True)["sourceId"]
        )

    def streamer(self, name: str, stream_url: str) -> str:
        return streamer_source(self.api, name, stream_url)


class InProcessServer(ServerProcess):
    """The same app (``make_app``) served by uvicorn in a thread of the test process: it
    starts in a fraction of the time, and its hub can be inspected; it cannot be killed."""

    def __init__(self, data_dir: Path, *, port: int | None = None, demo: bool = False) -> None:
        super().__init__(data_dir, port=port, demo=demo)
        self.app: Any = None
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def spawn(self) -> None:
        import uvicorn

        from tilewall.server import make_app

        self.app = make_app(self.data_dir, demo=self.demo)
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", ws_max_size=1 << 20
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="live-host", daemon=True)
        with pytest.MonkeyPatch.context() as mp:  # the host reads them while it starts
            mp.setenv("TILEWALL_ADMIN_USER", ADMIN)
            mp.setenv("TILEWALL_ADMIN_PASSWORD", PASSWORD)
            self.thread.start()
            wait_until(lambda: self.server.started or not self.alive, STARTUP_S, what="startup")

    def _ready(self) -> bool:
        if not self.alive:
            raise AssertionError("the host thread exited")
        return bool(self.server.started)

    @property
    def alive(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def kill(self) -> None:
        raise NotImplementedError("an in-process host cannot be killed; use ServerProcess")

    def stop(self) -> None:
        if self.alive:
            self.server.should_exit = True
            assert self.thread is not None
            self.thread.join(15)


def running(
    factory: pytest.TempPathFactory, name: str, *, in_process: bool = False, demo: bool = False
) -> Iterator[ServerProcess]:
    """Body of a fixture wider than a test: a server on a fresh data directory, logged in."""
    kind = InProcessServer if in_process else ServerProcess
    server = kind(factory.mktemp(name) / "data", demo=demo)
    try:
        server.start()
        yield server
    finally:
        server.close()


@contextlib.asynccontextmanager
async def serve_asgi(app: Any) -> AsyncIterator[int]:
    """``app`` served by uvicorn on a free port, in this event loop; the port."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    try:
        yield int(server.servers[0].sockets[0].getsockname()[1])
    finally:
        server.should_exit = True
        await task
