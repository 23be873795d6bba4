"""A live stream as fragmented MP4, for receivers without WebCodecs (a browser outside a
secure context plays it through Media Source Extensions, docs/live.md).

The relay's H.264 access units (Annex B, SPS and PPS in band before key frames), or a
screen share's VP9 frames, are remuxed once per stream, never re-encoded, by FFmpeg's MP4 muxer through PyAV: an
initialisation segment (``ftyp`` and an empty ``moov``) and then one fragment (``moof``
and ``mdat``) per frame, a frame behind (a fragment is written when the next frame
shows its length). A viewer joining gets the initialisation segment and the fragments
since the last key frame, as the WebCodecs path gets the frames since the last key frame.
One remux serves every such viewer of a stream (:class:`Fmp4Feeds`).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import struct
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import av

from tilewall.live.feeds import LiveRelays
from tilewall.live.relay import Counts, Viewer

MOVFLAGS = "frag_keyframe+empty_moov+default_base_moof+frag_every_frame"
#: MP4 time: 90 kHz, as RTP video
TIME_BASE = Fraction(1, 90_000)
TICKS_PER_MS = 90
#: the head of a frame on the wire (tilewall.live.wire): flags, then the host instant
FRAME_HEAD = struct.Struct(">Bd")
#: an IVF file's header and a frame's (a VP9 key frame is probed as a one-frame IVF file)
IVF_HEAD = struct.Struct("<4sHH4sHHIIII")
IVF_FRAME = struct.Struct("<IQ")


def one_frame_ivf(frame: bytes, width: int, height: int) -> bytes:
    """A VP9 frame as an IVF file, which FFmpeg's demuxer reads (raw VP9 it does not)."""
    head = IVF_HEAD.pack(b"DKIF", 0, IVF_HEAD.size, b"VP90", width, height, 30, 1, 1, 0)
    return head + IVF_FRAME.pack(len(frame), 0) + frame


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
    #: the stream's codec string (``avc1.…``; ``vp09.…`` for a screen share's VP9) and
    #: picture size, as the config message says
    codec: str = ""
    width: int = 0
    height: int = 0
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
        # the key frame's SPS and PPS give the stream's parameters (size, profile, avcC);
        # a VP9 key frame's header gives them as well
        probed, format_ = key_unit, "h264"
        if self.codec.startswith("vp09."):
            probed, format_ = one_frame_ivf(key_unit, self.width, self.height), "ivf"
        with av.open(io.BytesIO(probed), format=format_) as probe:
            template = probe.streams.video[0]
            self._out = av.open(self._sink, "w", format="mp4", options={"movflags": MOVFLAGS})
            self._stream = self._out.add_stream_from_template(template)
        self._stream.time_base = TIME_BASE
        self._out.start_encoding()
        self.init = self._sink.take()
        self._first_ms = at_ms


async def _nothing(_item: bytes | str) -> None:
    pass


class Fmp4Fanout(Viewer):
    """The viewers of one live source's fragmented MP4, joined to its relay as a single
    viewer: the relay's frames are remuxed here once, whatever the number of viewers,
    and each fragment is queued to every one of them (each through its own bounded
    queue, as the relay's own viewers)."""

    def __init__(self) -> None:
        super().__init__(_nothing)
        self.stream = Fmp4Stream()
        self.viewers: set[Viewer] = set()
        self.closed = False
        self.counts = Counts()
        self._texts: dict[str, str] = {}  # the last config and status, by type
        #: set when the last viewer left: the relay is let go
        self.emptied = asyncio.Event()

    # --- the relay's side (a Viewer's methods) ----------------------------------------------

    def text(self, text: str) -> None:
        kind = next((k for k in ("config", "status") if text.startswith(f'{{"type":"{k}"')), None)
        if kind is None:
            return  # the word that the frames are current is of the frames, not of the MP4
        self._texts[kind] = text
        if kind == "config":
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                config = json.loads(text)
                self.stream.fps = float(config.get("fps") or 30.0)
                self.stream.codec = str(config.get("codec") or "")
                self.stream.width = int(config.get("codedWidth") or 0)
                self.stream.height = int(config.get("codedHeight") or 0)
        for viewer in self.viewers:
            viewer.text(text)

    def frame(self, data: bytes, key: bool, counts: Counts, start: bool = False) -> None:
        self.counts = counts
        flags, at = FRAME_HEAD.unpack_from(data)
        had_init = self.stream.init
        fragment = self.stream.push(data[FRAME_HEAD.size :], bool(flags & 1), at)
        if self.stream.init is not had_init and self.stream.init:
            for viewer in self.viewers:  # a new stream: its own initialisation first
                viewer.frame(self.stream.init, True, counts, start=True)
        if fragment is not None:
            for viewer in self.viewers:
                viewer.frame(fragment.data, fragment.key, counts)

    def report(self, viewer: Viewer, text: str) -> None:
        """A viewer of the MP4's text: nothing the stream's delay follows (the MP4 is
        played by ``<video>``, which reports no margins)."""

    def close(self) -> None:
        """The relay let its viewers go (the source stopped being live, the host stops)."""
        self.closed = True
        self.stream.close()
        for viewer in list(self.viewers):
            viewer.close()

    async def run(self, counts: Counts) -> None:
        """Nothing to send of its own: each of its viewers sends."""

    @property
    def audience(self) -> int:
        return len(self.viewers)

    @property
    def without_webcodecs(self) -> int:
        return self.audience

    # --- its viewers -----------------------------------------------------------------------

    def add(self, viewer: Viewer) -> None:
        for kind in ("config", "status"):
            if kind in self._texts:
                viewer.text(self._texts[kind])
        # the initialisation segment and the fragment of a key frame, then the rest
        for n, data in enumerate(self.stream.joining()):
            viewer.frame(data, n <= 1, self.counts, start=True)
        self.viewers.add(viewer)

    def remove(self, viewer: Viewer) -> None:
        viewer.close()
        self.viewers.discard(viewer)
        if not self.viewers:
            self.emptied.set()


class Fmp4Feeds:
    """The fragmented MP4 of the live sources of ``relays``: one :class:`Fmp4Fanout` a
    source, joined to its relay while anyone views it."""

    def __init__(self, relays: LiveRelays) -> None:
        self._relays = relays
        self._fanouts: dict[str, Fmp4Fanout] = {}

    @contextlib.asynccontextmanager
    async def viewing(self, source_id: str, viewer: Viewer) -> AsyncIterator[Fmp4Fanout]:
        """``viewer`` sent the MP4 of ``source_id`` while in the block; raises as
        :meth:`LiveRelays.viewing` does."""
        fanout = self._fanouts.get(source_id)
        if fanout is None or fanout.closed or fanout.emptied.is_set():
            fanout = Fmp4Fanout()
            joined: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            task = asyncio.create_task(self._hold(source_id, fanout, joined))
            try:
                await joined
            except BaseException:
                task.cancel()
                raise
            self._fanouts[source_id] = fanout
        fanout.add(viewer)
        try:
            yield fanout
        finally:
            fanout.remove(viewer)
            if fanout.emptied.is_set() and self._fanouts.get(source_id) is fanout:
                del self._fanouts[source_id]

    async def _hold(self, source_id: str, fanout: Fmp4Fanout, joined: asyncio.Future[None]) -> None:
        try:
            async with self._relays.viewing(source_id, fanout) as relay:
                fanout.counts = relay.counts  # what its viewers send counts as the relay's
                joined.set_result(None)
                await fanout.emptied.wait()
        except Exception as error:
            if not joined.done():
                joined.set_exception(error)
        finally:
            fanout.stream.close()
