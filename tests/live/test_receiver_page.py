"""One receiver page drawing a live source in real Chromium: pause freezes the picture
and play lets it move on; stop blanks it and lets the stream go; a dropped connection is
made again; the service worker keeps out of the way of /live/."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import (
    BLACK,
    VIEWPORT,
    centre,
    near,
    needs_chromium,
    screenshot,
)
from tests.support.live_pages import (
    draw,
    live_source,
    mark,
    open_harness,
    shown_at,
    standalone,
)
from tests.support.live_wire import LiveWire, position, read_number
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.live, needs_chromium]

W, H = VIEWPORT["width"], VIEWPORT["height"]


@pytest.fixture
def page(browser: Any, origin: str, wire: LiveWire) -> Iterator[Any]:
    context = browser.new_context(viewport=VIEWPORT)
    page = open_harness(context, origin, standalone(live_source(wire.url())))
    wait_until(lambda: shown_at(page), what="a live frame")
    yield page
    context.close()


def number(page: Any, name: str) -> int | None:
    return read_number(screenshot(page, f"live-page-{name}"))


def test_pause_freezes_the_picture_and_play_moves_on(page: Any, wire: LiveWire) -> None:
    source = live_source(wire.url())
    draw(page, standalone(source, "paused"))
    page.wait_for_timeout(300)
    frozen = number(page, "paused")
    made = wire.made
    page.wait_for_timeout(1000)
    # the source went on (half a second's frames; a loaded machine makes them late)
    wait_until(lambda: wire.made > made + 15, what=lambda: f"frames made since: {wire.made - made}")
    assert number(page, "still-paused") == frozen is not None
    assert mark(page) is None  # paused, not lost

    draw(page, standalone(source, "playing"))
    wait_until(lambda: (number(page, "played") or 0) > (frozen or 0), what="the picture moving")


def test_stop_blanks_and_closes_the_stream(page: Any, wire: LiveWire) -> None:
    assert len(wire.viewers) == 1
    stopped = standalone(live_source(wire.url()))
    stopped["content"]["source"] = None
    stopped["content"]["timeline"]["state"] = "stopped"
    draw(page, stopped)
    wait_until(lambda: not wire.viewers, what="the page leaving the stream")
    assert near(centre(screenshot(page, "live-page-stopped")), BLACK)


def test_a_dropped_connection_is_made_again(page: Any, wire: LiveWire) -> None:
    joins = wire.joins
    wire.drop_viewers()
    wait_until(lambda: wire.joins > joins and wire.viewers, what="the page back on the stream")
    last = wire.last
    wait_until(lambda: (number(page, "rejoined") or 0) > last, what="new frames drawn")
    assert mark(page) is None


def test_the_service_worker_leaves_live_alone(browser: Any, origin: str) -> None:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(f"{origin}/receiver/live-harness.html")
    page.evaluate(
        "() => navigator.serviceWorker.register('/receiver/sw.js', { scope: '/receiver/' })"
        ".then(() => navigator.serviceWorker.ready)"
    )
    page.reload()
    page.wait_for_function("() => !!navigator.serviceWorker.controller")

    def fetched(path: str) -> Any:
        with page.expect_response(lambda r: path in r.url) as answer:
            page.evaluate("(p) => fetch(p).then((r) => r.status)", path)
        return answer.value

    # the worker answers what it keeps (the page's shell) ...
    assert fetched("/receiver/screen.css").from_service_worker
    # ... and never a live stream, in either format
    for path in ("/live/cam", "/live/cam?format=fmp4"):
        assert not fetched(path).from_service_worker, path
    kept = page.evaluate(
        "async () => { const out = []; for (const name of await caches.keys()) {"
        " const cache = await caches.open(name);"
        " for (const r of await cache.keys()) out.push(r.url); } return out; }"
    )
    assert kept and not [url for url in kept if "/live/" in url], kept
    context.close()


def test_a_live_window_of_a_layout_stays_in_its_window(
    browser: Any, origin: str, wire: LiveWire
) -> None:
    """A control-room layout: the camera in the left half, nothing in the right half."""
    layout = {
        "type": "layout",
        "sourceId": "room",
        "name": "Control room",
        "layoutId": "l1",
        "layoutName": "Two up",
        "windows": [
            {"x": 0, "y": 0, "width": 0.5, "height": 1, "source": live_source(wire.url())},
            {
                "x": 0.5,
                "y": 0,
                "width": 0.5,
                "height": 1,
                "source": {"type": "blank", "sourceId": "", "name": "", "sourceType": "?"},
            },
        ],
    }
    context = browser.new_context(viewport=VIEWPORT)
    page = open_harness(context, origin, standalone(layout))
    wait_until(lambda: shown_at(page), what="a live frame in the window")
    image = screenshot(page, "live-page-layout")
    # the 16:9 picture in a window half as wide: letterboxed in the left half, whole
    window = (0, H // 4, W // 2, 3 * H // 4)
    assert read_number(image, window) is not None
    # its left and right quarters read as left and right of the picture
    left, right = (
        position(image, (0, H // 4, W // 4, 3 * H // 4)),
        position(image, (W // 4, H // 4, W // 2, 3 * H // 4)),
    )
    assert left and right and right[0] - left[0] > 0.12, (left, right)
    for x, y in ((0.75, 0.5), (0.25, 0.1), (0.25, 0.9)):  # the right window, the bars
        assert near(image.getpixel((int(W * x), int(H * y))), BLACK), (x, y)
    context.close()


def test_the_page_reports_its_margins_once_a_second(page: Any, wire: LiveWire) -> None:
    # the wire presents each frame 150 ms after it is made: a page that keeps up has the
    # frame decoded well before its instant (which frames count: live-margins.test.mjs)
    wait_until(lambda: len(wire.reports) >= 3, timeout=15, what="three reports")
    started = time.monotonic()
    count = len(wire.reports)
    wait_until(lambda: len(wire.reports) >= count + 2, timeout=10, what="two more")
    assert time.monotonic() - started >= 1.0  # about one a second, not one a frame
    assert all(r["type"] == "margins" for r in wire.reports)
    margins = [m for r in wire.reports for m in r["ms"]]
    assert len(margins) >= 30
    assert max(margins) <= wire.delay_ms
    assert sorted(margins)[len(margins) // 2] > 0  # most frames in time


#: every animation frame, before the live picture's, holds the page 25 ms (a busy page)
LATE_CALLBACKS = """(() => {
  const busy = () => {
    const until = performance.now() + 25;
    while (performance.now() < until);
    requestAnimationFrame(busy);
  };
  requestAnimationFrame(busy);
})();"""


def test_a_late_animation_frame_draws_the_frame_of_its_refresh(
    browser: Any, origin: str, wire: LiveWire
) -> None:
    # the picture's callback runs 25 ms into each animation frame: it must draw the
    # frame due at the refresh, as a punctual tile of the same wall does, not a newer one
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(LATE_CALLBACKS)
    try:
        page = open_harness(context, origin, standalone(live_source(wire.url())))
        wait_until(lambda: shown_at(page), what="a live frame")
        page.wait_for_timeout(2000)
        drawn = page.evaluate(
            "() => window.picture.sync(0).frames.filter((f) => f.at !== undefined)"
            ".map((f) => [f.hostMs, f.at])"
        )
        assert len(drawn) > 20, drawn
        early = [(refresh, at) for refresh, at in drawn if at > refresh + 0.01]
        assert not early, (len(early), len(drawn), early[:5])
    finally:
        context.close()
