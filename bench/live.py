"""The host's relay of live sources (docs/live.md), on its own: ``tilewall serve`` in a
process, live streams pushed to it as MPEG-TS over UDP, viewers of ``/live/<sourceId>``
that count what they get (as the fan-out benchmark's simulated receivers do).

    python bench/live.py                      # every part, full length
    python bench/live.py --quick              # short loads (16 streams for 30 s)
    python bench/live.py --parts latency,cpu --out live.json

Parts:

- ``latency``: a 1080p30 H.264 source made here (PyAV, libx264 ultrafast/zerolatency),
  each access unit carrying, in an SEI of its own, the instant its picture was made;
  a viewer reads it back: *made → at* is glass to glass as scheduled (a receiver shows
  the frame at ``at``, in the vsync after it), *at - received* the margin the receiver
  has to decode before it.
- ``cpu``: the host's CPU (user + system, its process) relaying one 1080p30 H.264
  stream to 9 viewers, against the same host idle.
- ``outage``: the source killed for 3 s and started again, its restart to the next frame
  at a viewer, several times.
- ``join``: a viewer's connection to its first frame, the relay already open for
  another viewer (warm) or not (cold: the host opens the input first).
- ``many``: 16 streams (a 1080p30 H.264 file looped by ``ffmpeg -c copy``) to 9 viewers
  each: frames the host read, sent, dropped, and what each viewer got.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import struct
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from fractions import Fraction
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import av
import httpx
import numpy as np
import psutil
from websockets.asyncio.client import connect

from bench.procs import Proc, free_port, tilewall_command

ADMIN, PASSWORD = "admin", "bench-password"
#: our SEI's UUID (user data unregistered): 16 bytes, then the float64 made-instant
MARK = uuid.UUID("6c697665-7469-6c65-7761-6c6c6d61726b").bytes
FFMPEG = "/usr/bin/ffmpeg"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# --- the host ------------------------------------------------------------------------------


def start_host(work: Path) -> tuple[Proc, httpx.Client, str]:
    port = free_port()
    proc = Proc(
        "tilewall-live",
        tilewall_command(work / "data", port, "uvicorn"),
        port,
        "/api/openapi.json",
        work / "host.log",
        env={"TILEWALL_ADMIN_USER": ADMIN, "TILEWALL_ADMIN_PASSWORD": PASSWORD},
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
    """1080p30 H.264 made here, each access unit with an SEI holding when its picture
    was made, pushed as MPEG-TS to ``udp://127.0.0.1:PORT``."""

    def __init__(self, port: int, width: int = 1920, height: int = 1080, fps: int = 30) -> None:
        self.url = f"udp://127.0.0.1:{port}"
        self.size = (width, height)
        self.fps = fps
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> MarkedSource:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def _frames(self) -> list[np.ndarray[Any, Any]]:
        width, height = self.size
        base = np.zeros((height, width, 3), dtype=np.uint8)
        base[:, :, 0] = np.linspace(0, 255, width, dtype=np.uint8)[None, :]
        base[:, :, 1] = np.linspace(0, 255, height, dtype=np.uint8)[:, None]
        frames = []
        for n in range(self.fps):
            image = base.copy()
            x = n * (width - 200) // self.fps
            image[height // 2 - 100 : height // 2 + 100, x : x + 200] = 255
            frames.append(image)
        return frames

    def _run(self) -> None:
        out = av.open(f"{self.url}?pkt_size=1316", "w", format="mpegts")
        stream = out.add_stream("libx264", rate=self.fps)
        stream.width, stream.height = self.size
        stream.pix_fmt = "yuv420p"
        stream.options = {"preset": "ultrafast", "tune": "zerolatency", "g": str(self.fps)}
        pictures = [av.VideoFrame.from_ndarray(f, format="rgb24") for f in self._frames()]
        started = time.monotonic()
        n = 0
        while not self._stop.is_set():
            wait = started + n / self.fps - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            made = time.time() * 1000
            frame = pictures[n % len(pictures)].reformat(format="yuv420p")
            frame.pts = n
            frame.time_base = Fraction(1, self.fps)
            for packet in stream.encode(frame):
                sei = _sei(made)
                marked = av.Packet(sei + bytes(packet))
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
    path = work / "clip-1080p30.ts"
    if not path.exists():
        subprocess.run(
            [FFMPEG, "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
             f"testsrc2=size=1920x1080:rate=30:duration={seconds}", "-c:v", "libx264",
             "-preset", "veryfast", "-g", "30", "-b:v", "3M", "-pix_fmt", "yuv420p",
             "-f", "mpegts", str(path)],
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


# --- the parts -----------------------------------------------------------------------------


def part_latency(
    proc: Proc, api: httpx.Client, session: str, seconds: float, size: tuple[int, int]
) -> dict[str, Any]:
    port = free_port()
    source = MarkedSource(port, *size).start()
    try:
        source_id = live_source(api, "Latency", source.url)
        viewers = asyncio.run(watching(proc.base_url, session, [source_id], 1, seconds))
    finally:
        source.stop()
    samples = viewers[0].samples[60:]  # past the first GOP and the anchor
    made_to_at = [at - made for made, at, _ in samples]
    margin = [at - received for _, at, received in samples]
    return {
        "size": f"{size[0]}x{size[1]}",
        "frames": len(samples),
        "made_to_at_ms": {"p50": percentile(made_to_at, 50), "p95": percentile(made_to_at, 95)},
        "margin_ms": {"p5": percentile(margin, 5), "p50": percentile(margin, 50)},
        "late_frames": sum(1 for m in margin if m < 0),
    }


def cpu_seconds(proc: Proc) -> float:
    assert proc.popen is not None
    times = psutil.Process(proc.popen.pid).cpu_times()
    return float(times.user + times.system)


def part_cpu(
    proc: Proc, api: httpx.Client, session: str, work: Path, seconds: float
) -> dict[str, Any]:
    port = free_port()
    feeder = looped_file(work, clip(work), port)
    try:
        source_id = live_source(api, "Cpu", f"udp://127.0.0.1:{port}")
        before_idle = cpu_seconds(proc)
        time.sleep(seconds)
        idle = (cpu_seconds(proc) - before_idle) / seconds * 100

        async def measure() -> tuple[float, list[Viewer]]:
            stop = asyncio.Event()
            viewers = [Viewer() for _ in range(9)]
            url = proc.base_url.replace("http://", "ws://") + f"/live/{source_id}"
            tasks = [asyncio.create_task(v.watch(url, session, stop)) for v in viewers]
            await asyncio.sleep(3)  # opened, anchored, every viewer in
            start = await asyncio.to_thread(cpu_seconds, proc)
            await asyncio.sleep(seconds)
            used = await asyncio.to_thread(cpu_seconds, proc) - start
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            return used / seconds * 100, viewers

        busy, viewers = asyncio.run(measure())
    finally:
        feeder.kill()
        feeder.wait()
    return {
        "idle_percent": idle,
        "relaying_percent": busy,
        "relay_percent": busy - idle,
        "frames_per_viewer": [v.frames for v in viewers],
    }


def part_outage(
    proc: Proc, api: httpx.Client, session: str, work: Path, repeats: int
) -> dict[str, Any]:
    port = free_port()
    path = clip(work)
    feeder = looped_file(work, path, port)
    source_id = live_source(api, "Outage", f"udp://127.0.0.1:{port}")
    url = proc.base_url.replace("http://", "ws://") + f"/live/{source_id}"
    backs: list[float] = []

    async def run() -> None:
        nonlocal feeder
        headers = {"Cookie": f"JSESSIONID={session}"}
        async with connect(url, additional_headers=headers, max_size=1 << 24) as socket:
            await _frame(socket, 20)
            for _ in range(repeats):
                feeder.kill()
                feeder.wait()
                await _until_status(socket, "reconnecting", 15)
                await asyncio.sleep(1)
                restarted = time.monotonic()
                feeder = looped_file(work, path, port)
                await _frame(socket, 20)
                backs.append((time.monotonic() - restarted) * 1000)

    try:
        asyncio.run(run())
    finally:
        feeder.kill()
        feeder.wait()
    return {"back_ms": backs, "p50": percentile(backs, 50), "max": max(backs)}


async def _frame(socket: Any, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = await asyncio.wait_for(socket.recv(), timeout)
        if isinstance(message, bytes):
            return
    raise TimeoutError("no frame")


async def _until_status(socket: Any, state: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = await asyncio.wait_for(socket.recv(), timeout)
        if isinstance(message, str) and json.loads(message).get("state") == state:
            return
    raise TimeoutError(state)


def _viewers_process(
    base: str, session: str, ids: list[str], each: int, seconds: float
) -> list[int]:
    viewers = asyncio.run(watching(base, session, ids, each, seconds))
    return [v.frames for v in viewers]


def part_join(
    proc: Proc, api: httpx.Client, session: str, work: Path, repeats: int
) -> dict[str, Any]:
    """Connect to the first frame: warm (the relay is open for another viewer: the
    frames since the last key frame come at once) and cold (the host opens the input)."""
    port = free_port()
    feeder = looped_file(work, clip(work), port)
    source_id = live_source(api, "Join", f"udp://127.0.0.1:{port}")
    url = proc.base_url.replace("http://", "ws://") + f"/live/{source_id}"
    headers = {"Cookie": f"JSESSIONID={session}"}

    async def first_frame() -> float:
        started = time.monotonic()
        async with connect(url, additional_headers=headers, max_size=1 << 24) as socket:
            await _frame(socket, 20)
            # (the close is not counted: a receiver that switches away does it later)
            return (time.monotonic() - started) * 1000

    async def drain(socket: Any) -> None:
        async for _ in socket:
            pass

    async def run() -> tuple[list[float], list[float]]:
        cold = []
        for _ in range(max(1, repeats // 5)):
            cold.append(await first_frame())
            await asyncio.sleep(7)  # past the linger: closed again
        async with connect(url, additional_headers=headers, max_size=1 << 24) as keeper:
            await _frame(keeper, 20)
            reading = asyncio.create_task(drain(keeper))
            warm = [await first_frame() for _ in range(repeats)]
            reading.cancel()
        return warm, cold

    try:
        warm, cold = asyncio.run(run())
    finally:
        feeder.kill()
        feeder.wait()
    return {
        "warm_ms": {"p50": percentile(warm, 50), "p95": percentile(warm, 95)},
        "cold_ms": cold,
    }


def part_many(
    proc: Proc,
    api: httpx.Client,
    session: str,
    work: Path,
    streams: int,
    seconds: float,
    processes: int,
) -> dict[str, Any]:
    path = clip(work)
    ports = [free_port() for _ in range(streams)]
    feeders = [looped_file(work, path, p) for p in ports]
    try:
        ids = [live_source(api, f"Many {n}", f"udp://127.0.0.1:{p}") for n, p in enumerate(ports)]
        before = metrics(proc, session)
        cpu_before = cpu_seconds(proc)
        shares = [ids[n::processes] for n in range(processes)]
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            counts = pool.starmap(
                _viewers_process, [(proc.base_url, session, share, 9, seconds) for share in shares]
            )
        host_cpu = (cpu_seconds(proc) - cpu_before) / seconds * 100
        after = metrics(proc, session)
        received = [n for share in counts for n in share]
    finally:
        for f in feeders:
            f.kill()
            f.wait()

    def total(name: str) -> float:
        keys = set(before) | set(after)
        return sum(after.get(k, 0) - before.get(k, 0) for k in keys if k.startswith(name + "{"))

    return {
        "streams": streams,
        "viewers": len(received),
        "seconds": seconds,
        "frames_in": total("tilewall_live_frames_in_total"),
        "frames_expected_in": streams * 30 * seconds,
        "frames_sent": total("tilewall_live_frames_sent_total"),
        "frames_dropped": total("tilewall_live_frames_dropped_total"),
        "frames_received": sum(received),
        "received_min_per_viewer": min(received),
        "received_max_per_viewer": max(received),
        "host_cpu_percent": host_cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--parts", default="latency,cpu,outage,join,many")
    parser.add_argument("--streams", type=int, default=16)
    parser.add_argument("--processes", type=int, default=2, help="viewer processes (many)")
    parser.add_argument("--size", default="1920x1080", help="the latency source's picture")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    quick = args.quick
    parts = args.parts.split(",")
    results: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpus": os.cpu_count(),
    }
    with tempfile.TemporaryDirectory(prefix="tilewall-live-") as folder:
        work = Path(folder)
        proc, api, session = start_host(work)
        try:
            if "latency" in parts:
                width, height = (int(n) for n in args.size.split("x"))
                results["latency"] = part_latency(
                    proc, api, session, 15 if quick else 60, (width, height)
                )
                print("latency", json.dumps(results["latency"]))
            if "cpu" in parts:
                results["cpu"] = part_cpu(proc, api, session, work, 10 if quick else 30)
                print("cpu", json.dumps(results["cpu"]))
            if "outage" in parts:
                results["outage"] = part_outage(proc, api, session, work, 3 if quick else 10)
                print("outage", json.dumps(results["outage"]))
            if "join" in parts:
                results["join"] = part_join(proc, api, session, work, 20 if quick else 100)
                print("join", json.dumps(results["join"]))
            if "many" in parts:
                results["many"] = part_many(
                    proc, api, session, work, args.streams, 30 if quick else 300, args.processes
                )
                print("many", json.dumps(results["many"]))
        finally:
            proc.stop()
    if args.out:
        args.out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
