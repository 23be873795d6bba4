"""A desktop over VNC on a real host's 2x2 wall, shown by four receiver pages in real
Chromium: a real VNC server with a password (TigerVNC's Xvnc, its desktop drawn in four
quarters of known colours) spread over the wall as one canvas, each tile showing its
quarter; a change of the desktop reaches every tile; the VNC server killed, every tile
holds the last picture with the "no signal" mark naming why, and the desktop comes back
when the server does."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.support.browser import (
    VIEWPORT,
    near,
    needs_chromium,
    open_receiver,
    rig,
    screenshot,
)
from tests.support.live_pages import mark
from tests.support.server import ServerProcess
from tests.support.sources import VNC, source_body
from tests.support.topology import HD_MONITOR, WHOLE_WALL, make_wall
from tests.support.vnc_desktop import BLUE, GREEN, PASSWORD, QUARTERS, RED, YELLOW, VncDesktop
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.live, needs_chromium]

W, H = VIEWPORT["width"], VIEWPORT["height"]
SEATS = ("vnc-tl", "vnc-tr", "vnc-bl", "vnc-br")


@dataclass
class DesktopWall:
    host: ServerProcess
    pages: list[Any]
    desktop: VncDesktop
    source_id: str

    def centres(self, name: str = "") -> list[tuple[int, int, int]]:
        """The colour at the middle of each tile (the mark is in a corner)."""
        return [
            screenshot(page, f"vnc-wall-{name}-{n}" if name else None).getpixel((W // 2, H // 2))
            for n, page in enumerate(self.pages)
        ]

    def shows(self, quarters: tuple[tuple[int, int, int], ...], name: str = "") -> bool:
        return all(near(c, q, 40) for c, q in zip(self.centres(name), quarters, strict=True))

    def marks(self) -> list[str | None]:
        return [mark(page) for page in self.pages]

    def wait_shows(self, quarters: tuple[tuple[int, int, int], ...], what: str) -> None:
        wait_until(
            lambda: self.shows(quarters),
            timeout=20,
            interval=0.2,
            what=f"{what}: tiles show {self.centres(what)}, expected {quarters}",
        )


@pytest.fixture(scope="module")
def wall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DesktopWall]:
    with VncDesktop() as desktop:
        for host, context in rig(tmp_path_factory, "vnc-wall", in_process=True):
            pages = [open_receiver(context, host, seat) for seat in SEATS]
            ids = [host.lock(seat) for seat in SEATS]
            zone = make_wall(host.api, "Ops wall", WHOLE_WALL, ids, monitor=HD_MONITOR).zones["All"]
            body = source_body(
                VNC, "SCADA desktop", Host="127.0.0.1", Port=str(desktop.port), Password=PASSWORD
            )
            source_id = host.ok("POST", "/sources", json=body)["sourceId"]
            host.ok(
                "PUT", f"/zones/{zone['zoneId']}/switch", params={"destinationSourceId": source_id}
            )
            try:
                yield DesktopWall(host, pages, desktop, source_id)
            finally:
                for page in pages:
                    page.close()


def test_the_wall_shows_the_desktop_in_quarters(wall: DesktopWall) -> None:
    for page in wall.pages:
        page.wait_for_selector("canvas.live-picture[data-at]", timeout=20_000)
    wall.wait_shows(QUARTERS, "quarters")
    status = wall.host.ok("GET", f"/sources/{wall.source_id}/status")
    assert status["state"] == "live" and status["viewers"] == len(SEATS), status
    assert status["width"] == wall.desktop.width, status
    # one connection to the VNC server for the four tiles
    page = wall.host.api.transport.get(wall.host.url + "/metrics").text
    found = re.search(
        rf'^tilewall_live_connections_total{{source="{wall.source_id}"}} (\S+)$', page, re.M
    )
    assert found and float(found.group(1)) == 1, found
    # the password went to the VNC server only: not to a receiver page
    for page in wall.pages:
        assert PASSWORD not in page.content()


def test_a_desktop_change_reaches_every_tile(wall: DesktopWall) -> None:
    wall.wait_shows(QUARTERS, "before the change")
    turned = (YELLOW, BLUE, GREEN, RED)
    wall.desktop.paint(turned)
    try:
        wall.wait_shows(turned, "changed")
    finally:
        wall.desktop.paint(QUARTERS)
    wall.wait_shows(QUARTERS, "changed back")


def test_the_server_gone_holds_the_picture_marked_then_comes_back(wall: DesktopWall) -> None:
    wall.wait_shows(QUARTERS, "before the outage")
    wall.desktop.kill()
    wait_until(lambda: all(wall.marks()), timeout=10, what="the no-signal mark on every tile")
    wait_until(
        lambda: all(re.search("refused|closed|reset", m or "") for m in wall.marks()),
        timeout=15,
        what=f"the host's reason on the tiles: {wall.marks()}",
    )
    # held, not black: the last picture of the desktop on every tile, a while later too
    assert wall.shows(QUARTERS, "held"), wall.centres()
    time.sleep(1.5)
    assert wall.shows(QUARTERS, "still-held"), wall.centres()
    status = wall.host.ok("GET", f"/sources/{wall.source_id}/status")
    assert status["state"] == "reconnecting", status

    wall.desktop.start()
    back_at = time.monotonic()
    wait_until(lambda: not any(wall.marks()), timeout=15, what="the marks cleared")
    print(f"\ndesktop back on the wall {time.monotonic() - back_at:.2f} s after the VNC server")
    # live again: a change made now shows
    turned = (BLUE, YELLOW, RED, GREEN)
    wall.desktop.paint(turned)
    try:
        wall.wait_shows(turned, "back")
    finally:
        wall.desktop.paint(QUARTERS)
    assert wall.host.ok("GET", f"/sources/{wall.source_id}/status")["state"] == "live"
