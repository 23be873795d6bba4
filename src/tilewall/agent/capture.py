"""This kiosk device's capture devices, shown on the wall: on the host's word the agent
opens a V4L2 device (``/dev/videoN`` only) at the size and rate asked for, encodes its
frames to H.264 here (the V4L2 mem2mem encoder where the device has one, as a Raspberry
Pi does, else libx264 at its fastest) and sends them to the host, which relays them.

The link is a WebSocket of its own to ``/live/agent/<seat>``, opened once the station is
locked (its key is the agent's right); the protocol is the host's
(``tilewall.live.agentcapture``). Each device is read and encoded in a thread of its own;
a device that fails is tried again every :data:`RETRY_S` while the host wants it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import struct
import threading
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from tilewall.agent.backoff import Backoff

log = logging.getLogger(__name__)

_DEVICE = re.compile(r"^/dev/video([0-9]{1,3})$")
#: a device path this agent opens as FFmpeg's test source instead of a V4L2 device (for
#: a machine without a capture card: the tests)
TEST_SOURCE_ENV = "TILEWALL_AGENT_TEST_CAPTURE"
RETRY_S = 2.0
#: frames waiting to be sent at most; past that, frames are dropped until a key frame
QUEUE_FRAMES = 60
_HEAD = struct.Struct(">HBd")
Out = Callable[[bytes | str, bool], None]


def _open(device: str, width: int, height: int, fps: float) -> Any:
    import av

    if device == os.environ.get(TEST_SOURCE_ENV):
        graph = f"testsrc2=size={width}x{height}:rate={fps:g},realtime"
        return av.open(graph, format="lavfi")
    options = {"video_size": f"{width}x{height}", "framerate": f"{fps:g}"}
    return av.open(device, format="v4l2", options=options, timeout=(5.0, 3.0))


def _encoder(width: int, height: int, fps: float) -> Any:
    import av

    keyint = max(1, round(fps))
    last: Exception | None = None
    for name in ("h264_v4l2m2m", "libx264"):
        try:
            encoder: Any = av.CodecContext.create(name, "w")
            encoder.width, encoder.height = width & ~1, height & ~1
            encoder.pix_fmt = "yuv420p"
            encoder.time_base = Fraction(1, 1_000_000)
            encoder.framerate = Fraction(fps).limit_denominator(1001)
            encoder.gop_size = keyint
            encoder.max_b_frames = 0
            if name == "libx264":
                params = f"keyint={keyint}:scenecut=0:repeat-headers=1"
                encoder.options = {
                    "preset": "ultrafast",
                    "tune": "zerolatency",
                    "x264-params": params,
                }
            encoder.open()
            return encoder
        except Exception as error:  # no such encoder on this device: the next
            last = error
    raise RuntimeError(f"no H.264 encoder opens here: {last}")


class Capture:
    """One device read, encoded and handed to ``out`` (from its own thread) until
    :meth:`stop`."""

    def __init__(self, device: str, width: int, height: int, fps: float, out: Out) -> None:
        self.device = device
        self.number = int(_DEVICE.fullmatch(device).group(1))  # type: ignore[union-attr]
        self._size = (width, height, fps)
        self._out = out
        self._stopped = threading.Event()
        self._key = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"capture {device}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()

    def key(self) -> None:
        self._key.set()

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                self._capture()
            except Exception as error:
                message = f"{self.device}: {error}"[:200]
                log.warning("capture of %s failed: %s", self.device, error)
                self._out(
                    json.dumps({"type": "failed", "device": self.device, "message": message}), True
                )
            self._stopped.wait(RETRY_S)

    def _capture(self) -> None:
        import av

        width, height, fps = self._size
        container = _open(self.device, width, height, fps)
        try:
            stream = container.streams.video[0]
            encoder = _encoder(width, height, fps)
            config = {"type": "config", "device": self.device}
            config |= {"codedWidth": encoder.width, "codedHeight": encoder.height}
            self._out(json.dumps(config), True)
            for packet in container.demux(stream):
                for frame in packet.decode():
                    if self._stopped.is_set():
                        return
                    self._encode(encoder, frame, av)
        finally:
            container.close()

    def _encode(self, encoder: Any, frame: Any, av: Any) -> None:
        seconds = frame.time if frame.time is not None else time.monotonic()
        picture = frame.reformat(encoder.width, encoder.height, "yuv420p")
        picture.pts = round(seconds * 1_000_000)
        picture.time_base = encoder.time_base
        if self._key.is_set():
            self._key.clear()
            picture.pict_type = av.video.frame.PictureType.I
        for packet in encoder.encode(picture):
            key = bool(packet.is_keyframe)
            head = _HEAD.pack(self.number, 1 if key else 0, float(packet.pts or 0))
            self._out(head + bytes(packet), key)


class CaptureLink:
    """The agent's capture WebSocket, kept up while the station has a key."""

    def __init__(self, ws_base: str, seat: str, key_of: Callable[[], str | None]) -> None:
        self._url = f"{ws_base}/live/agent/{seat}"
        self._seat = seat
        self._key_of = key_of
        self.captures: dict[str, Capture] = {}

    async def run(self, stop: asyncio.Event) -> None:
        backoff = Backoff()
        while not stop.is_set():
            key = self._key_of()
            if key:
                try:
                    headers = {"Cookie": f"tilewall_key_{self._seat}={key}"}
                    async with connect(
                        self._url, additional_headers=headers, open_timeout=10, close_timeout=2
                    ) as socket:
                        backoff.reset()
                        await self._session(socket, stop)
                except (
                    OSError,
                    TimeoutError,
                    InvalidHandshake,
                    InvalidURI,
                    ConnectionClosed,
                ) as error:
                    log.info("capture link to the host: %s", error or type(error).__name__)
                finally:
                    self._stop_all()
            # no key yet: looked for again each second (the station is being locked)
            wait = backoff.pause() if key else backoff.first
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), wait)

    async def _session(self, socket: ClientConnection, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[bytes | str] = asyncio.Queue()
        dropping = False

        def out(item: bytes | str, key: bool) -> None:
            nonlocal dropping
            if isinstance(item, bytes):
                dropping = (dropping or queue.qsize() > QUEUE_FRAMES) and not key
                if dropping:
                    return
            queue.put_nowait(item)

        def out_threadsafe(item: bytes | str, key: bool) -> None:
            loop.call_soon_threadsafe(out, item, key)

        async def send() -> None:
            while True:
                await socket.send(await queue.get())

        async def receive() -> None:
            async for message in socket:
                if isinstance(message, str):
                    self._handle(json.loads(message), out_threadsafe)

        async def stopping() -> None:
            await stop.wait()

        tasks = {asyncio.create_task(send()), asyncio.create_task(receive())}
        tasks.add(asyncio.create_task(stopping()))
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if not task.cancelled() and task.exception() is not None:
                    log.info("capture link: %s", task.exception())
        finally:
            for task in tasks:
                task.cancel()

    def _handle(self, message: dict[str, Any], out: Out) -> None:
        device = str(message.get("device", ""))
        if not _DEVICE.fullmatch(device):
            return  # only /dev/videoN, whatever the host asks
        kind = message.get("type")
        current = self.captures.get(device)
        if kind == "start":
            if current is not None:
                current.stop()
            size = (int(message["width"]), int(message["height"]), float(message["fps"]))
            log.info("capturing %s at %dx%d %g fps for the host", device, *size)
            capture = Capture(device, *size, out)
            self.captures[device] = capture
            capture.start()
        elif kind == "stop" and current is not None:
            log.info("capture of %s no longer wanted", device)
            current.stop()
            del self.captures[device]
        elif kind == "key" and current is not None:
            current.key()

    def _stop_all(self) -> None:
        for capture in self.captures.values():
            capture.stop()
        self.captures.clear()
