"""The console's Audit screen in a real headless Chromium, against a real host: the
entries of changes made through the interface, newest first, filtered, a page at a time,
whether they verify, and the CSV download."""

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import CONSOLE_ARGS, chromium, console_login, console_page
from tests.support.http import ADMIN
from tests.support.server import ServerProcess, running
from tests.support.sources import WEB, source_body

pytestmark = [pytest.mark.browser]

ROWS = "table[aria-label='Audit entries'] tbody tr"


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from running(tmp_path_factory, "console-audit")


@pytest.fixture
def page(host: ServerProcess) -> Iterator[Any]:
    for browser in chromium(CONSOLE_ARGS):
        p, errors = console_page(browser, accept_downloads=True)
        console_login(p, host.url, "#/audit")
        yield p
        p.context.close()
        assert not errors, errors


def test_the_screen_shows_filters_pages_and_downloads_the_entries(
    page: Any, host: ServerProcess
) -> None:
    made = [
        host.ok("POST", "/sources", json=source_body(WEB, f"Page {n}", URL="https://e.org/"))
        for n in range(101)
    ]
    renamed = made[0]["sourceId"]
    host.ok("PUT", f"/sources/{renamed}", json=source_body(WEB, "Lobby", URL="https://e.org/"))

    page.locator("input[name=operation]").fill("PUT /api/sources/{sourceId}")
    page.get_by_role("button", name="Show").click()
    # the screen showed the latest entries before the filter: wait for the filtered page
    page.wait_for_function(f'document.querySelectorAll("{ROWS}").length === 1')
    rows = page.locator(ROWS)
    text = rows.nth(0).inner_text()
    assert ADMIN in text and "source Lobby" in text
    rows.nth(0).locator("summary").click()
    assert "Page 0 → Lobby" in rows.nth(0).locator("details").inner_text()
    status = page.get_by_role("status").filter(has_text="newest first")
    assert status.get_attribute("data-verified") == "true"
    assert "verifies" in status.inner_text()

    # every creation: a page of 100, then the older ones
    page.locator("input[name=operation]").fill("POST /api/sources")
    page.get_by_role("button", name="Show").click()
    page.wait_for_function(f'document.querySelectorAll("{ROWS}").length === 100')
    shown = [rows.nth(n).get_attribute("data-id") for n in range(100)]
    assert shown == sorted(shown, key=int, reverse=True)
    page.get_by_role("button", name="Older entries").click()
    page.wait_for_function(f'document.querySelectorAll("{ROWS}").length === 101')
    assert page.get_by_role("button", name="Older entries").is_hidden()
    assert "Page 0" in rows.nth(100).inner_text()

    with page.expect_download() as caught:
        page.get_by_role("link", name="Download CSV").click()
    download = caught.value
    assert download.suggested_filename == "audit.csv"
    text = Path(download.path()).read_text(encoding="utf-8")
    listed = list(csv.DictReader(io.StringIO(text)))
    assert len(listed) == 101 and {r["operation"] for r in listed} == {"POST /api/sources"}
