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
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
import psutil
from websockets.asyncio.client import connect

from bench.livefeeds import (
    MarkedSource,
    Viewer,
    clip,
    live_source,
    looped_file,
    metrics,
    start_host,
    watching,
)
from bench.procs import Proc, free_port
from tilewall.config import LIVE_DELAY_ENV


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


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
            # past the linger (closed again), and at another point of the source's GOP
            # each time: a whole number of seconds would join at the same one always
            await asyncio.sleep(7 + random.random())
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
    parser.add_argument("--delay-ms", type=int, help=f"the host's {LIVE_DELAY_ENV} (default auto)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    quick = args.quick
    parts = args.parts.split(",")
    results: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpus": os.cpu_count(),
        "delay_ms": "auto" if args.delay_ms is None else args.delay_ms,
        "load_before": os.getloadavg(),
    }
    with tempfile.TemporaryDirectory(prefix="tilewall-live-") as folder:
        work = Path(folder)
        proc, api, session = start_host(work, args.delay_ms)
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
    results["load_after"] = os.getloadavg()
    print(f"delay {results['delay_ms']} ms; load average {results['load_before']}", end=" ")
    print(f"to {results['load_after']}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
