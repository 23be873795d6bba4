"""Fixtures of real live sources (tests.support.live_sources) for the live tests."""

from collections.abc import Iterator

import pytest

from tests.support.framecode import Pattern
from tests.support.live_sources import RtspServer


@pytest.fixture
def live_pattern() -> Pattern:
    """The frame-numbered pattern, 640x360 at 30 frames a second, counted from now."""
    return Pattern()


@pytest.fixture
def rtsp_server(live_pattern: Pattern) -> Iterator[RtspServer]:
    """GStreamer's RTSP server (``/h264``, ``/h265``, ``/mjpeg``), no credentials."""
    with RtspServer(live_pattern) as server:
        yield server
