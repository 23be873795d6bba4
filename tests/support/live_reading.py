"""Reading live URLs with PyAV as the host does (``srt://`` through ``open_srt``): what a
stream is, and the frame numbers of the pattern (framecode) in its first frames."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tests.support.framecode import read_frame_number


@dataclass(frozen=True)
class Probe:
    codec: str
    width: int
    height: int
    fps: float


@contextlib.contextmanager
def opened(url: str, transport: str | None = None, timeout: float = 10) -> Iterator[Any]:
    """A PyAV container of a live URL (``srt://`` through ``open_srt``, as the host opens
    it); ``transport`` ("tcp" or "udp") is RTSP's. Read it with ``demux``."""
    import av

    container: Any
    if url.startswith("srt://"):
        from tilewall.live.srt import open_srt

        container = open_srt(url, {}, (timeout, timeout))
    else:
        options = {"rtsp_transport": transport} if transport else {}
        container = av.open(url, options=options, timeout=timeout)
    try:
        yield container
    finally:
        container.close()


def frames(container: Any, stream: Any) -> Iterator[Any]:
    """The decoded frames of ``stream``, as they come."""
    for packet in container.demux(stream):
        yield from packet.decode()


def sample(
    url: str, count: int = 10, transport: str | None = None, timeout: float = 10
) -> tuple[Probe, list[int | None]]:
    """What the first video stream at ``url`` is, and the frame numbers of its first
    ``count`` frames, over one connection (an SRT or HTTP publisher serves one at a time
    and needs a moment to listen again)."""
    numbers: list[int | None] = []
    with opened(url, transport, timeout) as container:
        stream = container.streams.video[0]
        rate = stream.average_rate or stream.guessed_rate or 0
        found = Probe(stream.codec_context.name, stream.width, stream.height, float(rate))
        if count:
            for frame in frames(container, stream):
                numbers.append(read_frame_number(frame.to_ndarray(format="rgb24")))
                if len(numbers) == count:
                    break
    return found, numbers


def probe(url: str, transport: str | None = None, timeout: float = 10) -> Probe:
    """The codec, size and rate of the first video stream at ``url``."""
    return sample(url, 0, transport, timeout)[0]


def read_numbers(url: str, count: int = 10, transport: str | None = None) -> list[int | None]:
    """The frame numbers of the first ``count`` frames decoded from ``url``."""
    return sample(url, count, transport)[1]


def all_read(numbers: list[int | None]) -> list[int]:
    """``numbers``, every one of them read (fails naming them if a picture was not)."""
    read = [n for n in numbers if n is not None]
    assert len(read) == len(numbers), f"pictures without a number: {numbers}"
    return read
