"""What the console tests share: the admin's credentials, logging in through the page,
screenshots into test-artifacts/console, and waiting for a condition."""

import time
from pathlib import Path

ADMIN = "admin"
PASSWORD = "console test password"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "console"


def login(page: object, host_url: str, route: str = "#/overview") -> None:
    page.goto(f"{host_url}/{route}")  # type: ignore[attr-defined]
    page.wait_for_selector("#login-title")  # type: ignore[attr-defined]
    page.fill("input[name=user]", ADMIN)  # type: ignore[attr-defined]
    page.fill("input[name=password]", PASSWORD)  # type: ignore[attr-defined]
    page.click("form.login button[type=submit]")  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        "r => location.hash.startsWith(r)", arg=route.split("?")[0]
    )


def shot(page: object, name: str, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if full_page:  # a sticky bar would be drawn in the middle of a long page
        page.add_style_tag(content=".topbar { position: static; }")  # type: ignore[attr-defined]
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)  # type: ignore[attr-defined]


def eventually(check: object, timeout: float = 5.0, page: object = None) -> object:
    """The first truthy answer of ``check()`` within ``timeout`` seconds. Pass the page
    when the answer depends on its route handlers: they run only while Playwright waits."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()  # type: ignore[operator]
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s: {check}")
        if page is not None:
            page.wait_for_timeout(100)  # type: ignore[attr-defined]
        else:
            time.sleep(0.1)
