"""A real Chromium receiver page on the active host of a group of two (tests/system/
hostgroup): red and green images in the members' shared media directory, a signage
source of each, and the page locked as a display showing red, knowing both members."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from tests.support.browser import ARGS, CHROMIUM
from tests.support.cluster import Cluster, Host, shared_media, signage, wait_for
from tests.support.media import png_bytes

#: the source a receiver page shows now (its id), or a falsy value
SHOWING = "() => window.tilewall?.state?.content?.source?.sourceId"


@dataclass
class GroupReceiver:
    """The page, its display, and the ids of the red and green sources."""

    page: Any
    display: int
    red: str
    green: str

    def wait_showing(self, source: str, timeout_ms: int = 15_000) -> None:
        self.page.wait_for_function(
            f"() => ({SHOWING})() === {json.dumps(source)}", timeout=timeout_ms
        )

    def showing(self) -> Any:
        return self.page.evaluate(f"() => ({SHOWING})()")

    def host(self) -> Any:
        """The address of the host the page is connected to."""
        return self.page.evaluate("() => window.tilewall.host")


@contextmanager
def receiver_of_group(cluster: Cluster) -> Iterator[tuple[Host, Host, GroupReceiver]]:
    """The group's two members (started on shared media) and a receiver page on the
    first, the active one, showing red."""
    from playwright.sync_api import sync_playwright

    first, second = cluster.start("first", "second", extra=shared_media(cluster))
    for name, colour in (("red.png", (220, 20, 20)), ("green.png", (20, 220, 20))):
        uploaded = first.api.put(f"/media/{name}", content=png_bytes(colour, (64, 36)))
        assert uploaded.status_code == 200, uploaded.text
    red = signage(first, "Red", "red.png")
    green = signage(first, "Green", "green.png")
    second.api  # noqa: B018  (logged in while the first serves: the session is the group's)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 320, "height": 180})
            page.goto(f"{first.address}/receiver/?seat=wall-1")
            locked = wait_for(
                lambda: (r := first.api.put("/network/wall-1/lock")).status_code == 200 and r,
                timeout=15,
            )
            receiver = GroupReceiver(page, int(locked.json()["displayId"]), red, green)
            switched = first.api.put(
                f"/displays/{receiver.display}/switch", params={"destinationSourceId": red}
            )
            assert switched.status_code == 200, switched.text
            receiver.wait_showing(red)
            page.wait_for_function("() => window.tilewall.members.length === 2", timeout=10_000)
            assert receiver.host() == first.address
            yield first, second, receiver
        finally:
            browser.close()
