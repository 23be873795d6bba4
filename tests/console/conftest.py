"""The console in a real headless Chromium against a live host with the demo topology.

One host (a server process on a free port, a fresh data directory, ``--demo``) and one
browser serve every console test of a module; each test gets its own page in a
logged-in context.
"""

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import CONSOLE_ARGS, CONSOLE_VIEWPORT, chromium, console_login
from tests.support.http import Api
from tests.support.server import ServerProcess, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from running(tmp_path_factory, "console-host", demo=True)


@pytest.fixture(scope="module")
def host_url(server: ServerProcess) -> str:
    return server.url


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Api:
    """A logged-in interface client, to check what the console did."""
    return server.api


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(CONSOLE_ARGS)


@pytest.fixture(scope="module")
def logged_in_context(browser: Any, host_url: str) -> Iterator[Any]:
    context = browser.new_context(viewport=CONSOLE_VIEWPORT)
    page = context.new_page()
    console_login(page, host_url)
    page.close()
    yield context
    context.close()


@pytest.fixture
def page(logged_in_context: Any) -> Iterator[Any]:
    """A page of a logged-in console, 1024x768 (a tablet); page errors fail the test.
    Its waits allow for a machine loaded by the other tests running beside it."""
    p = logged_in_context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.set_default_timeout(20_000)
    yield p
    p.close()
    assert not errors, f"errors in the console page: {errors}"
