"""What bench/live.py is made of: the host under test, the live sources it is given
(one made here with the instant of each picture in an SEI, and files looped by ffmpeg),
and the simulated viewers that count what they get."""

from __future__ import annotations

import asyncio
import multiprocessing
import struct
import subprocess
import time
import uuid
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import httpx
import numpy as np
from websockets.asyncio.client import connect

from bench.procs import Proc, free_port, tilewall_command

ADMIN, PASSWORD = "admin", "bench-password"
#: our SEI's UUID (user data unregistered): 16 bytes, then the float64 made-instant
MARK = uuid.UUID("6c697665-7469-6c65-7761-6c6c6d61726b").bytes
FFMPEG = "/usr/bin/ffmpeg"


# --- the host ------------------------------------------------------------------------------


def start_host(work: Path, delay_ms: int | None = None) -> tuple[Proc, httpx.Client, str]:
    """The host, with its ``TILEWALL_LIVE_DELAY_MS`` at ``delay_ms`` (its default: None)."""
    port = free_port()
    env = {"TILEWALL_ADMIN_USER": ADMIN, "TILEWALL_ADMIN_PASSWORD": PASSWORD}
    if delay_ms is not None:
        env["TILEWALL_LIVE_DELAY_MS"] = str(delay_ms)
    proc = Proc(
        "tilewall-live",
        tilewall_command(work / "data", port, "uvicorn"),
        port,
        "/api/openapi.json",
        work / "host.log",
        env=env,
    )
    proc.start()
    api = httpx.Client(base_url=proc.base_url + "/api", timeout=10)
    answer = api.post("/session", json={"user": ADMIN, "password": PASSWORD})
    answer.raise_for_status()
    return proc, api, answer.json()["session"]["value"]


def live_source(api: httpx.Client, name: str, url: str) -> str:
    body = {
        "sourceName": name,
        "sourceType": "RTSP Streamer",
        "params": [{"type": "", "paramName": "URL", "paramValue": url}],
    }
    answer = api.post("/sources", json=body)
    answer.raise_for_status()
    return str(answer.json()["sourceId"])


def metrics(proc: Proc, session: str) -> dict[str, float]:
    page = httpx.get(proc.base_url + "/metrics", cookies={"JSESSIONID": session}).text
    out: dict[str, float] = {}
    for line in page.splitlines():
        if line.startswith("tilewall_live_") and "{" in line:
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


# --- sources -------------------------------------------------------------------------------


class MarkedSource:
    """H.264 (1080p30 by default) made in a process of its own (so that the viewers'
    process takes nothing of its time), each access unit with an SEI holding when its
    picture was made, pushed as MPEG-TS to ``udp://127.0.0.1:PORT``."""

    def __init__(self, port: int, width: int = 1920, height: int = 1080, fps: int = 30) -> None:
        self.url = f"udp://127.0.0.1:{port}"
        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        self._process = context.Process(
            target=_make, args=(self.url, (width, height), fps, self._stop), daemon=True
        )

    def start(self) -> MarkedSource:
        self._process.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._process.join(10)
        if self._process.is_alive():
            self._process.kill()


