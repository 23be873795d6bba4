"""A live source on a 2x2 wall of receiver pages in real Chromium: every tile shows its
quarter of the picture and the same frame (the frame number is read from each tile's
pixels); when the source stops every tile holds that last frame with a "no signal" mark
naming why, and the picture comes back when the source does."""

from __future__ import annotations

import time
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest

from tests.support.browser import VIEWPORT, needs_chromium, screenshot
from tests.support.live_pages import live_source, mark, open_harness, shown_at, wall_tile
from tests.support.live_wire import LiveWire, in_quarters, position, read_number
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.live, needs_chromium]

W, H = VIEWPORT["width"], VIEWPORT["height"]
TILES = [(0, 0), (1, 0), (0, 1), (1, 1)]


def unmarked(page: Any) -> bool:
    return mark(page) is None


@pytest.fixture
def wall(browser: Any, origin: str, wire: LiveWire) -> Iterator[list[Any]]:
    context = browser.new_context(viewport=VIEWPORT)
    source = live_source(wire.url())
    pages = [open_harness(context, origin, wall_tile(source, col, row)) for col, row in TILES]
    for page in pages:
        wait_until(partial(shown_at, page), what="a live frame on every tile")
    yield pages
    context.close()


def frames(page: Any) -> Any:
    """What became of the frames the page received (live.js sample())."""
    return page.evaluate("() => window.picture.sample().frames")


def numbers(pages: list[Any], name: str) -> list[int | None]:
    return [read_number(screenshot(page, f"live-{name}-{n}")) for n, page in enumerate(pages)]


def test_each_tile_shows_its_quarter_of_the_picture(wall: list[Any]) -> None:
    images = [screenshot(page) for page in wall]
    # the pattern's tint tells which part of the picture each tile shows
    positions = [position(image) for image in images]
    assert in_quarters(positions), positions
    assert all(read_number(image) is not None for image in images)


#: how bright the canvas of a page is at the middle of each quarter: [[tl, tr], [bl, br]]
QUARTERS = """() => {
  const canvas = document.querySelector('canvas.live-picture');
  const g = canvas.getContext('2d');
  const w = canvas.width, h = canvas.height;
  const mean = (x, y) => {
    const d = g.getImageData(x, y, w / 4, h / 4).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += d[i] + d[i + 1] + d[i + 2];
    return sum / (d.length / 4) / 3;
  };
  return [[mean(w / 8, h / 8), mean(5 * w / 8, h / 8)], [mean(w / 8, 5 * h / 8), mean(5 * w / 8, 5 * h / 8)]];
}"""


def test_each_tile_draws_only_its_quarter(wall: list[Any]) -> None:
    # the rest of the picture is never turned into canvas pixels: it stays black there
    for page, (col, row) in zip(wall, TILES, strict=True):
        brightness = page.evaluate(QUARTERS)
        for r in range(2):
            for c in range(2):
                drawn = brightness[r][c] > 20
                assert drawn == ((c, r) == (col, row)), ((col, row), brightness)


def test_held_last_frame_is_the_same_on_every_tile_and_marked(
    wall: list[Any], wire: LiveWire
) -> None:
    wire.stop_source("connection refused")
    last = wire.last
    for page in wall:
        wait_until(partial(mark, page), what="the no-signal mark")
        assert "connection refused" in (mark(page) or "")
    # a busy page may still be decoding what came before the stop
    deadline = time.monotonic() + 10
    while (held := numbers(wall, "held")) != [last] * 4:
        assert time.monotonic() < deadline, [held, last, [frames(page) for page in wall]]
        time.sleep(0.2)
    # held, not blank: a second later still the same frame
    wall[0].wait_for_timeout(1000)
    assert numbers(wall, "still-held") == [last] * 4

    wire.resume()
    for page in wall:
        wait_until(partial(unmarked, page), what="the mark cleared")
    # the mark clears with the first new frame; a busy tile may draw it a moment later
    deadline = time.monotonic() + 10
    back = numbers(wall, "back")
    while not all(n is not None and n > last for n in back):
        assert time.monotonic() < deadline, (back, last)
        time.sleep(0.2)
        back = numbers(wall, "back")
