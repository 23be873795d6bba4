"""A live source on the receivers' wire: a small WebSocket server that encodes a
frame-numbered picture with libx264 (PyAV) and sends each access unit the way the host
relays a live stream (docs/protocol.md, "Live sources"):

- text ``{"type": "config", "codec", "codedWidth", "codedHeight", "fps"}`` on join;
- text ``{"type": "status", "state", "message"}``;
- binary: 1 byte of flags (bit 0: key frame), 8 bytes big-endian float64 ``at`` (the
  host-clock instant, ms since the epoch, at which to present the frame), one H.264
  access unit in Annex B (SPS and PPS in band before every key frame).

A joining viewer gets the frames since the last key frame first, then text
``{"type": "current"}``, as from the host; what a page sends back (its margins) is kept in
``reports``. A
viewer of ``/live/<name>?format=fmp4`` gets the same stream as fragmented MP4
(``tilewall.live.fmp4``) in binary messages instead, for pages without WebCodecs.
Receiver-page tests and benchmarks use it without a host; ``at`` is this machine's wall
clock plus ``delay_ms``, which is the host clock of a host on the same machine.

The picture is the project's frame-numbered pattern (``tests.support.framecode``): the
number in strips repeated over the whole picture, so that every tile of a wall holds it,
and dark modules tinted by where they are, so that a tile's crop can be told.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import struct
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import av
import numpy as np
from websockets.asyncio.server import ServerConnection, serve

from tests.support.framecode import FrameMaker, Pattern, read_frame_number, read_position
from tilewall.live.fmp4 import Fmp4Stream

WIDTH, HEIGHT = 640, 360
_makers: dict[tuple[int, int], FrameMaker] = {}


def picture(number: int, width: int = WIDTH, height: int = HEIGHT) -> av.VideoFrame:
    """Frame ``number`` of the pattern, ready for an encoder (YUV 4:2:0)."""
    maker = _makers.get((width, height))
    if maker is None:
        maker = _makers[width, height] = FrameMaker(Pattern(width, height))
    planes = np.frombuffer(maker.frame(number), dtype=np.uint8).reshape(height * 3 // 2, width)
    return av.VideoFrame.from_ndarray(planes, format="yuv420p")


def _region(box: tuple[int, int, int, int] | None) -> tuple[int, int, int, int] | None:
    return None if box is None else (box[0], box[1], box[2] - box[0], box[3] - box[1])


def read_number(image: Any, box: tuple[int, int, int, int] | None = None) -> int | None:
    """The frame number shown in ``box`` (left, top, right, bottom) of a Pillow image (the
    whole image by default), or None where no pattern can be read."""
    return read_frame_number(np.asarray(image.convert("RGB")), _region(box))


def position(
    image: Any, box: tuple[int, int, int, int] | None = None
) -> tuple[float, float] | None:
    """Where the part of the pattern shown in ``box`` sits in the whole picture: its
    centre as fractions of the picture's width and height."""
    return read_position(np.asarray(image.convert("RGB")), _region(box))


def in_quarters(positions: list[tuple[float, float] | None]) -> bool:
    """Whether four tiles' ``position`` readings (top left, top right, bottom left, bottom
    right) show the four quarters of one picture: right of and below one another. Only
    the order is asked: Chromium's colours after H.264 and scaling shift the tint read."""
    if any(p is None for p in positions):
        return False
    (tl, tr, bl, br) = [p for p in positions if p is not None]
    apart, level = 0.2, 0.15
    return (
        tr[0] - tl[0] > apart
        and br[0] - bl[0] > apart
        and bl[1] - tl[1] > apart
        and br[1] - tr[1] > apart
        and abs(tl[0] - bl[0]) < level
        and abs(tr[0] - br[0]) < level
        and abs(tl[1] - tr[1]) < level
        and abs(bl[1] - br[1]) < level
    )


def codec_string(access_unit: bytes) -> str | None:
    """The WebCodecs codec string (``avc1.PPCCLL``) from the SPS in ``access_unit``."""
    for nal in nal_units(access_unit):
        if nal and nal[0] & 0x1F == 7 and len(nal) >= 4:
            return "avc1." + nal[1:4].hex().upper()
    return None


def nal_units(data: bytes) -> Iterator[bytes]:
    """The NAL units of an Annex B byte stream."""
    starts = []
    i = data.find(b"\x00\x00\x01")
    while i >= 0:
        starts.append(i + 3)
        i = data.find(b"\x00\x00\x01", i + 3)
    for n, start in enumerate(starts):
        end = starts[n + 1] - 3 if n + 1 < len(starts) else len(data)
        yield data[start:end].rstrip(b"\x00")


