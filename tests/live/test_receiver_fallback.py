"""A receiver page outside a secure context (a TV's browser over plain HTTP) has no
WebCodecs: it plays a live source as fragmented MP4 through Media Source Extensions
(real Chromium, the page loaded from a name that is not this machine's), says it runs
late, and still holds its picture with a mark when the source stops."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.live.pages import live_source, mark, open_harness, receiver_files, standalone
from tests.support.browser import ARGS, VIEWPORT, chromium, needs_chromium, screenshot
from tests.support.live_wire import LiveWire, read_number
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.live, needs_chromium]

W, H = VIEWPORT["width"], VIEWPORT["height"]
QUADRANT = (0, 0, W // 2, H // 2)
#: a name Chromium resolves to this machine without taking it for a secure one
INSECURE = "receiver.example"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium([*ARGS, f"--host-resolver-rules=MAP {INSECURE} 127.0.0.1"])


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    for local in receiver_files():
        yield local.replace("127.0.0.1", INSECURE)


@pytest.fixture
def wire() -> Iterator[LiveWire]:
    wire = LiveWire().start()
    yield wire
    wire.close()


def number(page: Any, name: str) -> int | None:
    return read_number(screenshot(page, f"live-mse-{name}"), QUADRANT)


def test_without_webcodecs_the_stream_plays_through_mse(
    browser: Any, origin: str, wire: LiveWire
) -> None:
    context = browser.new_context(viewport=VIEWPORT)
    page = open_harness(context, origin, standalone(live_source(wire.url())))
    assert page.evaluate("() => [isSecureContext, typeof VideoDecoder]") == [False, "undefined"]
    wait_until(lambda: wire.fmp4_viewers, what="the page on the fragmented MP4")
    assert not wire.viewers
    first = wait_until(lambda: number(page, "playing"), timeout=15, what="a frame")
    wait_until(lambda: (number(page, "moving") or 0) > first, what="the picture moving")
    assert "higher latency: no secure context" in (mark(page) or "")

    wire.stop_source("connection refused")
    wait_until(lambda: "connection refused" in (mark(page) or ""), what="the mark")
    # what was buffered plays out (it runs behind), then the last frame sent stays: the
    # one before the last made, which the muxer writes only when a next one shows its length
    held = wire.last - 1
    wait_until(lambda: number(page, "held") == held, what=f"frame {held} held")
    page.wait_for_timeout(1000)
    assert number(page, "still-held") == held
    context.close()
