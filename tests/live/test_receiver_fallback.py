"""A receiver page outside a secure context (a TV's browser over plain HTTP) has no
WebCodecs: it plays a live source as fragmented MP4 through Media Source Extensions
(real Chromium, the page loaded from a name that is not this machine's), says it runs
late, and still holds its picture with a mark when the source stops."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import (
    ARGS,
    VIEWPORT,
    chromium,
    needs_chromium,
    screenshot,
    wait_connected,
)
from tests.support.live_pages import live_source, mark, open_harness, receiver_files, standalone
from tests.support.live_wire import LiveWire, UdpPattern, read_number
from tests.support.server import ServerProcess, free_port, running
from tests.support.sources import RTSP, source_body
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.live, needs_chromium]

W, H = VIEWPORT["width"], VIEWPORT["height"]
#: a name Chromium resolves to this machine without taking it for a secure one
INSECURE = "receiver.example"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium([*ARGS, f"--host-resolver-rules=MAP {INSECURE} 127.0.0.1"])


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    for local in receiver_files():
        yield local.replace("127.0.0.1", INSECURE)


def playing(page: Any) -> str:
    """The ``<video>``'s own account of where it is, for a failure's message."""
    return str(
        page.evaluate(
            """() => { const v = document.querySelector("video.live-picture");
              if (!v) return "no video";
              const b = v.buffered, ends = [];
              for (let i = 0; i < b.length; i++) ends.push([b.start(i), b.end(i)]);
              return {time: v.currentTime, paused: v.paused, ready: v.readyState, buffered: ends,
                      error: v.error && v.error.message}; }"""
        )
    )


def number(page: Any, name: str) -> int | None:
    return read_number(screenshot(page, f"live-mse-{name}"))


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
    seen: list[int | None] = []

    def holding() -> bool:
        seen.append(number(page, "held"))
        return seen[-1] == held

    wait_until(
        holding,
        what=lambda: f"frame {held} held: the screen read {seen[-8:]} last; {playing(page)}",
    )
    page.wait_for_timeout(1000)
    assert number(page, "still-held") == held
    context.close()


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from running(tmp_path_factory, "live-tv", in_process=True)


def test_a_tv_over_plain_http_plays_a_camera_through_the_host(
    browser: Any, host: ServerProcess
) -> None:
    """A receiver page loaded from the host by a name that is not this machine's: the
    host's own fragmented MP4 of a camera (``?format=fmp4``), with the station's key."""
    camera = UdpPattern(free_port()).start()
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(f"{host.url.replace('127.0.0.1', INSECURE)}/receiver/?seat=tv-1")
        wait_connected(page)
        display_id = host.lock("tv-1")
        source_id = host.ok(
            "POST", "/sources", json=source_body(RTSP, "Door camera", URL=camera.url)
        )["sourceId"]
        host.ok("PUT", f"/displays/{display_id}/switch", params={"destinationSourceId": source_id})
        page.wait_for_selector("video.live-picture", timeout=10_000)
        first = wait_until(lambda: number(page, "tv"), timeout=20, what="the camera's picture")
        wait_until(lambda: (number(page, "tv-moving") or 0) > first, what="the picture moving")
        assert "higher latency: no secure context" in (mark(page) or "")
        status = host.ok("GET", f"/sources/{source_id}/status")
        assert status["state"] == "live" and status["viewers"] == 1, status
        # the operator reading the source's status learns why this display runs late
        assert status["message"].startswith("live: "), status
        assert "1 of 1 viewers without a secure context" in status["message"], status
        assert "higher latency" in status["message"], status
    finally:
        context.close()
        camera.stop()