def frame_message(key: bool, at_ms: float, access_unit: bytes) -> bytes:
    """One frame on the wire."""
    return struct.pack(">Bd", 1 if key else 0, at_ms) + access_unit


@dataclass
class Frame:
    number: int
    key: bool
    at_ms: float
    data: bytes


@dataclass
class LiveWire:
    """The server; ``start()`` it, point a live source's ``url`` at ``url(name)``."""

    fps: int = 30
    #: host-clock delay from a frame's making to its presentation
    delay_ms: float = 150.0
    gop: int = 30
    width: int = WIDTH
    height: int = HEIGHT
    port: int = 0
    #: frames made so far (the number of the next one)
    made: int = 0
    #: connections accepted, and open now
    joins: int = 0
    viewers: set[ServerConnection] = field(default_factory=set)
    #: the viewers of the fragmented MP4
    fmp4_viewers: set[ServerConnection] = field(default_factory=set)
    #: what the pages said, in order (their margins: docs/live.md, "On the wire")
    reports: list[Any] = field(default_factory=list)
    _fmp4: Fmp4Stream | None = None
    _gop_frames: list[Frame] = field(default_factory=list)
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None
    _producing: bool = False
    _config: dict[str, Any] | None = None
    _status: dict[str, Any] = field(
        default_factory=lambda: {"type": "status", "state": "connecting", "message": "opening"}
    )
    _stopped: threading.Event = field(default_factory=threading.Event)
    _ready: threading.Event = field(default_factory=threading.Event)

    # --- control (from the test's thread) -----------------------------------------------

    def start(self) -> LiveWire:
        self._thread = threading.Thread(target=self._run, name="live-wire", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the live wire did not start")
        self.resume()
        return self

    def close(self) -> None:
        self._stopped.set()
        if self._thread:
            self._thread.join(10)

    def url(self, name: str = "test") -> str:
        """The source's URL as a receiver page on another origin reaches it."""
        return f"http://127.0.0.1:{self.port}/live/{name}"

    def stop_source(self, message: str = "connection refused") -> None:
        """The stream stops at the frame made last; viewers are told it is reconnecting."""
        self._call(self._halt, {"type": "status", "state": "reconnecting", "message": message})

    def resume(self) -> None:
        """The stream comes back: a new encoder (starting with a key frame), status live."""
        self._call(self._begin)

    def drop_viewers(self) -> None:
        """Close every viewer's connection (the host went away)."""
        self._call(self._drop)

    @property
    def last(self) -> int:
        """The number of the last frame made."""
        return self.made - 1

    def _call(self, fn: Any, *args: Any) -> None:
        assert self._loop is not None
        asyncio.run_coroutine_threadsafe(fn(*args), self._loop).result(10)

    # --- the server's loop ---------------------------------------------------------------

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        async with serve(self._viewer, "127.0.0.1", self.port) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            self._ready.set()
            producer = asyncio.create_task(self._produce())
            while not self._stopped.is_set():
                await asyncio.sleep(0.05)
            producer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await producer

    async def _viewer(self, ws: ServerConnection) -> None:
        self.joins += 1
        fmp4 = "format=fmp4" in (ws.request.path if ws.request else "")
        group = self.fmp4_viewers if fmp4 else self.viewers
        group.add(ws)
        try:
            if self._config:
                await ws.send(json.dumps(self._config))
            await ws.send(json.dumps(self._status))
            if fmp4 and self._fmp4:
                for data in self._fmp4.joining():
                    await ws.send(data)
            for frame in [] if fmp4 else list(self._gop_frames):
                await ws.send(frame_message(frame.key, frame.at_ms, frame.data))
            if not fmp4:
                await ws.send(json.dumps({"type": "current"}))
            async for said in ws:  # a page's reports of its margins; ends at the close
                if isinstance(said, str):
                    self.reports.append(json.loads(said))
        finally:
            group.discard(ws)

    async def _broadcast(self, message: str | bytes, fmp4: bool | None = None) -> None:
        """To the viewers of frames (``fmp4`` False), of the MP4 (True), or all (None)."""
        viewers = (
            {False: self.viewers, True: self.fmp4_viewers}.get(fmp4) if fmp4 is not None else None
        )
        for ws in list(viewers if viewers is not None else self.viewers | self.fmp4_viewers):
            with contextlib.suppress(Exception):
                await ws.send(message)

    async def _halt(self, status: dict[str, Any]) -> None:
        self._producing = False
        self._status = status
        await self._broadcast(json.dumps(status))

    async def _begin(self) -> None:
        self._encoder = self._new_encoder()
        self._fmp4 = Fmp4Stream(fps=self.fps)
        self._gop_frames = []
        self._producing = True

    async def _drop(self) -> None:
        for ws in list(self.viewers | self.fmp4_viewers):
            await ws.close()

    def _new_encoder(self) -> Any:
        ctx = av.CodecContext.create("libx264", "w")
        ctx.width, ctx.height, ctx.pix_fmt = self.width, self.height, "yuv420p"
        ctx.time_base = Fraction(1, self.fps)
        ctx.framerate = Fraction(self.fps, 1)
        ctx.gop_size = self.gop
        ctx.bit_rate = 2_000_000
        ctx.options = {"preset": "ultrafast", "tune": "zerolatency", "bf": "0"}
        ctx.open()
        return ctx

    async def _produce(self) -> None:
        period = 1 / self.fps
        next_at = time.monotonic()
        while True:
            next_at += period
            await asyncio.sleep(max(next_at - time.monotonic(), 0))
            if not self._producing:
                next_at = time.monotonic()
                continue
            await self._make_one()

    async def _make_one(self) -> None:
        now_ms = time.time() * 1000
        number = self.made
        image = picture(number, self.width, self.height)
        image.pts = number
        packets = self._encoder.encode(image)
        self.made += 1
        for packet in packets:
            data = bytes(packet)
            frame = Frame(number, bool(packet.is_keyframe), now_ms + self.delay_ms, data)
            if frame.key:
                self._gop_frames = []
                config = self._config_of(data)
                if config != self._config:
                    self._config = config
                    await self._broadcast(json.dumps(config))
                if self._status.get("state") != "live":
                    self._status = {"type": "status", "state": "live", "message": ""}
                    await self._broadcast(json.dumps(self._status))
            self._gop_frames.append(frame)
            await self._broadcast(frame_message(frame.key, frame.at_ms, data), fmp4=False)
            await self._fragment(frame)

    async def _fragment(self, frame: Frame) -> None:
        if self._fmp4 is None:
            return
        new = not self._fmp4.init
        fragment = self._fmp4.push(frame.data, frame.key, frame.at_ms)
        if new and self._fmp4.init:  # a new stream (resumed): its own initialisation
            await self._broadcast(self._fmp4.init, fmp4=True)
        if fragment:
            await self._broadcast(fragment.data, fmp4=True)

    def _config_of(self, key_unit: bytes) -> dict[str, Any]:
        return {
            "type": "config",
            "codec": codec_string(key_unit) or "avc1.42C01E",
            "codedWidth": self.width,
            "codedHeight": self.height,
            "fps": self.fps,
        }


@dataclass
class UdpPattern:
    """The same frame-numbered picture as a camera or encoder pushes it: H.264 in
    MPEG-TS over UDP to ``url`` (a host's live source listens there), from a thread.
    ``stop()`` and ``start()`` again: the source goes away and comes back; numbers go on."""

    port: int
    fps: int = 30
    gop: int = 30
    made: int = 0
    _thread: threading.Thread | None = None
    _stopping: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        return f"udp://127.0.0.1:{self.port}"

    @property
    def last(self) -> int:
        return self.made - 1

    def start(self) -> UdpPattern:
        self._stopping.clear()
        self._thread = threading.Thread(target=self._push, name="udp-pattern", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread:
            self._thread.join(10)
        self._thread = None

    def _push(self) -> None:
        target = f"{self.url}?pkt_size=1316"
        with av.open(target, "w", format="mpegts") as out:
            stream = out.add_stream("libx264", rate=self.fps)
            stream.width, stream.height, stream.pix_fmt = WIDTH, HEIGHT, "yuv420p"
            stream.codec_context.gop_size = self.gop
            stream.codec_context.options = {"preset": "ultrafast", "tune": "zerolatency"}
            started = time.monotonic()
            first = self.made
            while not self._stopping.is_set():
                n = self.made - first
                time.sleep(max(started + n / self.fps - time.monotonic(), 0))
                frame = picture(self.made)
                frame.pts = n
                for packet in stream.encode(frame):
                    out.mux(packet)
                self.made += 1
            for packet in stream.encode(None):
                out.mux(packet)
