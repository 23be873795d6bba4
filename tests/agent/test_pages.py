"""Receiver pages in Chromium: two tabs of one browser are two stations; a page replaced
by a newer connection for its seat says so and stays replaced; a locked page keeps its
station key and another browser with the same seat id is refused."""

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.browser import CHROMIUM, chromium, tw, wait_connected
from tests.support.http import ADMIN, PASSWORD
from tests.support.server import ServerProcess
from tests.support.waiting import wait_until
from tilewall import __version__

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM, reason="needs Debian's chromium"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def seats_online(host: ServerProcess) -> set[str]:
    return {d["seatId"] for d in host.ok("GET", "/network")["network"] if d["isOnline"]}


def test_two_tabs_are_two_stations(host: ServerProcess, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 180})
    try:
        first = context.new_page()
        first.goto(f"{host.url}/receiver/")
        wait_connected(first)
        second = context.new_page()
        second.goto(f"{host.url}/receiver/")
        wait_connected(second)
        seat_1, seat_2 = tw(first, "t.seatId"), tw(second, "t.seatId")
        assert seat_1 != seat_2
        wait_until(lambda: {seat_1, seat_2} <= seats_online(host), 10)
        # they do not take a seat from each other: both stay connected, nobody replaced
        time.sleep(3)
        for page in (first, second):
            assert tw(page, "t.connected") and not tw(page, "t.replaced")
        assert {seat_1, seat_2} <= seats_online(host)
        assert "its older connection is replaced" not in host.log()

        # a reload keeps each tab's seat; a tab opened later gets a third
        second.reload()
        wait_connected(second)
        assert tw(second, "t.seatId") == seat_2
        third = context.new_page()
        third.goto(f"{host.url}/receiver/")
        wait_connected(third)
        assert tw(third, "t.seatId") not in (seat_1, seat_2)
    finally:
        context.close()

    # the browser starts again with two tabs: the same two stations come back
    context = browser.new_context(viewport={"width": 320, "height": 180})
    try:
        pages = [context.new_page() for _ in range(2)]
        for page in pages:
            page.goto(f"{host.url}/receiver/")
        # a fresh context has fresh storage: two new stations, still two and distinct
        for page in pages:
            wait_connected(page)
        assert len({tw(p, "t.seatId") for p in pages}) == 2
    finally:
        context.close()


def test_a_replaced_page_stays_replaced(host: ServerProcess, browser: Any) -> None:
    old = browser.new_context(viewport={"width": 320, "height": 180})
    new = browser.new_context(viewport={"width": 320, "height": 180})
    try:
        first = old.new_page()
        first.goto(f"{host.url}/receiver/?seat=lobby-twin")
        wait_connected(first)
        second = new.new_page()
        second.goto(f"{host.url}/receiver/?seat=lobby-twin")
        wait_connected(second)
        first.wait_for_function("() => tilewall.replaced", timeout=10_000)
        notice = first.locator("#notice")
        assert notice.is_visible()
        assert "took it over" in notice.inner_text()
        time.sleep(4)  # it does not take the seat back by itself
        assert tw(first, "t.replaced") and not tw(first, "t.connected")
        assert tw(second, "t.connected") and not tw(second, "t.replaced")
        assert host.log().count("lobby-twin@127.0.0.1 connected again") == 1
    finally:
        old.close()
        new.close()


def test_a_locked_page_keeps_its_key_and_a_twin_is_refused(
    host: ServerProcess, browser: Any
) -> None:
    own = browser.new_context(viewport={"width": 320, "height": 180})
    other = browser.new_context(viewport={"width": 320, "height": 180})
    try:
        page = own.new_page()
        page.goto(f"{host.url}/receiver/?seat=bound-1")
        wait_connected(page)
        host.lock("bound-1")
        key = wait_until(
            lambda: page.evaluate("() => localStorage.getItem('tilewall.key.bound-1')"), 10
        )
        assert len(key) >= 40
        page.reload()
        wait_connected(page)
        assert tw(page, "t.refused") is None

        twin = other.new_page()
        twin.goto(f"{host.url}/receiver/?seat=bound-1")
        twin.wait_for_function("() => tilewall.refused", timeout=10_000)
        assert "locked to another screen" in twin.locator("#notice").inner_text()
        twin.wait_for_selector(".pairing")
        # the real page keeps its station and its picture
        time.sleep(1.5)
        assert tw(page, "t.connected") and not tw(page, "t.replaced")
        assert tw(page, "t.state.role") != "pairing"
        assert "refused, station bound-1" in host.log()

        # unlocked: the page forgets its key
        host.ok("PUT", "/network/bound-1/unlock")
        wait_until(
            lambda: page.evaluate("() => localStorage.getItem('tilewall.key.bound-1')") is None,
            10,
        )
    finally:
        own.close()
        other.close()


def test_the_console_shows_what_the_agent_did(
    host: ServerProcess, browser: Any, agents: Any, tmp_path: Any
) -> None:
    agents(
        host,
        "console-agent",
        "--no-browser",
        "--power-command",
        "echo 'HDMI-CEC bus is busy' >&2; exit 1",
        name="failing",
    )
    host.wait_station("console-agent", lambda d: bool(d.get("agent")), 20)
    display_id = host.lock("console-agent")
    host.ok("PUT", "/system/dpms/forceoff", json={"displayID": str(display_id)})
    login = httpx.post(f"{host.url}/api/session", json={"user": ADMIN, "password": PASSWORD})
    cookie = login.json()["session"]["value"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.add_cookies([{"name": "JSESSIONID", "value": cookie, "url": host.url}])
        page = context.new_page()
        page.goto(f"{host.url}/#/receivers")
        row = page.locator("tr[data-seat-id='console-agent']")
        failed = row.locator(".agent-power.failed")
        failed.wait_for(timeout=10_000)
        assert "Screen off failed" in failed.inner_text()
        assert "HDMI-CEC bus is busy" in failed.inner_text()
        assert "power: command" in row.inner_text()
    finally:
        context.close()
        host.ok("PUT", "/system/dpms/forceon", json={"displayID": str(display_id)})


def test_a_page_reports_the_hosts_version_as_its_firmware(
    host: ServerProcess, browser: Any
) -> None:
    """The page's version comes from the host that served it (/receiver/version.js)."""
    context = browser.new_context(viewport={"width": 320, "height": 180})
    try:
        page = context.new_page()
        page.goto(f"{host.url}/receiver/")
        wait_connected(page)
        seat = tw(page, "t.seatId")
        assert tw(page, "t.firmware") == f"tilewall-receiver/{__version__}"
        station = next(d for d in host.ok("GET", "/network")["network"] if d["seatId"] == seat)
        assert station["firmware"] == f"tilewall-receiver/{__version__}"
    finally:
        context.close()
