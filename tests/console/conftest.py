"""The console in a real headless Chromium against a live host with the demo topology.

Contexts bypass the pages' Content-Security-Policy: Playwright's own helpers
(``wait_for_function`` with a string, ``add_style_tag``) are inline code the policy
forbids; that the console itself runs under it is tested in
tests/hardening/test_csp_browser.py.

One host (a subprocess on a free port, fresh data directory, ``--demo``) and one browser
serve every console test; each test gets its own page in a logged-in context.
"""

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from console_helpers import ADMIN, PASSWORD, login

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _chromium() -> str | None:
    return os.environ.get("TILEWALL_CHROMIUM") or shutil.which("chromium")


@pytest.fixture(scope="module")
def host_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("console-host")
    port = _free_port()
    env = {**os.environ, "TILEWALL_ADMIN_USER": ADMIN, "TILEWALL_ADMIN_PASSWORD": PASSWORD}
    log = (data_dir / "serve.log").open("w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from tilewall.cli import main; main()",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data-dir",
            str(data_dir / "data"),
            "--demo",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the host exited: {(data_dir / 'serve.log').read_text()}")
            try:
                r = httpx.post(f"{url}/api/session", json={"user": ADMIN, "password": PASSWORD})
                if r.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the host did not start within 30 s")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def api(host_url: str) -> Iterator[httpx.Client]:
    """A logged-in interface client, to check what the console did."""
    with httpx.Client(base_url=f"{host_url}/api", timeout=10) as client:
        r = client.post("/session", json={"user": ADMIN, "password": PASSWORD})
        assert r.status_code == 200, r.text
        yield client


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    executable = _chromium()
    if executable is None:
        pytest.skip("Chromium is not installed (scripts/system-deps installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def logged_in_context(browser: object, host_url: str) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1024, "height": 768}, bypass_csp=True)  # type: ignore[attr-defined]
    page = context.new_page()
    login(page, host_url)
    page.close()
    yield context
    context.close()


@pytest.fixture
def page(logged_in_context: object) -> Iterator[object]:
    """A page of a logged-in console, 1024x768 (a tablet); page errors fail the test."""
    p = logged_in_context.new_page()  # type: ignore[attr-defined]
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.set_default_timeout(8000)
    yield p
    p.close()
    assert not errors, f"errors in the console page: {errors}"
