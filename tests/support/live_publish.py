"""Live sources for the host's relay tests, made by Debian's ffmpeg: a test pattern
encoded live (H.264, HEVC or MJPEG) and served as MPEG-TS over HTTP by ffmpeg itself
(``-listen 1``: one connection only, so a second pull of the same stream fails, which is
what "one connection at the server" is checked with), or pushed over UDP; and viewers of
``/live/<sourceId>`` as a receiver would be, over a real WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import json
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from tests.support.live_process import Child, free_port
from tests.support.live_sources import HttpServer

FFMPEG = "/usr/bin/ffmpeg"
ENCODERS = {
    "h264": ["-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "15"],
    "hevc": ["-c:v", "libx265", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "15"],
    "mjpeg": ["-c:v", "mjpeg", "-q:v", "8"],
    "mpeg2": ["-c:v", "mpeg2video", "-g", "15"],
}


class Publisher(Child):
    """An ffmpeg process making a live stream at ``url`` from one of ffmpeg's own test
    sources (lavfi); ``restart()`` serves again."""

    name = "ffmpeg"

    def __init__(self, url: str, args: list[str]) -> None:
        super().__init__()
        self.url = url
        self.args = args

    def command(self) -> list[str]:
        return self.args


def _lavfi(source: str) -> list[str]:
    """ffmpeg reading lavfi's ``source`` in real time."""
    return [FFMPEG, "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i", source]


def _pattern(codec: str, size: str = "320x180", rate: int = 30) -> list[str]:
    return [
        *_lavfi(f"testsrc2=size={size}:rate={rate}"),
        *ENCODERS[codec],
        "-pix_fmt",
        "yuvj420p" if codec == "mjpeg" else "yuv420p",
    ]


@contextlib.contextmanager
def http_ts(codec: str = "h264", port: int | None = None) -> Iterator[Publisher]:
    """MPEG-TS (MJPEG: multipart JPEG, as cameras serve it, marked ``#live``) served over
    HTTP by ffmpeg to a single client (it serves one connection, then ends: ``restart``
    serves again)."""
    port = port or free_port()
    if codec == "mjpeg":
        url = f"http://127.0.0.1:{port}/camera.mjpg"
        args = [*_pattern(codec), "-f", "mpjpeg", "-listen", "1", url]
        url += "#live"
    else:
        url = f"http://127.0.0.1:{port}/camera.ts"
        args = [*_pattern(codec), "-f", "mpegts", "-listen", "1", url]
    with Publisher(url, args) as publisher:
        yield publisher


@contextlib.contextmanager
def udp_ts(codec: str = "h264") -> Iterator[Publisher]:
    """MPEG-TS pushed to ``udp://127.0.0.1:PORT`` (the host listens there)."""
    port = free_port()
    args = [*_pattern(codec), "-f", "mpegts", f"udp://127.0.0.1:{port}?pkt_size=1316"]
    with Publisher(f"udp://127.0.0.1:{port}", args) as publisher:
        yield publisher


class _Refusing(BaseHTTPRequestHandler):
    status = 404

    def do_GET(self) -> None:
        self.send_response(self.status)
        if self.status == 401:
            self.send_header("WWW-Authenticate", 'Basic realm="camera"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def refusing(status: int) -> Iterator[str]:
    """An HTTP server answering every request with ``status`` (401: a camera refusing
    the password; 404: no such stream); the URL of a stream on it."""
    handler = type("Handler", (_Refusing,), {"status": status})
    with HttpServer(handler) as web:
        yield f"http://user:secret@127.0.0.1:{web.port}/camera.ts"


@contextlib.contextmanager
def audio_only() -> Iterator[Publisher]:
    """MPEG-TS over HTTP with a sound and no picture."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/radio.ts"
    args = [*_lavfi("sine=frequency=440"), "-c:a", "mp2", "-f", "mpegts", "-listen", "1", url]
    with Publisher(url, args) as publisher:
        yield publisher


# --- viewers ------------------------------------------------------------------------------


@dataclass
class Frame:
    key: bool
    at: float
    data: bytes
    received: float


@dataclass
class Seen:
    """What a viewer of a live source was sent, in order."""

    texts: list[dict[str, Any]] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    #: binary or text, in the order they came: ("frame", index) or ("text", index)
    order: list[tuple[str, int]] = field(default_factory=list)

    def states(self) -> list[str]:
        return [t["state"] for t in self.texts if t["type"] == "status"]

    def configs(self) -> list[dict[str, Any]]:
        return [t for t in self.texts if t["type"] == "config"]


def live_url(base: str, source_id: str) -> str:
    return base.replace("http://", "ws://") + f"/live/{source_id}"


@contextlib.asynccontextmanager
async def viewer(base: str, source_id: str, session: str, **options: Any) -> Any:
    """A WebSocket to ``/live/<source_id>`` with the session cookie ``session``
    (``options``: more of ``websockets``' connect, ``sock`` say)."""
    headers = {"Cookie": f"JSESSIONID={session}"}
    async with connect(
        live_url(base, source_id), additional_headers=headers, max_size=1 << 24, **options
    ) as socket:
        yield socket


async def collect(socket: ClientConnection, seen: Seen, until: Any, timeout: float = 20) -> Seen:
    """Read from ``socket`` into ``seen`` until ``until(seen)`` holds (or fail after
    ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not until(seen):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(
                f"gave up waiting; states {seen.states()}, {len(seen.frames)} frames"
            )
        message = await asyncio.wait_for(socket.recv(), left)
        if isinstance(message, bytes):
            flags, at = struct.unpack(">Bd", message[:9])
            seen.frames.append(Frame(bool(flags & 1), at, message[9:], time.time() * 1000))
            seen.order.append(("frame", len(seen.frames) - 1))
        else:
            seen.texts.append(json.loads(message))
            seen.order.append(("text", len(seen.texts) - 1))
    return seen
