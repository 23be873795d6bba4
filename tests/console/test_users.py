"""The console's Users screen in a real headless Chromium, against a real host: an
administrator adds an operator with a scope, changes a role, disables a user; a viewer
and an operator are not offered the screens and buttons their role cannot use."""

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import CONSOLE_ARGS, chromium, console_login, console_page
from tests.support.server import ServerProcess, running
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser]

ROWS = "table[aria-label='Users'] tbody tr"


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from running(tmp_path_factory, "console-users")


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from chromium(CONSOLE_ARGS)


def log_in_as(page: Any, host: ServerProcess, user: str, password: str, route: str) -> None:
    console_login(page, host.url, route, user, password)
    page.wait_for_selector("#whoami:not(:empty)")


def test_an_administrator_manages_users(browser: Any, host: ServerProcess) -> None:
    wall = host.ok("POST", "/videowalls", json={"name": "Lobby wall", "monitors": []})
    host.ok("POST", "/zones", json={"zoneName": "Lobby", "videowallId": wall["id"]})
    page, errors = console_page(browser)
    console_login(page, host.url, "#/users")
    page.wait_for_selector(f"{ROWS} >> nth=0")
    form = page.get_by_role("form", name="Add a user")
    form.locator("input[name=userName]").fill("desk")
    form.locator("input[name=password]").fill("desk-password")
    form.locator("select[name=role]").select_option("operator")
    form.locator("input[name=zones]").fill("Lobby")
    form.get_by_role("button", name="Add user").click()
    page.wait_for_selector(f"{ROWS}[data-user=desk]")
    zone = host.ok("GET", "/zones")["zones"][0]["zoneId"]
    made = host.ok("GET", "/users/desk")
    assert (made["role"], made["scope"]["zones"]) == ("operator", [zone])
    assert zone in page.locator(f"{ROWS}[data-user=desk]").inner_text()

    page.get_by_label("Role of desk").select_option("viewer")
    # the toast of the addition may still show: wait for the host to have the new role
    wait_until(lambda: host.ok("GET", "/users/desk")["role"] == "viewer", what="desk a viewer")
    page.get_by_role("button", name="Disable desk").click()
    page.wait_for_selector(f"{ROWS}[data-user=desk] >> text=(disabled)")
    assert host.ok("GET", "/users/desk")["disabled"] is True
    host.ok("PUT", "/users/desk", json={"disabled": False})
    assert not errors, errors


def test_a_viewer_is_not_offered_what_it_cannot_use(browser: Any, host: ServerProcess) -> None:
    host.ok(
        "POST", "/users", json={"userName": "lobby", "password": "lobby-password", "role": "viewer"}
    )
    page, errors = console_page(browser)
    log_in_as(page, host, "lobby", "lobby-password", "#/presets")
    assert page.locator("#whoami").inner_text() == "lobby (viewer)"
    nav = page.get_by_role("navigation", name="Main")
    assert nav.get_by_role("link", name="Presets").is_visible()
    for hidden in ("Users", "Walls", "Sources", "Settings", "Audit"):
        assert nav.get_by_role("link", name=hidden).is_hidden(), hidden
    assert page.get_by_role("button", name="Save current state").is_hidden()
    page.goto(f"{host.url}/#/alerts")
    page.wait_for_selector("h1")
    assert page.get_by_role("button", name="Broadcast alert").is_hidden()
    page.goto(f"{host.url}/#/users")
    page.wait_for_selector("text=is for administrators")
    assert page.locator("table[aria-label='Users']").count() == 0
    assert not errors, errors


def test_an_operator_is_offered_playback_not_configuration(
    browser: Any, host: ServerProcess
) -> None:
    body = {"userName": "ops", "password": "ops-password", "role": "operator"}
    host.ok("POST", "/users", json=body)
    page, errors = console_page(browser)
    log_in_as(page, host, "ops", "ops-password", "#/alerts")
    page.wait_for_selector("h1")
    assert page.get_by_role("button", name="Broadcast alert").is_visible()
    assert page.get_by_role("button", name="☾ Sleep (DPMS off)").is_hidden()
    nav = page.get_by_role("navigation", name="Main")
    assert nav.get_by_role("link", name="Schedule").is_visible()
    assert nav.get_by_role("link", name="Users").is_hidden()
    assert not errors, errors
