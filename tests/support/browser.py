"""Real headless Chromium (Debian's ``chromium`` through Playwright's sync API, never a
downloaded browser): launching it, console pages logged in, receiver pages, screenshots
and the colours in them."""

from __future__ import annotations

import io
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.http import ADMIN, PASSWORD, login
from tests.support.server import InProcessServer, ServerProcess

ROOT = Path(__file__).resolve().parents[2]
#: screenshots kept for people to look at
ARTIFACTS = ROOT / "test-artifacts"
CONSOLE_ARTIFACTS = ARTIFACTS / "console"

#: Debian's chromium; TILEWALL_CHROMIUM overrides
CHROMIUM = os.environ.get("TILEWALL_CHROMIUM") or shutil.which("chromium")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None or not Path(CHROMIUM).exists(), reason="needs Debian's chromium"
)
#: console pages
CONSOLE_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: receiver pages play what they are told to without a user's gesture, as a kiosk does
ARGS = [*CONSOLE_ARGS, "--autoplay-policy=no-user-gesture-required"]
#: receiver pages: small screens keep screenshots cheap; 16:9 like the monitors of walls
VIEWPORT = {"width": 640, "height": 360}
#: console pages: a tablet
CONSOLE_VIEWPORT = {"width": 1024, "height": 768}

# the quadrants of the demo's quadrants.png: top left, top right, bottom left, bottom right
RED = (229, 57, 53)
GREEN = (67, 160, 71)
BLUE = (30, 136, 229)
YELLOW = (253, 216, 53)
BLACK = (0, 0, 0)


def chromium(args: list[str] = ARGS) -> Iterator[Any]:
    """Body of a fixture: one headless Chromium (skips the test without one)."""
    if CHROMIUM is None or not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (scripts/system-deps installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        bypass_page_policy(browser)
        try:
            yield browser
        finally:
            browser.close()


def bypass_page_policy(browser: Any) -> None:
    """New contexts and pages of ``browser`` bypass the pages' Content-Security-Policy:
    Playwright's own helpers (``wait_for_function`` with a string, ``add_style_tag``)
    are inline code the policy forbids. That the pages themselves run under it is tested
    in tests/console/test_csp.py."""
    for name in ("new_context", "new_page"):
        original = getattr(browser, name)

        def bypassing(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            kwargs.setdefault("bypass_csp", True)
            return _original(*args, **kwargs)

        setattr(browser, name, bypassing)


def rig(
    factory: pytest.TempPathFactory,
    name: str,
    in_process: bool = False,
    args: list[str] = ARGS,
) -> Iterator[tuple[ServerProcess, Any]]:
    """Body of a module fixture: a logged-in server and a browser context for receiver
    pages (Chromium started with ``args``). Chromium starts while the server boots."""
    kind = InProcessServer if in_process else ServerProcess
    server = kind(factory.mktemp(name) / "data")
    server.spawn()
    try:
        for browser in chromium(args):
            server.wait_ready()
            login(server.api)
            context = browser.new_context(viewport=VIEWPORT)
            yield server, context
            context.close()
    finally:
        server.close()


# --- console pages ------------------------------------------------------------------------


def console_login(
    page: Any,
    host_url: str,
    route: str = "#/overview",
    user: str = ADMIN,
    password: str = PASSWORD,
) -> None:
    """Log in through the console's login page (as the administrator unless ``user``
    says otherwise); back on ``route``."""
    page.goto(f"{host_url}/{route}")
    page.wait_for_selector("#login-title")
    page.fill("input[name=user]", user)
    page.fill("input[name=password]", password)
    page.click("form.login button[type=submit]")
    page.wait_for_function("r => location.hash.startsWith(r)", arg=route.split("?")[0])


def console_page(browser: Any, **context: Any) -> tuple[Any, list[str]]:
    """A page of the console's size in a context of its own (``context``: more of its
    options), and the list its page errors are put in."""
    errors: list[str] = []
    page = browser.new_context(viewport=CONSOLE_VIEWPORT, **context).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(8000)
    return page, errors


def shot(page: Any, name: str, full_page: bool = False) -> None:
    """A screenshot of a console page, kept under test-artifacts/console."""
    CONSOLE_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if full_page:  # a sticky bar would be drawn in the middle of a long page
        page.add_style_tag(content=".topbar { position: static; }")
    page.screenshot(path=str(CONSOLE_ARTIFACTS / f"{name}.png"), full_page=full_page)


# --- receiver pages -----------------------------------------------------------------------


def open_receiver(context: Any, server: ServerProcess, seat: str) -> Any:
    """A receiver page as station ``seat``, once it is connected."""
    page = context.new_page()
    page.goto(f"{server.url}/receiver/?seat={seat}")
    wait_connected(page)
    return page


def wait_connected(page: Any, timeout_s: float = 10.0) -> None:
    page.wait_for_function(
        "() => window.tilewall && window.tilewall.connected", timeout=timeout_s * 1000
    )


def tw(page: Any, expression: str) -> Any:
    """Evaluate ``expression`` against the page's ``window.tilewall`` (named ``t``)."""
    return page.evaluate(f"() => {{ const t = window.tilewall; return {expression}; }}")


# --- pixels -------------------------------------------------------------------------------


def screenshot(page: Any, name: str | None = None) -> Any:
    """The page as a Pillow image (kept under test-artifacts when named)."""
    from PIL import Image

    data = page.screenshot()
    if name:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"{name}.png").write_bytes(data)
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(colour: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def centre(image: Any) -> tuple[int, int, int]:
    return image.getpixel((image.width // 2, image.height // 2))


def colour_at(page: Any, x: float, y: float) -> tuple[int, int, int]:
    """The colour of the page at (``x``, ``y``), fractions of its width and height."""
    image = screenshot(page)
    return image.getpixel((int(image.width * x), int(image.height * y)))


def wait_colour(
    page: Any,
    expected: tuple[int, int, int],
    at: Callable[[Any], tuple[int, int, int]] = centre,
    name: str = "shot",
    timeout: float = 10.0,
) -> Any:
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