def _pictures(size: tuple[int, int], count: int) -> list[Any]:
    """A bright block moving across a gradient, ready for the encoder."""
    width, height = size
    base = np.zeros((height, width, 3), dtype=np.uint8)
    base[:, :, 0] = np.linspace(0, 255, width, dtype=np.uint8)[None, :]
    base[:, :, 1] = np.linspace(0, 255, height, dtype=np.uint8)[:, None]
    pictures = []
    for n in range(count):
        image = base.copy()
        x = n * (width - 200) // count
        image[height // 2 - 100 : height // 2 + 100, x : x + 200] = 255
        pictures.append(
            av.VideoFrame.from_ndarray(image, format="rgb24").reformat(format="yuv420p")
        )
    return pictures


def _make(url: str, size: tuple[int, int], fps: int, stop: Any) -> None:
    # each frame sent whole at once, with its PES length (else a demuxer knows a frame
    # has ended only when the next one starts: one frame of latency at the host)
    options = {"flush_packets": "1", "omit_video_pes_length": "0"}
    out = av.open(f"{url}?pkt_size=1316", "w", format="mpegts", options=options)
    stream = out.add_stream("libx264", rate=fps)
    stream.width, stream.height = size
    stream.pix_fmt = "yuv420p"
    stream.options = {"preset": "ultrafast", "tune": "zerolatency", "g": str(fps)}
    # stamped with the instant each picture is made, as a camera stamps its captures (a
    # machine too busy to make 30 a second then sends fewer, not later, frames)
    clock = Fraction(1, 90_000)
    stream.codec_context.time_base = clock
    pictures = _pictures(size, fps)
    started = time.monotonic()
    n = 0
    while not stop.is_set():
        wait = started + n / fps - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        elif wait < -1 / fps:
            n += 1  # too busy to make this one in time: leave it out
            continue
        made = time.time() * 1000
        frame = pictures[n % len(pictures)]
        frame.pts = round((time.monotonic() - started) * 90_000)
        frame.time_base = clock
        for packet in stream.encode(frame):
            marked = av.Packet(_sei(made) + bytes(packet))
            marked.pts, marked.dts = packet.pts, packet.dts
            marked.time_base = packet.time_base
            marked.is_keyframe = packet.is_keyframe
            marked.stream = stream
            out.mux(marked)
        n += 1
    out.close()


def _sei(made_ms: float) -> bytes:
    payload = MARK + struct.pack(">d", made_ms)
    body = bytes([5, len(payload)]) + payload + b"\x80"
    return b"\x00\x00\x00\x01\x06" + body


def made_of(access_unit: bytes) -> float | None:
    at = access_unit.find(MARK)
    if at < 0:
        return None
    return float(struct.unpack(">d", access_unit[at + 16 : at + 24])[0])


def looped_file(work: Path, path: Path, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [FFMPEG, "-hide_banner", "-loglevel", "error", "-re", "-stream_loop", "-1",
         "-i", str(path), "-c", "copy", "-f", "mpegts", f"udp://127.0.0.1:{port}?pkt_size=1316"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def clip(work: Path, seconds: int = 10) -> Path:
    """A 1080p30 H.264 file, a key frame every second. MP4, not MPEG-TS: ffmpeg's
    ``-stream_loop`` loses the first key frame of an MPEG-TS file at every loop (a 2 s
    GOP every 10 s), and MP4 loops whole."""
    path = work / "clip-1080p30.mp4"
    if not path.exists():
        subprocess.run(
            [FFMPEG, "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
             f"testsrc2=size=1920x1080:rate=30:duration={seconds}", "-c:v", "libx264",
             "-preset", "veryfast", "-g", "30", "-b:v", "3M", "-pix_fmt", "yuv420p",
             "-f", "mp4", str(path)],
            check=True,
        )  # fmt: skip
    return path


# --- viewers -------------------------------------------------------------------------------


class Viewer:
    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0
        self.samples: list[tuple[float, float, float]] = []  # made, at, received
        self.first_at: float | None = None

    async def watch(self, url: str, session: str, stop: asyncio.Event) -> None:
        headers = {"Cookie": f"JSESSIONID={session}"}
        async with connect(url, additional_headers=headers, max_size=1 << 24) as socket:
            while not stop.is_set():
                try:
                    message = await asyncio.wait_for(socket.recv(), 0.5)
                except TimeoutError:
                    continue
                if isinstance(message, str):
                    continue
                received = time.time() * 1000
                self.frames += 1
                self.bytes += len(message)
                self.first_at = self.first_at or received
                at = struct.unpack(">d", message[1:9])[0]
                made = made_of(message[9:])
                if made is not None:
                    self.samples.append((made, at, received))


async def watching(
    base: str, session: str, ids: list[str], each: int, seconds: float
) -> list[Viewer]:
    stop = asyncio.Event()
    viewers = [Viewer() for _ in ids for _ in range(each)]
    url = base.replace("http://", "ws://") + "/live/"
    tasks = [
        asyncio.create_task(v.watch(url + ids[n // each], session, stop))
        for n, v in enumerate(viewers)
    ]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return viewers
