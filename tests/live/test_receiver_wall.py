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
from tests.support.live_wire import HEIGHT, WIDTH, LiveWire, in_quarters, position, read_number
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


#: the page's canvas: its pixels, where it lies on screen, how bright each quarter of it is
CANVAS = """() => {
  const canvas = document.querySelector('canvas.live-picture');
  const g = canvas.getContext('2d');
  const w = canvas.width, h = canvas.height;
  const mean = (x, y) => {
    const d = g.getImageData(x, y, w / 2, h / 2).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += d[i] + d[i + 1] + d[i + 2];
    return sum / (d.length / 4) / 3;
  };
  const r = canvas.getBoundingClientRect();
  return {size: [w, h], box: [r.left, r.top, r.right, r.bottom], quarters: [mean(0, 0), mean(w / 2, 0), mean(0, h / 2), mean(w / 2, h / 2)]};
}"""


def test_each_tile_draws_only_its_quarter(wall: list[Any]) -> None:
    # the rest of the picture is never turned into canvas pixels: each tile's canvas is
    # its quarter of the frame, all of it drawn, laid over the whole screen
    for page, tile in zip(wall, TILES, strict=True):
        canvas = page.evaluate(CANVAS)
        assert canvas["size"] == [WIDTH // 2, HEIGHT // 2], (tile, canvas)
        assert [round(v) for v in canvas["box"]] == [0, 0, W, H], (tile, canvas)
        assert all(q > 20 for q in canvas["quarters"]), (tile, canvas)


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
