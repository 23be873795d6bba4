"""Sharing a tab from the /share/ page to a 2x2 wall, all in real Chromium: a tab drawing
the frame-numbered pattern (tests.support.share_counter) is chosen by Chromium's
``--auto-select-tab-capture-source-by-title``, the page encodes it with WebCodecs and
sends it to a real host, and four real receiver pages show it, each its quarter of the
picture; stopping brings back the slide the wall showed before."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.support.browser import (
    ARGS,
    BLUE,
    GREEN,
    RED,
    YELLOW,
    centre,
    needs_chromium,
    open_receiver,
    rig,
    screenshot,
    wait_colour,
)
from tests.support.framecode import Pattern
from tests.support.http import ADMIN, PASSWORD
from tests.support.live_wire import in_quarters, position, read_number
from tests.support.media import DEMO_MEDIA
from tests.support.server import ServerProcess
from tests.support.share_counter import TITLE, counter_page
from tests.support.topology import wall_body
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.live, needs_chromium]

SEATS = ("share-tl", "share-tr", "share-bl", "share-br")
QUARTERS = (RED, GREEN, BLUE, YELLOW)
#: Chromium shares the tab of that title when a page asks for a screen
SHARING_ARGS = [*ARGS, f"--auto-select-tab-capture-source-by-title={TITLE}"]
#: frames the share page lets wait in its encoder at most (share/pacing.js)
MAX_QUEUED = 2


@dataclass
class SharedWall:
    host: ServerProcess
    context: Any
    receivers: list[Any]
    zone_id: str
    slide_id: str


@pytest.fixture(scope="module")
def wall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedWall]:
    for host, context in rig(tmp_path_factory, "share-page", in_process=True, args=SHARING_ARGS):
        receivers = [open_receiver(context, host, seat) for seat in SEATS]
        ids = [host.lock(seat) for seat in SEATS]
        created = host.ok("POST", "/videowalls", json=wall_body("Meeting wall", ids))
        body = {"zoneName": "All", "videowallId": created["id"], "displayIds": ids}
        zone = host.ok("POST", "/zones", json=body)
        host.upload("quadrants.png", DEMO_MEDIA / "quadrants.png")
        slide = host.signage("Quadrants", ["quadrants.png"])
        host.ok("PUT", f"/zones/{zone['zoneId']}/switch", params={"destinationSourceId": slide})
        try:
            yield SharedWall(host, context, receivers, zone["zoneId"], slide)
        finally:
            for page in receivers:
                page.close()


def _quarters_shown(wall: SharedWall) -> None:
    for n, (page, colour) in enumerate(zip(wall.receivers, QUARTERS, strict=True)):
        wait_colour(page, colour, centre, name=f"share-before-{n}", timeout=20)


def _numbers(wall: SharedWall, name: str) -> list[int | None]:
    return [read_number(screenshot(p, f"share-{name}-{n}")) for n, p in enumerate(wall.receivers)]


def _share_page(wall: SharedWall, script: str = "") -> Any:
    """The share page under its Content-Security-Policy (the receivers' context bypasses
    it), logged in, the zone chosen by the link; ``script`` run before the page's own."""
    context = wall.context.browser.new_context(bypass_csp=False)
    if script:
        context.add_init_script(script)
    page = context.new_page()
    page.goto(f"{wall.host.url}/share/?target=zone&id={wall.zone_id}")
    page.fill("input[name=user]", ADMIN)
    page.fill("input[name=password]", PASSWORD)
    page.click("form[aria-label='Log in'] button[type=submit]")
    page.wait_for_selector("select[name=target]")
    assert page.input_value("select[name=target]") == f"zone:{wall.zone_id}"
    return page


def test_a_shared_tab_shows_on_the_wall_in_quarters_and_stopping_brings_back_the_slide(
    wall: SharedWall,
) -> None:
    _quarters_shown(wall)
    pattern = Pattern()
    counter = wall.context.new_page()
    counter.set_viewport_size({"width": pattern.width, "height": pattern.height})
    counter.set_content(counter_page(pattern))
    page = _share_page(wall)
    page.click("text=Share my screen")
    page.wait_for_selector(".status.live")

    def shared() -> list[int | None] | None:
        numbers = _numbers(wall, "shown")
        return numbers if all(n is not None for n in numbers) else None

    first = wait_until(shared, 30, 0.3, "the shared tab on every tile")
    later = wait_until(
        lambda: (n := shared()) and all(b > a for a, b in zip(first, n, strict=True)) and n,
        10,
        0.3,
        "the shared tab moving on every tile",
    )
    assert later
    positions = [position(screenshot(p)) for p in wall.receivers]
    assert in_quarters(positions), positions
    shares = wall.host.ok("GET", "/shares")["shares"]
    assert [(s["sharedBy"], s["target"], s["shown"]) for s in shares] == [("admin", "zone", True)]
    zone = wall.host.ok("GET", f"/zones/{wall.zone_id}")
    assert zone["playingSourceId"] == shares[0]["sourceId"]
    sent = page.evaluate("() => window.tilewallShare")
    assert sent["codec"].startswith("avc1."), sent
    assert sent["firstKey"] is True, sent  # the host can show the first frame it gets
    assert sent["frames"] > 0 and sent["encoded"] >= sent["frames"], sent
    assert sent["maxQueued"] < MAX_QUEUED, sent  # a frame waited behind one at most

    page.click("text=Stop sharing")
    page.wait_for_selector("text=You stopped sharing.")
    _quarters_shown(wall)
    assert wall.host.ok("GET", "/shares")["shares"] == []
    zone = wall.host.ok("GET", f"/zones/{wall.zone_id}")
    assert zone["playingSourceId"] == wall.slide_id
    page.context.close()
    counter.close()


