"""Fixtures of real live sources (tests.support.live_sources) for the live tests, and of
receiver pages drawing live sources without a host (tests.support.live_pages)."""

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import chromium
from tests.support.framecode import Pattern
from tests.support.live_pages import receiver_files
from tests.support.live_sources import RtspServer
from tests.support.live_wire import LiveWire


@pytest.fixture
def live_pattern() -> Pattern:
    """The frame-numbered pattern, 640x360 at 30 frames a second, counted from now."""
    return Pattern()


@pytest.fixture
def rtsp_server(live_pattern: Pattern) -> Iterator[RtspServer]:
    """GStreamer's RTSP server (``/h264``, ``/h265``, ``/mjpeg``), no credentials."""
    with RtspServer(live_pattern) as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium for receiver pages (a module may want other flags: its own)."""
    yield from chromium()


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    """The origin serving the receiver's files and the harness page (tests.support.live_pages)."""
    yield from receiver_files()


@pytest.fixture
def wire() -> Iterator[LiveWire]:
    """A live source on the receivers' wire (tests.support.live_wire)."""
    wire = LiveWire().start()
    yield wire
    wire.close()
