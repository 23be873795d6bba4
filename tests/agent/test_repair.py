"""Replacing a screen's device (issue: the advice on the screen must work). A station
locked to its first device refuses a replacement; unlocking makes the replacement the
station at once, without a reload, and a lock then binds the key to it; the console's
Re-pair does both in one step; the same for a kiosk agent."""

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.agent.conftest import AgentFactory, agent_online
from tests.support.browser import CHROMIUM, chromium, console_login, tw, wait_connected
from tests.support.server import ServerProcess
from tests.support.sources import web_source
from tests.support.waiting import wait_until

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM, reason="needs Debian's chromium"),
]

REFUSED_NOTICE = "locked to another screen"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def key_of(page: Any, seat: str) -> str | None:
    return page.evaluate(f"() => localStorage.getItem('tilewall.key.{seat}')")


def first_device_gone(host: ServerProcess, browser: Any, seat: str) -> str:
    """The station's first device locked it, then broke: its key."""
    first = browser.new_context(viewport={"width": 320, "height": 180})
    try:
        page = first.new_page()
        page.goto(f"{host.url}/receiver/?seat={seat}")
        wait_connected(page)
        host.ok("PUT", f"/network/{seat}/unlock")  # as a failed try of the test may leave it
        host.lock(seat)
        key = wait_until(lambda: key_of(page, seat), 30, what="the first device's key")
    finally:
        first.close()
    host.wait_station(seat, lambda d: not d["isOnline"])
    return str(key)


def refused_replacement(host: ServerProcess, context: Any, seat: str) -> Any:
    page = context.new_page()
    page.goto(f"{host.url}/receiver/?seat={seat}")
    page.wait_for_function("() => window.tilewall && tilewall.refused", timeout=10_000)
    assert REFUSED_NOTICE in page.locator("#notice").inner_text()
    return page


def shows_its_display(host: ServerProcess, page: Any, seat: str) -> None:
    """Locked, online, playing what its display is switched to: the key is on this
    device and the page is no longer the pairing screen."""
    device = host.wait_station(seat, lambda d: d["isOnline"] and d["status"] == "CONNECTED")
    source = web_source(host.api, f"page of {seat}", f"{host.url}/receiver/version.js")
    host.ok(
        "PUT", f"/displays/{device['displayId']}/switch", params={"destinationSourceId": source}
    )
    # optional chaining: until the switch arrives the page shows its display's
    # welcome, content with no source, and a predicate that throws ends the wait at once
    page.wait_for_function(
        "id => tilewall.state?.content?.source?.sourceId === id", arg=source, timeout=10_000
    )
    assert tw(page, "t.refused") is None
    assert REFUSED_NOTICE not in page.locator("#notice").inner_text()


def old_key_refused(host: ServerProcess, browser: Any, seat: str, old_key: str) -> None:
    """The old device, back with its old key, is the one refused now."""
    old = browser.new_context(viewport={"width": 320, "height": 180})
    try:
        old.add_init_script(f"localStorage.setItem('tilewall.key.{seat}', '{old_key}')")
        refused_replacement(host, old, seat)
    finally:
        old.close()


def test_unlock_then_lock_makes_the_replacement_the_station(
    host: ServerProcess, browser: Any
) -> None:
    seat = "lobby3"
    old_key = first_device_gone(host, browser, seat)
    replacement = browser.new_context(viewport={"width": 320, "height": 180})
    try:
        page = refused_replacement(host, replacement, seat)
        asking = host.ok("GET", "/refusals")["refused"]
        assert [(r["seatId"], r["role"], r["ip"]) for r in asking] == [(seat, "page", "127.0.0.1")]

        # unlock: the refused page is the station at once, available, no reload
        host.ok("PUT", f"/network/{seat}/unlock")
        host.wait_station(seat, lambda d: d["isOnline"] and d["status"] == "AVAILABLE")
        page.wait_for_function("() => !tilewall.refused", timeout=10_000)
        page.wait_for_selector(".pairing")
        assert REFUSED_NOTICE not in page.locator("#notice").inner_text()
        assert host.ok("GET", "/refusals")["refused"] == []

        # lock: the key is bound to this device, as the message promised
        host.lock(seat)
        new_key = wait_until(lambda: key_of(page, seat), 10, what="the new device's key")
        assert new_key != old_key
        shows_its_display(host, page, seat)
        old_key_refused(host, browser, seat, old_key)
        assert not tw(page, "t.replaced")
    finally:
        replacement.close()


def test_the_console_re_pairs_a_station_in_one_step(host: ServerProcess, browser: Any) -> None:
    seat = "lobby4"
    old_key = first_device_gone(host, browser, seat)
    replacement = browser.new_context(viewport={"width": 320, "height": 180})
    console = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = refused_replacement(host, replacement, seat)
        operator = console.new_page()
        console_login(operator, host.url, "#/receivers")
        row = operator.locator(f"tr[data-seat-id='{seat}']")
        asking = row.locator(".asking")
        asking.wait_for(timeout=10_000)
        assert "Another screen asks for this station" in asking.inner_text()
        assert "from 127.0.0.1" in asking.inner_text()

        row.get_by_role("button", name="Re-pair").click()
        new_key = wait_until(lambda: key_of(page, seat), 10, what="the re-paired device's key")
        assert new_key != old_key
        shows_its_display(host, page, seat)
        row.locator(".asking").wait_for(state="detached", timeout=10_000)
        old_key_refused(host, browser, seat, old_key)
    finally:
        console.close()
        replacement.close()


def test_re_pairing_needs_a_device_that_asks(host: ServerProcess, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 180})
    try:
        page = context.new_page()
        page.goto(f"{host.url}/receiver/?seat=lobby5")
        wait_connected(page)
        host.lock("lobby5")
        answer = host.call("PUT", "/network/lobby5/repair")
        assert answer.status_code == 409
        assert "no other screen asks for station 'lobby5'" in answer.json()["message"]
        assert host.call("PUT", "/network/nowhere-9/repair").status_code == 404
        time.sleep(0.5)
        assert tw(page, "t.connected") and key_of(page, "lobby5")
    finally:
        context.close()


def test_a_replacement_agent_is_re_paired(
    host: ServerProcess, agents: AgentFactory, tmp_path: Path
) -> None:
    seat = "kiosk-swap"
    first = agents(host, seat, "--no-browser", "--power-command", "true", name="first")
    agent_online(host, seat)
    host.lock(seat)
    old_key_file = first.state_dir / f"{seat}.key"
    wait_until(old_key_file.exists, 10, what="the first agent's key")
    first.stop()
    host.wait_station(seat, lambda d: not (d.get("agent") or {}).get("online"))

    screen = tmp_path / "screen"
    second = agents(
        host, seat, "--no-browser", "--power-command", f"echo {{state}} >> {screen}", name="second"
    )
    wait_until(lambda: f"refused station {seat}" in second.log(), 15)
    assert [r["role"] for r in host.ok("GET", "/refusals")["refused"]] == ["agent"]

    device = host.ok("PUT", f"/network/{seat}/repair")
    new_key_file = second.state_dir / f"{seat}.key"
    wait_until(new_key_file.exists, 10, what="the replacement agent's key")
    assert new_key_file.read_text() != old_key_file.read_text()
    host.wait_station(seat, lambda d: bool((d.get("agent") or {}).get("online")))
    body = host.ok("PUT", "/system/dpms/forceoff", json={"displayID": str(device["displayId"])})
    assert [s["result"] for s in body["screens"]] == ["done"]
    assert screen.read_text().splitlines()[-1] == "off"
    assert host.ok("GET", "/refusals")["refused"] == []
