"""A capture device for machines without one: FFmpeg's test source (``testsrc2``, paced
in real time as a device delivers) behind the interface the host opens V4L2 devices
through (``tilewall.live.capture.DeviceInputs``), for the device paths named here; any
other path is opened as the V4L2 device it names."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from tilewall.live import capture

#: the device path the test source stands for
SYNTHETIC_DEVICE = "/dev/video7"


class SyntheticInputs:
    """``SYNTHETIC_DEVICE`` as FFmpeg's ``testsrc2`` at the size and rate asked for."""

    def __init__(self) -> None:
        self.opened: list[tuple[str, int, int, float]] = []

    def input_of(self, device: str, width: int, height: int, fps: float) -> capture.DeviceInput:
        self.opened.append((device, width, height, fps))
        if device != SYNTHETIC_DEVICE:
            return capture.V4l2Inputs().input_of(device, width, height, fps)
        graph = f"testsrc2=size={width}x{height}:rate={fps:g},realtime"
        return capture.DeviceInput(graph, "lavfi", {})


@contextlib.contextmanager
def synthetic_device() -> Iterator[SyntheticInputs]:
    """While in the block, ``SYNTHETIC_DEVICE`` is FFmpeg's test source (in this process)."""
    before = capture.inputs
    capture.inputs = inputs = SyntheticInputs()
    try:
        yield inputs
    finally:
        capture.inputs = before
