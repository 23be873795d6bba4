"""A capture device on the host (an HDMI capture card, a camera: ``/dev/videoN``) as a
live input: opened with FFmpeg's V4L2 input through PyAV at the resolution and frame
rate the source asks for, its frames encoded once to H.264 (a hardware encoder where
one opens, else libx264: ``tilewall.live.encoding``) for every viewer.

How a device path becomes an FFmpeg input is :class:`DeviceInputs`' one method, so the
same opening, reading and encoding run on another input behind it (the tests put
FFmpeg's test source there on machines without a V4L2 device). Only ``/dev/videoN`` is
ever opened (``tilewall.host.content.screens.check_device``, asked again here)."""

from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Any, Protocol

import av
import av.error

from tilewall.host.content import screens
from tilewall.host.content.live import LiveInput
from tilewall.host.errors import Invalid
from tilewall.live.failure import InputFailed

OPEN_TIMEOUT_S = 5.0
READ_TIMEOUT_S = 3.0


@dataclass(frozen=True)
class DeviceInput:
    """What FFmpeg opens: ``file`` in input ``format`` with ``options``."""

    file: str
    format: str
    options: dict[str, str]


class DeviceInputs(Protocol):
    def input_of(self, device: str, width: int, height: int, fps: float) -> DeviceInput: ...


class V4l2Inputs:
    """A V4L2 device through FFmpeg's ``video4linux2`` input."""

    def input_of(self, device: str, width: int, height: int, fps: float) -> DeviceInput:
        options = {"video_size": f"{width}x{height}", "framerate": f"{fps:g}"}
        return DeviceInput(device, "v4l2", options)


#: how device paths are opened (tests may put another input behind the same interface)
inputs: DeviceInputs = V4l2Inputs()


def device_of(source: LiveInput) -> str:
    """The device path of a capture input ``v4l2:///dev/videoN``, checked again."""
    path = source.url.removeprefix(f"{screens.CAPTURE_SCHEME}://")
    try:
        return screens.check_device("Device", path)
    except Invalid as refused:
        raise InputFailed(str(refused), lasting=True) from None


_ERRNO = {
    errno.ENOENT: "no such capture device: {device}",
    errno.ENODEV: "no such capture device: {device}",
    errno.ENXIO: "no such capture device: {device}",
    errno.EBUSY: "the capture device {device} is busy (another program uses it)",
    errno.EACCES: "permission denied: the host may not open {device} (its group: video)",
    errno.EPERM: "permission denied: the host may not open {device} (its group: video)",
    errno.EINVAL: "the capture device {device} cannot give {size} at {fps:g} fps",
    errno.EIO: "input/output error reading {device} (no signal at its input?)",
}


def open_device(source: LiveInput) -> Any:
    """The opened container of the capture device of ``source`` (a PyAV
    ``InputContainer``); :class:`InputFailed` naming what went wrong."""
    device = device_of(source)
    found = inputs.input_of(device, source.width, source.height, source.fps)
    try:
        return av.open(
            found.file,
            "r",
            format=found.format,
            options=found.options,
            timeout=(OPEN_TIMEOUT_S, READ_TIMEOUT_S),
        )
    except av.error.FFmpegError as error:
        words = _ERRNO.get(error.errno or 0)
        if words is None:
            raise InputFailed(f"the capture device {device} failed: {error.strerror}") from None
        size = f"{source.width}x{source.height}"
        lasting = error.errno != errno.EIO
        raise InputFailed(words.format(device=device, size=size, fps=source.fps), lasting) from None