def test_a_guest_shares_with_the_code_a_tile_shows(wall: SharedWall) -> None:
    _quarters_shown(wall)
    display = wall.host.ok("GET", "/zones/" + wall.zone_id)["zoneDisplays"][0]["displayId"]
    wall.host.ok("PUT", f"/shares/codes/{display}", json={"minutes": 5})
    tile = wait_until(
        lambda: next((p for p in wall.receivers if p.is_visible("#share-code")), None),
        10,
        0.2,
        "a tile showing the code",
    )
    how = tile.inner_text("#share-code .share-how")
    assert f"{wall.host.url}/share/" in how
    code = tile.inner_text("#share-code .share-number").replace(" ", "")
    assert len(code) == 6

    pattern = Pattern()
    counter = wall.context.new_page()
    counter.set_viewport_size({"width": pattern.width, "height": pattern.height})
    counter.set_content(counter_page(pattern))
    context = wall.context.browser.new_context(bypass_csp=False)
    page = context.new_page()
    page.goto(f"{wall.host.url}/share/")
    page.fill("input[name=code]", "000000" if code != "000000" else "111111")
    page.fill("input[name=name]", "Visitor")
    page.click("form[aria-label='Share with a code'] button[type=submit]")
    page.wait_for_selector("text=That is not the code the screen shows now.")
    page.fill("input[name=code]", code)
    page.click("form[aria-label='Share with a code'] button[type=submit]")
    page.wait_for_selector(".status.live")
    wait_until(
        lambda: all(n is not None for n in _numbers(wall, "guest")), 30, 0.3, "the guest's tab"
    )
    assert not tile.is_visible("#share-code")  # the share covers the code
    shares = wall.host.ok("GET", "/shares")["shares"]
    assert [(s["sharedBy"], s["guest"]) for s in shares] == [("Visitor (guest)", True)]
    page.close()  # closing the tab ends the share
    _quarters_shown(wall)
    assert wall.host.ok("GET", "/shares")["shares"] == []
    context.close()
    counter.close()


#: a browser that cannot encode H.264: WebCodecs answers every avc1 configuration "not
#: supported" (Chromium here can; some builds and machines cannot)
NO_H264 = """
const supported = VideoEncoder.isConfigSupported.bind(VideoEncoder);
VideoEncoder.isConfigSupported = (config) =>
  config.codec.startsWith("avc1.") ? Promise.resolve({ supported: false, config }) : supported(config);
"""


def test_a_browser_without_h264_shares_in_vp9(wall: SharedWall) -> None:
    _quarters_shown(wall)
    pattern = Pattern()
    counter = wall.context.new_page()
    counter.set_viewport_size({"width": pattern.width, "height": pattern.height})
    counter.set_content(counter_page(pattern))
    page = _share_page(wall, NO_H264)
    page.click("form[aria-label='Share'] button[type=submit]")
    page.wait_for_selector(".status.live")
    first = wait_until(
        lambda: (n := _numbers(wall, "vp9")) and all(x is not None for x in n) and n,
        30,
        0.3,
        "the shared tab on every tile, in VP9",
    )
    wait_until(
        lambda: (
            (n := _numbers(wall, "vp9"))
            and all(b is not None and b > a for a, b in zip(first, n, strict=True))
        ),
        10,
        0.3,
        "the shared tab moving on every tile",
    )
    assert page.evaluate("() => window.tilewallShare.codec").startswith("vp09.")
    source = wall.host.ok("GET", "/shares")["shares"][0]["sourceId"]
    status = wall.host.ok("GET", f"/sources/{source}/status")
    assert (status["state"], status["codec"]) == ("live", "vp9")
    page.click("text=Stop sharing")
    _quarters_shown(wall)
    page.context.close()
    counter.close()
