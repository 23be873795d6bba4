"""Receiver pages against a real host: station lifecycle, switching, overlays, resolution,
and reconnecting after the host restarts. Each page is its own station (``?seat=``)."""

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import (
    BLACK,
    BLUE,
    GREEN,
    RED,
    VIEWPORT,
    YELLOW,
    near,
    needs_chromium,
    open_receiver,
    rig,
    screenshot,
    tw,
    wait_colour,
    wait_connected,
)
from tests.support.media import DEMO_MEDIA
from tests.support.server import ServerProcess
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, needs_chromium]

W, H = VIEWPORT["width"], VIEWPORT["height"]


def top_left(image: Any) -> tuple[int, int, int]:
    return image.getpixel((image.width // 4, image.height // 4))


def bottom_right(image: Any) -> tuple[int, int, int]:
    return image.getpixel((3 * image.width // 4, 3 * image.height // 4))


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Any]]:
    yield from rig(tmp_path_factory, "screens")


@pytest.fixture(scope="module")
def host(both: tuple[ServerProcess, Any]) -> ServerProcess:
    return both[0]


@pytest.fixture(scope="module")
def context(both: tuple[ServerProcess, Any]) -> Any:
    return both[1]


@pytest.fixture(scope="module")
def quadrants(host: ServerProcess) -> str:
    host.upload("quadrants.png", DEMO_MEDIA / "quadrants.png")
    return host.signage("Quadrants", ["quadrants.png"])


def pairing_shown(page: Any) -> bool:
    return bool(page.locator(".card.pairing").count())


def test_station_lifecycle(host: ServerProcess, context: Any) -> None:
    pages = {seat: open_receiver(context, host, seat) for seat in ("life-a", "life-b")}
    for seat, page in pages.items():
        device = host.wait_station(seat, lambda d: d["isOnline"])
        assert device["status"] == "AVAILABLE"
        assert device.get("displayId") is None
        assert pairing_shown(page)
        assert seat in page.locator(".card.pairing").inner_text()
    screenshot(pages["life-a"], "live-pairing")

    # lock: CONNECTED with a display, and the page leaves pairing at once
    page = pages["life-a"]
    started = time.monotonic()
    display_id = host.lock("life-a")
    page.wait_for_function("() => !document.querySelector('.card.pairing')", timeout=10_000)
    left_pairing_s = time.monotonic() - started
    print(f"\nlock -> page left pairing in {left_pairing_s * 1000:.0f} ms")
    locked = host.station("life-a")
    assert locked is not None
    assert locked["status"] == "CONNECTED"
    assert locked["displayId"] == display_id
    assert tw(page, "t.state.displayId") == display_id
    assert pairing_shown(pages["life-b"]), "the other station stays available"

    # unlock: pairing again
    host.ok("PUT", "/network/life-a/unlock")
    page.wait_for_function("() => !!document.querySelector('.card.pairing')", timeout=10_000)
    assert host.station("life-a")["status"] == "AVAILABLE"  # type: ignore[index]
    display_id = host.lock("life-a")
    page.wait_for_function("() => !document.querySelector('.card.pairing')", timeout=10_000)

    # reset reloads the page, which comes back by itself
    page.evaluate("() => { window.beforeReset = true; }")
    with page.expect_event("load", timeout=5000):
        host.ok("PUT", "/network/life-a/reset")
    wait_connected(page)
    assert page.evaluate("() => window.beforeReset") is None
    assert tw(page, "t.state.displayId") == display_id

    # closing the page: offline within a few seconds; reopening: online, same display
    page.close()
    device = host.wait_station("life-a", lambda d: not d["isOnline"], timeout=6)
    assert device["status"] == "CONNECTED"
    assert host.station("life-b")["isOnline"]  # type: ignore[index]
    page = open_receiver(context, host, "life-a")
    device = host.wait_station("life-a", lambda d: d["isOnline"])
    assert device["displayId"] == display_id
    assert tw(page, "t.state.displayId") == display_id
    page.close()
    pages["life-b"].close()


def test_switch_and_see(host: ServerProcess, context: Any, quadrants: str) -> None:
    page = open_receiver(context, host, "see-a")
    other = open_receiver(context, host, "see-b")
    display_id = host.lock("see-a")
    other_id = host.lock("see-b")
    before = screenshot(page, "live-before-switch")

    host.ok("PUT", f"/displays/{display_id}/switch", params={"destinationSourceId": quadrants})
    image = wait_colour(page, RED, top_left, "live-switched")
    assert near(bottom_right(image), YELLOW), bottom_right(image)
    assert near(image.getpixel((3 * W // 4, H // 4)), GREEN)
    assert near(image.getpixel((W // 4, 3 * H // 4)), BLUE)
    assert not near(top_left(before), RED)
    assert not near(top_left(screenshot(other)), RED), "only the switched display changes"
    assert tw(page, "t.sample().showing") == "signage"
    assert tw(page, "t.sample().item") == "quadrants.png"

    # display reset rebuilds what is rendered, and it is the same picture again
    page.evaluate("() => { document.querySelector('img.media').dataset.old = '1'; }")
    host.ok("PUT", f"/displays/{display_id}/reset")
    page.wait_for_function(
        "() => { const i = document.querySelector('img.media.shown');"
        " return i && !i.dataset.old && i.complete; }",
        timeout=5000,
    )
    wait_colour(page, RED, top_left, "live-after-reset")

    # the welcome screen
    host.ok(
        "PUT",
        f"/displays/{display_id}/switch",
        params={"destinationSourceId": quadrants, "isShowWelcomeScreen": "true"},
    )
    page.wait_for_function("() => !!document.querySelector('.card.welcome')", timeout=5000)
    image = screenshot(page, "live-welcome")
    assert not near(top_left(image), RED)
    assert tw(page, "t.sample().showing") == "welcome"
    assert other_id != display_id
    page.close()
    other.close()


def test_overlays(host: ServerProcess, context: Any, quadrants: str) -> None:
    pages = {seat: open_receiver(context, host, seat) for seat in ("ovl-a", "ovl-b")}
    ids = {seat: host.lock(seat) for seat in pages}
    for display_id in ids.values():
        host.ok("PUT", f"/displays/{display_id}/switch", params={"destinationSourceId": quadrants})
    a, b = pages["ovl-a"], pages["ovl-b"]
    for page in (a, b):
        wait_colour(page, RED, top_left, "live-overlay-base")

    # a red broadcast alert: a banner across the top of every display, then gone
    host.ok(
        "PUT",
        "/system/broadcast/start",
        json={"message": "Fire drill", "alertLevel": "RED_LEVEL", "lengthMillisec": 60000},
    )
    banner = (192, 33, 31)
    for page in (a, b):
        page.wait_for_selector("#alert:not([hidden])", timeout=10_000)
        image = wait_colour(page, banner, lambda i: i.getpixel((W // 2, 4)), "live-alert")
        assert near(image.getpixel((W // 2, H - 4)), BLUE) or near(
            image.getpixel((W // 2, H - 4)), YELLOW
        )
        assert page.locator("#alert").inner_text() == "Fire drill"
    host.ok("PUT", "/system/broadcast/stop")
    for page in (a, b):
        page.wait_for_selector("#alert", state="hidden", timeout=10_000)
        wait_colour(page, RED, lambda i: i.getpixel((W // 4, 4)), "live-alert-gone")
    # an alert of a given length goes by itself
    host.ok(
        "PUT",
        "/system/broadcast/start",
        json={"message": "Short", "alertLevel": "GREEN_LEVEL", "lengthMillisec": 4000},
    )
    a.wait_for_selector("#alert:not([hidden])", timeout=10_000)
    wait_colour(a, (27, 127, 59), lambda i: i.getpixel((W // 2, 4)), "live-alert-green")
    a.wait_for_selector("#alert", state="hidden", timeout=10_000)

    # display ids, on one display only
    host.ok("PUT", "/system/showDisplayIds/start", params={"displayId": ids["ovl-a"]})
    a.wait_for_selector("#display-id:not([hidden])", timeout=10_000)
    assert a.locator("#display-id").inner_text() == str(ids["ovl-a"])
    screenshot(a, "live-display-id")
    assert b.locator("#display-id").is_hidden()
    host.ok("PUT", "/system/showDisplayIds/stop")
    a.wait_for_selector("#display-id", state="hidden", timeout=10_000)

    # DPMS off blanks one display; on again shows the picture
    host.ok("PUT", "/system/dpms/forceoff", json={"displayID": str(ids["ovl-b"])})
    wait_colour(b, BLACK, top_left, "live-dpms-off")
    image = screenshot(b)
    assert all(
        near(image.getpixel((x, y)), BLACK, 8)
        for x in (5, W // 2, W - 5)
        for y in (5, H // 2, H - 5)
    )
    assert near(top_left(screenshot(a)), RED), "the other display stays on"
    host.ok("PUT", "/system/dpms/forceon", json={"displayID": str(ids["ovl-b"])})
    wait_colour(b, RED, top_left, "live-dpms-on")
    # all displays
    host.ok("PUT", "/system/dpms/forceoff")
    for page in (a, b):
        wait_colour(page, BLACK, top_left, "live-dpms-all-off")
    host.ok("PUT", "/system/dpms/forceon")
    for page in (a, b):
        wait_colour(page, RED, top_left, "live-dpms-all-on")
    for page in (a, b):
        page.close()


def test_resolution_is_the_render_size(host: ServerProcess, context: Any, quadrants: str) -> None:
    page = open_receiver(context, host, "res-a")
    display_id = host.lock("res-a")
    host.ok("PUT", f"/displays/{display_id}/switch", params={"destinationSourceId": quadrants})
    wait_colour(page, RED, top_left, "live-res-before")
    size = (
        "() => { const s = getComputedStyle(document.getElementById('stage'));"
        " return [s.width, s.height]; }"
    )
    assert page.evaluate(size) == [f"{W}px", f"{H}px"]

    settings = host.ok("GET", f"/displays/{display_id}/settings")
    offered = {(r["width"], r["height"]) for r in settings["availableResolutions"]}
    assert (1920, 1080) in offered, offered
    result = host.ok(
        "PUT", f"/displays/{display_id}/settings", json={"width": 1920, "height": 1080}
    )
    assert result["currentResolution"] == {"width": 1920, "height": 1080}
    page.wait_for_function(
        "() => { const r = window.tilewall.state.resolution; return r && r.width === 1920; }",
        timeout=10_000,
    )
    assert page.evaluate(size) == ["1920px", "1080px"]
    image = wait_colour(page, RED, top_left, "live-res-1080")
    assert near(bottom_right(image), YELLOW), "the stage is scaled back to the window"
    # the display's media is laid out at 1920x1080 (then scaled down to the window)
    box = page.evaluate(
        "() => { const i = document.querySelector('img.media.shown');"
        " return [i.offsetWidth, i.offsetHeight]; }"
    )
    assert box == [1920, 1080]
    page.close()


def test_reconnects_after_the_host_restarts(
    host: ServerProcess, context: Any, quadrants: str
) -> None:
    pages = {seat: open_receiver(context, host, seat) for seat in ("rst-a", "rst-b")}
    ids = {seat: host.lock(seat) for seat in pages}
    for display_id in ids.values():
        host.ok("PUT", f"/displays/{display_id}/switch", params={"destinationSourceId": quadrants})
    for page in pages.values():
        wait_colour(page, RED, top_left, "live-before-restart")
    # the service worker keeps the page and its picture for starts while the host is away;
    # a page loaded before it took control reloads once to go through it
    b = pages["rst-b"]
    b.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=5000)
    b.reload()
    wait_connected(b)
    wait_colour(b, RED, top_left, "live-before-restart")

    revs = {seat: tw(page, "t.rev") for seat, page in pages.items()}
    host.kill()
    down_at = time.monotonic()
    host.spawn()  # boots while the pages are checked
    for page in pages.values():
        page.wait_for_function("() => !window.tilewall.connected", timeout=8000)
    for seat, page in pages.items():
        image = screenshot(page, f"live-host-down-{seat}")
        assert near(top_left(image), RED), "the last content stays on screen"
        assert near(bottom_right(image), YELLOW)
        assert page.evaluate("() => document.body.classList.contains('offline')")
    # a page reloaded while the host is away shows what it last showed
    b.reload()
    wait_colour(b, RED, top_left, "live-reloaded-while-down")
    assert not tw(b, "t.connected")

    host.wait_ready()
    up_at = time.monotonic()
    for page in pages.values():
        wait_connected(page, timeout_s=25)
    print(
        f"\nhost down {up_at - down_at:.1f} s; receivers reconnected by themselves"
        f" {time.monotonic() - up_at:.1f} s after it was back"
    )
    for seat, display_id in ids.items():
        device = host.wait_station(seat, lambda d: d["isOnline"])
        assert device["status"] == "CONNECTED"
        assert device["displayId"] == display_id
    for seat, page in pages.items():
        wait_colour(page, RED, top_left, "live-after-restart")
        assert tw(page, "t.sample().item") == "quadrants.png"
        assert tw(page, "t.rev") > revs[seat], "revisions increase across host restarts"
    for page in pages.values():
        page.close()
    wait_until(lambda: not host.station("rst-a")["isOnline"], 6, what="offline")  # type: ignore[index]


def test_mirror_group_shows_one_picture_on_each_member(
    host: ServerProcess, context: Any, quadrants: str
) -> None:
    pages = {seat: open_receiver(context, host, seat) for seat in ("mir-a", "mir-b")}
    ids = [host.lock(seat) for seat in pages]
    group = host.ok("POST", "/mirrorgroups", json={"name": "Twins", "displayIds": ids})
    host.ok("PUT", f"/mirrorgroups/{group['id']}/play", json={"sourceId": quadrants})
    for seat, page in pages.items():
        page.wait_for_function("() => window.tilewall.state.role === 'mirror'", timeout=10_000)
        image = wait_colour(page, RED, top_left, f"live-mirror-{seat}")
        assert near(bottom_right(image), YELLOW), "each member shows the whole picture"
    for page in pages.values():
        page.close()
