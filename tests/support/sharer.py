"""A screen sharer as the host sees one: it starts a share over the interface
(``POST /api/shares``), then sends H.264 frames, encoded here by libx264 through PyAV, to
the share's ingest WebSocket as the /share/ page sends them (docs/share.md, "On the
wire"): a config message with the picture's size, then for each frame 1 byte of flags,
8 bytes of capture timestamp (microseconds, float64 big-endian) and the access unit in
Annex B. The picture is the frame-numbered pattern (``tests.support.framecode``), so a
viewer or a receiver's screenshot tells which frame it shows. It makes a key frame every
``gop`` frames and whenever the host asks (``{"type": "key"}``). With ``codec="vp9"`` it
sends VP9 from libvpx instead, as a browser without an H.264 encoder does."""

from __future__ import annotations

import asyncio
import contextlib
import json
import struct
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import av
import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as sync_connect

from tests.support.live_wire import picture
from tests.support.topology import unique

#: the codec string of the VP9 a sharer sends (profile 0, level 5, 8 bits), as the share
#: page's encoder configuration names it
VP9_CODEC = "vp09.00.50.08"


@dataclass
class Sharer:
    """Shares to the host at ``base`` (``http://host:port``) with ``client`` (a logged-in
    httpx client under /api, or any client for a guest)."""

    base: str
    width: int = 640
    height: int = 360
    fps: int = 30
    gop: int = 90
    #: "h264" (libx264, Annex B) or "vp9" (libvpx, with the codec string below)
    codec: str = "h264"
    #: the share's answer from the host
    share: dict[str, Any] = field(default_factory=dict)
    #: frames sent so far (the number of the next one)
    sent: int = 0
    #: key frames the host asked for
    keys_asked: int = 0
    #: (close code, reason) once the host closed the connection
    closed: tuple[int, str] | None = None
    #: the instant (time.time(), s) each frame number was made
    made_at: dict[int, float] = field(default_factory=dict)
    _encoder: Any = None
    _socket: ClientConnection | None = None
    _want_key: bool = True

    def start(self, client: httpx.Client, target: str | None, target_id: str, **extra: Any) -> Any:
        """Start the share (``target`` None: a guest's, to the display showing the code);
        the host's answer (an httpx response)."""
        body = {"target": target, "id": target_id, **extra}
        answer = client.post("/shares", json=body)
        if answer.status_code == 201:
            self.share = answer.json()
        return answer

    @property
    def source_id(self) -> str:
        return str(self.share["sourceId"])

    async def connect(self) -> ClientConnection:
        url = self.base.replace("http", "ws", 1) + self.share["ingest"]
        self._socket = await connect(f"{url}?token={self.share['token']}", max_size=1 << 20)
        size: dict[str, Any] = {"type": "config", "codedWidth": self.width}
        size["codedHeight"] = self.height
        if self.codec == "vp9":
            size["codec"] = VP9_CODEC
        with contextlib.suppress(ConnectionClosed):  # a refused sharer is closed at once
            await self._socket.send(json.dumps(size))
        return self._socket

    def _new_encoder(self) -> Any:
        if self.codec == "vp9":
            return self._new_vp9_encoder()
        encoder = av.CodecContext.create("libx264", "w")
        encoder.width, encoder.height = self.width, self.height
        encoder.pix_fmt = "yuv420p"
        encoder.time_base = Fraction(1, self.fps)
        encoder.framerate = Fraction(self.fps)
        encoder.max_b_frames = 0
        encoder.options = {
            "preset": "ultrafast",
            "tune": "zerolatency",
            "x264-params": f"keyint={self.gop}:scenecut=0:repeat-headers=1",
        }
        encoder.open()
        return encoder

    def _new_vp9_encoder(self) -> Any:
        encoder = av.CodecContext.create("libvpx-vp9", "w")
        encoder.width, encoder.height = self.width, self.height
        encoder.pix_fmt = "yuv420p"
        encoder.time_base = Fraction(1, self.fps)
        encoder.framerate = Fraction(self.fps)
        encoder.gop_size = self.gop
        encoder.bit_rate = 1_000_000
        # real time, each frame out as it goes in (as WebCodecs' "realtime" mode)
        encoder.options = {"deadline": "realtime", "cpu-used": "8", "lag-in-frames": "0"}
        encoder.open()
        return encoder

    def encode(self, number: int, key: bool) -> tuple[bool, bytes]:
        """Frame ``number`` of the pattern, encoded: whether it is a key frame, its bytes."""
        if self._encoder is None:
            self._encoder = self._new_encoder()
        frame = picture(number, self.width, self.height)
        frame.pts = number
        frame.time_base = Fraction(1, self.fps)
        if key:
            frame.pict_type = av.video.frame.PictureType.I
        data, is_key = b"", False
        for packet in self._encoder.encode(frame):
            data += bytes(packet)
            is_key = is_key or bool(packet.is_keyframe)
        return is_key, data

    async def send(self, frames: int) -> None:
        """Send ``frames`` frames at the sharer's rate, answering the host's requests."""
        assert self._socket is not None
        listening = asyncio.create_task(self._listen())
        start = time.monotonic()
        try:
            for n in range(frames):
                await asyncio.sleep(max(0.0, start + n / self.fps - time.monotonic()))
                if self.closed is not None:
                    return
                number = self.sent
                self.made_at[number] = time.time()
                key, data = self.encode(number, self._want_key)
                self._want_key = False
                stamp = number * 1_000_000 / self.fps
                with contextlib.suppress(ConnectionClosed):
                    await self._socket.send(struct.pack(">Bd", int(key), stamp) + data)
                self.sent += 1
        finally:
            listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listening

    async def _listen(self) -> None:
        assert self._socket is not None
        try:
            async for message in self._socket:
                if json.loads(message).get("type") == "key":
                    self.keys_asked += 1
                    self._want_key = True
        except ConnectionClosed as closed:
            if closed.rcvd is not None:
                self.closed = (closed.rcvd.code, closed.rcvd.reason)

    async def wait_closed(self, timeout: float = 10) -> tuple[int, str]:
        """The close code and reason the host ended the connection with."""
        assert self._socket is not None
        deadline = time.monotonic() + timeout
        with contextlib.suppress(ConnectionClosed):
            while True:  # requests for key frames may come before the close
                await asyncio.wait_for(self._socket.recv(), deadline - time.monotonic())
        code = self._socket.close_code
        assert code is not None, "the host did not close the connection"
        return code, self._socket.close_reason or ""

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()


def announce(base: str, seat: str) -> None:
    """A receiver of seat ``seat`` says hello to the host at ``base`` and goes: the host
    knows its station (available), so it can be locked."""
    hello = {
        "v": 1,
        "type": "hello",
        "seatId": seat,
        "screen": {"width": 1920, "height": 1080},
        "resolutions": [{"width": 1920, "height": 1080}],
        "model": "test receiver",
        "firmware": "test",
        "rev": 0,
    }
    with sync_connect(base.replace("http", "ws", 1) + "/receiver/ws") as socket:
        socket.send(json.dumps(hello))
        socket.recv(10)


def new_display(host: Any) -> int:
    """A new receiver's station, locked on ``host`` (a ServerProcess): its display id."""
    seat = unique("share-seat").replace(" ", "-")
    announce(host.url, seat)
    return int(host.lock(seat))


def playing(host: Any, display_id: int) -> str:
    """The source ``display_id`` plays, as the interface says."""
    return str(host.ok("GET", f"/displays/{display_id}")["playingSourceId"])
