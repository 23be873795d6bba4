"""A real tilewall host in a subprocess, driven over HTTP, with receiver pages in Chromium.

Used by the ``test_live_*`` modules: each starts its own host (``tilewall serve`` on a free
port and a fresh data directory) so that killing and restarting it is what an operator
would see. Pages run in Debian's Chromium through Playwright's sync API.
"""

import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image

ADMIN = "admin"
PASSWORD = "live receivers 1"
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
DEMO_MEDIA = ROOT / "src" / "tilewall" / "demo_media"

#: Debian's chromium (never a downloaded browser); TILEWALL_CHROMIUM overrides
CHROMIUM = Path(os.environ.get("TILEWALL_CHROMIUM") or shutil.which("chromium") or "chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]
#: small screens keep screenshots cheap; 16:9 like the monitors of the walls
VIEWPORT = {"width": 640, "height": 360}

RED = (229, 57, 53)
GREEN = (67, 160, 71)
BLUE = (30, 136, 229)
YELLOW = (253, 216, 53)
BLACK = (0, 0, 0)

needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(
    predicate: Callable[[], Any], timeout: float = 10.0, interval: float = 0.1, what: str = ""
) -> Any:
    """Poll ``predicate`` until it returns something truthy; that value is returned."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or predicate}")
        time.sleep(interval)


class LiveHost:
    """``tilewall serve`` in a subprocess, and a logged-in client for its interface."""

    def __init__(self, data_dir: Path, port: int | None = None) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = data_dir.parent / f"{data_dir.name}-server.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.http = httpx.Client(base_url=f"{self.url}/api", timeout=15.0)

    # --- process ----------------------------------------------------------------------

    def start(self) -> None:
        self.spawn()
        self.wait_ready()

    def spawn(self) -> None:
        """Start the host process; ``wait_ready`` waits until it serves."""
        env = {**os.environ, "TILEWALL_ADMIN_USER": ADMIN, "TILEWALL_ADMIN_PASSWORD": PASSWORD}
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
        ]
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        log.close()

    def wait_ready(self) -> None:
        wait_until(self._ready, timeout=40, interval=0.1, what="the host to serve")

    def _ready(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"the host exited: {self.log()[-2000:]}")
        try:
            return httpx.get(f"{self.url}/receiver/", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False

    def kill(self) -> None:
        """Stop the host at once, as a crash or power cut would."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.http.close()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    # --- interface --------------------------------------------------------------------

    def login(self) -> None:
        response = self.http.post("/session", json={"user": ADMIN, "password": PASSWORD})
        assert response.status_code == 200, response.text
        self.http.cookies.set("JSESSIONID", response.json()["session"]["value"])

    def call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        response = self.http.request(method, path, **kwargs)
        if response.status_code == 401:
            self.login()
            response = self.http.request(method, path, **kwargs)
        return response

    def ok(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.call(method, path, **kwargs)
        assert response.status_code in (200, 201, 204), (
            f"{method} {path}: {response.status_code} {response.text}"
        )
        return response.json() if response.content else None

    def station(self, seat: str) -> dict[str, Any] | None:
        for device in self.ok("GET", "/network")["network"]:
            if device["seatId"] == seat:
                return device  # type: ignore[no-any-return]
        return None

    def wait_station(
        self, seat: str, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10.0
    ) -> dict[str, Any]:
        def check() -> dict[str, Any] | None:
            device = self.station(seat)
            return device if device is not None and predicate(device) else None

        return wait_until(check, timeout, 0.1, f"station {seat}")  # type: ignore[no-any-return]

    def lock(self, seat: str) -> int:
        device = self.ok("PUT", f"/network/{seat}/lock")
        if device.get("displayId") is None:
            device = self.wait_station(seat, lambda d: d.get("displayId") is not None)
        return int(device["displayId"])

    def upload(self, name: str, path: Path) -> None:
        self.ok("PUT", f"/media/{name}", content=path.read_bytes())

    def signage(self, name: str, files: list[str], interval_s: int = 30) -> str:
        entries = [{"type": "file", "name": f, "value": f} for f in files]
        params = [
            {"type": "FILE_DIR_SELECT", "paramName": "Media", "paramValue": json.dumps(entries)},
            {"type": "NUMBER", "paramName": "Slide Interval", "paramValue": str(interval_s)},
        ]
        body = {"sourceName": name, "sourceType": "Signage Player", "params": params}
        return str(self.ok("POST", "/sources", json=body)["sourceId"])

    def streamer(self, name: str, url: str) -> str:
        params = [{"type": "URL", "paramName": "URL", "paramValue": url}]
        body = {"sourceName": name, "sourceType": "Network Streamer", "params": params}
        return str(self.ok("POST", "/sources", json=body)["sourceId"])


class InProcessHost(LiveHost):
    """The same app (``make_app``) served by uvicorn in a thread of the test process:
    it starts in a fraction of the time, and its hub can be inspected."""

    def __init__(self, data_dir: Path, port: int | None = None) -> None:
        super().__init__(data_dir, port)
        self.app: Any = None
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def spawn(self) -> None:
        import uvicorn

        from tilewall.server import make_app

        self.app = make_app(self.data_dir)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=1024 * 1024,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="live-host", daemon=True)
        saved = {k: os.environ.get(k) for k in ("TILEWALL_ADMIN_USER", "TILEWALL_ADMIN_PASSWORD")}
        os.environ.update(TILEWALL_ADMIN_USER=ADMIN, TILEWALL_ADMIN_PASSWORD=PASSWORD)
        try:
            self.thread.start()
            wait_until(lambda: self.server.started or not self.alive, 40, what="startup")
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

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
        raise NotImplementedError("an in-process host cannot be killed; use LiveHost")

    def stop(self) -> None:
        if self.alive:
            self.server.should_exit = True
            assert self.thread is not None
            self.thread.join(15)
        self.http.close()


def serve(
    tmp_path_factory: pytest.TempPathFactory, name: str, in_process: bool = False
) -> Iterator[LiveHost]:
    """Body of a module fixture: a host on a fresh data directory, logged in."""
    kind = InProcessHost if in_process else LiveHost
    host = kind(tmp_path_factory.mktemp(name) / "data")
    host.start()
    try:
        host.login()
        yield host
    finally:
        host.stop()


def chromium() -> Iterator[Any]:
    """Body of a module fixture: one headless Chromium for all pages of a module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


# --- receiver pages ------------------------------------------------------------------------


def open_receiver(context: Any, host: LiveHost, seat: str) -> Any:
    """A receiver page as station ``seat``, once it is connected."""
    page = context.new_page()
    page.goto(f"{host.url}/receiver/?seat={seat}")
    wait_connected(page)
    return page


def wait_connected(page: Any, timeout_s: float = 10.0) -> None:
    page.wait_for_function(
        "() => window.tilewall && window.tilewall.connected", timeout=timeout_s * 1000
    )


def tw(page: Any, expression: str) -> Any:
    """Evaluate ``expression`` against the page's ``window.tilewall`` (named ``t``)."""
    return page.evaluate(f"() => {{ const t = window.tilewall; return {expression}; }}")


def screenshot(page: Any, name: str | None = None) -> Image.Image:
    data = page.screenshot()
    if name:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"{name}.png").write_bytes(data)
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(colour: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def centre(image: Image.Image) -> tuple[int, int, int]:
    return image.getpixel((image.width // 2, image.height // 2))  # type: ignore[return-value]


def wait_colour(
    page: Any,
    expected: tuple[int, int, int],
    at: Callable[[Image.Image], tuple[int, int, int]] = centre,
    name: str = "shot",
    timeout: float = 10.0,
) -> Image.Image:
    """Screenshots until the pixel ``at`` picks is ``expected``; the last one is kept."""
    deadline = time.monotonic() + timeout
    while True:
        image = screenshot(page)
        colour = at(image)
        if near(colour, expected):
            screenshot(page, name)
            return image
        if time.monotonic() > deadline:
            screenshot(page, name)
            raise AssertionError(f"{name}: pixel is {colour}, expected about {expected}")
        time.sleep(0.2)


def rig(
    tmp_path_factory: pytest.TempPathFactory, name: str, in_process: bool = False
) -> Iterator[tuple[LiveHost, Any]]:
    """Body of a module fixture: a logged-in host and a browser context for its pages.
    Chromium starts while the host boots."""
    kind = InProcessHost if in_process else LiveHost
    host = kind(tmp_path_factory.mktemp(name) / "data")
    host.spawn()
    try:
        for browser in chromium():
            host.wait_ready()
            host.login()
            context = browser.new_context(viewport=VIEWPORT)
            yield host, context
            context.close()
    finally:
        host.stop()
