"""A live stream as fragmented MP4, for receivers without WebCodecs (a browser outside a
secure context plays it through Media Source Extensions, docs/live.md).

The relay's H.264 access units (Annex B, SPS and PPS in band before key frames) are
remuxed once per stream, never re-encoded, by FFmpeg's MP4 muxer through PyAV: an
initialisation segment (``ftyp`` and an empty ``moov``) and then one fragment (``moof``
and ``mdat``) per frame, a frame behind (a fragment is written when the next frame
shows its length). A viewer joining gets the initialisation segment and the fragments
since the last key frame, as the WebCodecs path gets the frames since the last key frame.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import av

MOVFLAGS = "frag_keyframe+empty_moov+default_base_moof+frag_every_frame"
#: MP4 time: 90 kHz, as RTP video
TIME_BASE = Fraction(1, 90_000)
TICKS_PER_MS = 90


class _Sink(io.RawIOBase):
    """Where the muxer writes: the bytes of each call, taken after it."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def write(self, data: Any) -> int:
        self._parts.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        data = b"".join(self._parts)
        self._parts.clear()
        return data


@dataclass
class Fragment:
    """Bytes of the fragmented MP4 and whether they start with a key frame."""

    data: bytes
    key: bool


@dataclass
class Fmp4Stream:
    """One live stream's fragmented MP4. ``push`` each access unit as it comes; it
    answers the fragment to send every viewer (or None); ``joining()`` is what a new
    viewer gets first. ``fps`` gives a frame's length until the next frame shows it."""

    fps: float = 30.0
    init: bytes = b""
    _since_key: list[Fragment] = field(default_factory=list)
    _out: Any = None
    _stream: Any = None
    _sink: _Sink = field(default_factory=_Sink)
    _first_ms: float = 0.0
    _last_pts: int = -1
    _pending_key: bool = False

    def push(self, access_unit: bytes, key: bool, at_ms: float) -> Fragment | None:
        """Mux one access unit (stamped with its host instant); the fragment of the one
        before, once written. Until the first key frame nothing is written."""
        if self._out is None:
            if not key:
                return None
            self._open(access_unit, at_ms)
        pts = max(round((at_ms - self._first_ms) * TICKS_PER_MS), self._last_pts + 1)
        packet = av.Packet(access_unit)
        packet.stream = self._stream
        packet.time_base = TIME_BASE
        packet.pts = packet.dts = pts
        packet.duration = max(round(TICKS_PER_MS * 1000 / (self.fps or 30.0)), 1)
        packet.is_keyframe = key
        self._last_pts = pts
        self._out.mux(packet)
        data = self._sink.take()
        fragment = Fragment(data, self._pending_key) if data else None
        self._pending_key = key
        if fragment is not None:
            if fragment.key:
                self._since_key.clear()
            self._since_key.append(fragment)
        return fragment

    def joining(self) -> list[bytes]:
        """What a viewer joining now is sent first: the initialisation segment and the
        fragments since the last key frame (nothing before the first key frame)."""
        if not self.init or not self._since_key or not self._since_key[0].key:
            return [self.init] if self.init else []
        return [self.init, *(f.data for f in self._since_key)]

    def close(self) -> None:
        if self._out is not None:
            # the last fragment is not wanted: the stream is over
            with contextlib.suppress(av.FFmpegError, OSError):
                self._out.close()
            self._out = None

    def _open(self, key_unit: bytes, at_ms: float) -> None:
        # the key frame's SPS and PPS give the stream's parameters (size, profile, avcC)
        with av.open(io.BytesIO(key_unit), format="h264") as probe:
            template = probe.streams.video[0]
            self._out = av.open(self._sink, "w", format="mp4", options={"movflags": MOVFLAGS})
            self._stream = self._out.add_stream_from_template(template)
        self._stream.time_base = TIME_BASE
        self._out.start_encoding()
        self.init = self._sink.take()
        self._first_ms = at_ms
