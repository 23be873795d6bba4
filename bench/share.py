"""Screen shares (docs/share.md), measured: ``tilewall serve`` in a process of its own.

    python -m bench.share                    # both parts
    python -m bench.share --parts cpu --seconds 10 --out share.json
    python -m bench.share --parts wall --size 1920x1080

Parts:

- ``wall``: real Chromium. A tab draws the frame-numbered pattern of the tests
  (tests/support/share_counter.py: frame ``n`` due at ``origin + n / fps`` on this
  machine's clock, which is the host's); the /share/ page shares it (Chromium's
  ``--auto-select-tab-capture-source-by-title``) to the zone of a 2x2 wall whose tiles are
  receiver pages, each in a context of its own. *Share → wall*: from the click on "Share
  my screen" (the instant the page got it: Playwright's own work before the click, a
  second on a loaded machine, is left out) to the last tile drawing its first frame of
  the share (the tiles' own record of the frames they draw, on the host clock), over
  several starts; *share → host*, to the share's first picture reaching the host
  (``GET /api/shares`` polled every 20 ms says it is shown). *Frame → tile*:
  screenshots of the tiles in turn; the frame number each shows is read back; the
  instant the screenshot was asked for less the instant that frame was due on the
  shared tab (the tab draws it at its next refresh, then Chromium captures, the page
  encodes and sends it, the host relays it, the tile decodes and draws it).
- ``cpu``: the host's CPU (user + system of its process) taking one share of a 1080p30
  H.264 picture (a 3 Mbit/s clip's access units, sent as the page sends them, looped)
  and relaying it to 9 viewers of ``/live/<sourceId>`` (a 3x3 wall's receivers, simulated
  as the live benchmark's: they count what they get), less the same host idle.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import struct
import sys
import tempfile
import threading
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import av
import httpx
from tests.support.framecode import Pattern
from tests.support.live_wire import read_number
from tests.support.share_counter import TITLE, counter_page
from tests.support.sharer import announce
from websockets.asyncio.client import connect

from bench.chromium import CHROMIUM, CHROMIUM_ARGS, wait_for_tiles
from bench.live import cpu_seconds, percentile
from bench.livefeeds import ADMIN, PASSWORD, Viewer, clip, start_host
from bench.procs import Proc

#: the benchmarks' Chromium, which shares the tab titled ``TITLE`` without asking
ARGS = [*CHROMIUM_ARGS, f"--auto-select-tab-capture-source-by-title={TITLE}"]
TILE = {"width": 640, "height": 360}
#: the live frames a tile drew since a host instant: [{hostMs, at}]
DRAWN_JS = """(since) => window.tilewall.sync(since).frames
  .filter((f) => f.at !== undefined).map((f) => ({hostMs: f.hostMs, at: f.at}))"""


def stats(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "p50": percentile(values, 50),
        "p95": percentile(values, 95),
        "max": max(values),
    }


def _wall(api: httpx.Client, base: str, browser: Any) -> tuple[list[Any], str]:
    """Four receiver pages locked as a 2x2 wall with one zone: the pages, the zone's id."""
    pages = []
    for n in range(4):
        page = browser.new_context(viewport=TILE, bypass_csp=True).new_page()
        page.goto(f"{base}/receiver/?seat=share-bench-{n}")
        pages.append(page)
    for page in pages:
        page.wait_for_function("() => window.tilewall && window.tilewall.connected", timeout=30_000)
    ids = []
    for n in range(4):
        answer = api.put(f"/network/share-bench-{n}/lock")
        answer.raise_for_status()
        ids.append(int(answer.json()["displayId"]))
    monitors = [
        {
            "displayId": d,
            "monitorGeometry": {"width": 1920, "height": 1080, "rotationDegrees": 0,
                                "centerX": 960 + 1920 * (n % 2), "centerY": 540 + 1080 * (n // 2)},
            "monitorDiagonal": {"lengthInMillimeter": 1400},
        }
        for n, d in enumerate(ids)
    ]  # fmt: skip
    wall = api.post("/videowalls", json={"name": "Share wall", "monitors": monitors})
    wall.raise_for_status()
    body = {"zoneName": "All", "videowallId": wall.json()["id"], "displayIds": ids}
    zone = api.post("/zones", json=body)
    zone.raise_for_status()
    wait_for_tiles(pages)
    return pages, str(zone.json()["zoneId"])


#: the instant (ms since the epoch, this machine's clock: the host's) a click reached the page
CLICK_JS = """() => document.addEventListener("click",
  () => { window.clickedAt = performance.timeOrigin + performance.now(); }, true)"""


def _shown_at(base: str, cookies: Any, until: float, found: list[float]) -> None:
    """Poll ``GET /api/shares`` until a share is shown (or ``until``, monotonic): the
    instant it first was, in ``found``."""
    with httpx.Client(base_url=base + "/api", cookies=cookies) as client:
        while time.monotonic() < until and not found:
            asked = time.time() * 1000
            if any(s["shown"] for s in client.get("/shares").json()["shares"]):
                found.append(asked)
            time.sleep(0.02)


def _first_frames(pages: list[Any], since: float) -> list[float | None]:
    return [
        min((f["hostMs"] for f in page.evaluate(DRAWN_JS, since)), default=None) for page in pages
    ]


def _latencies(pages: list[Any], pattern: Pattern, seconds: float) -> list[float]:
    out: list[float] = []
    deadline = time.monotonic() + seconds
    n = 0
    while time.monotonic() < deadline:
        page = pages[n % len(pages)]
        n += 1
        asked = time.time()
        number = read_number(_image(page.screenshot()))
        if number is not None:
            out.append((asked - pattern.made_at(number, asked)) * 1000)
    return out


def _image(data: bytes) -> Any:
    import io

    from PIL import Image

    return Image.open(io.BytesIO(data)).convert("RGB")


def part_wall(
    proc: Proc, api: httpx.Client, size: tuple[int, int], starts: int, seconds: float
) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        pages, zone = _wall(api, proc.base_url, browser)
        pattern = Pattern(width=size[0], height=size[1])
        context = browser.new_context()
        counter = context.new_page()
        counter.set_viewport_size({"width": size[0], "height": size[1]})
        counter.set_content(counter_page(pattern))
        sharer = context.new_page()
        sharer.goto(f"{proc.base_url}/share/?target=zone&id={zone}")
        sharer.fill("input[name=user]", ADMIN)
        sharer.fill("input[name=password]", PASSWORD)
        sharer.click("form[aria-label='Log in'] button[type=submit]")
        sharer.evaluate(CLICK_JS)
        to_wall: list[float] = []
        to_host: list[float] = []
        latency: list[float] = []
        sent: dict[str, Any] = {}
        for n in range(starts):
            sharer.wait_for_selector("select[name=target]")
            shown: list[float] = []
            polling = threading.Thread(
                target=_shown_at, args=(proc.base_url, api.cookies, time.monotonic() + 15, shown)
            )
            polling.start()
            sharer.click("form[aria-label='Share'] button[type=submit]")
            clicked = float(sharer.evaluate("() => window.clickedAt"))
            deadline = time.monotonic() + 15
            firsts: list[float | None] = [None]
            while time.monotonic() < deadline:
                firsts = _first_frames(pages, clicked)
                if all(f is not None for f in firsts):
                    break
                time.sleep(0.1)
            polling.join()
            if all(f is not None for f in firsts):
                to_wall.append(max(f for f in firsts if f is not None) - clicked)
            if shown:
                to_host.append(shown[0] - clicked)
            if not sharer.is_visible("text=Stop sharing"):
                raise RuntimeError(f"the share did not start: {sharer.inner_text('main')!r}")
            if n == starts - 1:
                time.sleep(2)  # past the first key frames
                latency = _latencies(pages, pattern, seconds)
                sent = sharer.evaluate("() => window.tilewallShare")
            sharer.click("text=Stop sharing")
            time.sleep(1.5)
        late = [f["hostMs"] - f["at"] for page in pages for f in page.evaluate(DRAWN_JS, 0)]
        browser.close()
    return {
        "size": f"{size[0]}x{size[1]}",
        "share_to_wall_ms": stats(to_wall),
        "share_to_host_ms": stats(to_host),
        # what the page did with the frames of the last share (share/pacing.js)
        "page": sent,
        "frame_to_tile_ms": stats(latency),
        "drawn_after_at_ms": stats(late),
    }


def _clip_units(path: Path) -> list[tuple[bool, bytes]]:
    """The clip's H.264 access units in Annex B (as a sharer's page sends them; the MP4
    holds them length-prefixed, its SPS and PPS apart), in order."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        annexb = av.bitstream.BitStreamFilterContext("h264_mp4toannexb", stream)
        return [
            (bool(unit.is_keyframe), bytes(unit))
            for packet in container.demux(stream)
            if packet.size
            for unit in annexb.filter(packet)
        ]


async def _share(
    base: str,
    started: dict[str, Any],
    units: list[tuple[bool, bytes]],
    stop: asyncio.Event,
    fps: int = 30,
) -> int:
    """Send ``units`` in a loop at ``fps`` as the share page does; the frames sent."""
    url = base.replace("http", "ws", 1) + started["ingest"] + "?token=" + started["token"]
    sent = 0
    async with connect(url, max_size=1 << 20) as socket:
        await socket.send(json.dumps({"type": "config", "codedWidth": 1920, "codedHeight": 1080}))
        begin = time.monotonic()
        while not stop.is_set():
            key, data = units[sent % len(units)]
            stamp = sent * Fraction(1_000_000, fps)
            await socket.send(struct.pack(">Bd", int(key), float(stamp)) + data)
            sent += 1
            await asyncio.sleep(max(0.0, begin + sent / fps - time.monotonic()))
    return sent


def part_cpu(
    proc: Proc, api: httpx.Client, session: str, work: Path, seconds: float
) -> dict[str, Any]:
    units = _clip_units(clip(work))
    before = cpu_seconds(proc)
    time.sleep(seconds)
    idle = (cpu_seconds(proc) - before) / seconds * 100
    announce(proc.base_url, "share-cpu")  # a receiver said hello once: its station
    display = api.put("/network/share-cpu/lock")
    display.raise_for_status()
    answer = api.post("/shares", json={"target": "display", "id": str(display.json()["displayId"])})
    answer.raise_for_status()
    started = answer.json()

    async def measure() -> tuple[float, int, list[Viewer]]:
        stop = asyncio.Event()
        sharing = asyncio.create_task(_share(proc.base_url, started, units, stop))
        viewers = [Viewer() for _ in range(9)]
        url = proc.base_url.replace("http://", "ws://") + f"/live/{started['sourceId']}"
        tasks = [asyncio.create_task(v.watch(url, session, stop)) for v in viewers]
        await asyncio.sleep(3)
        start = await asyncio.to_thread(cpu_seconds, proc)
        await asyncio.sleep(seconds)
        used = await asyncio.to_thread(cpu_seconds, proc) - start
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        return used / seconds * 100, await sharing, viewers

    busy, sent, viewers = asyncio.run(measure())
    return {
        "idle_percent": idle,
        "sharing_percent": busy,
        "share_percent": busy - idle,
        "frames_sent": sent,
        "frames_per_viewer": [v.frames for v in viewers],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--parts", default="wall,cpu")
    parser.add_argument("--size", default="1280x720", help="the shared tab's size")
    parser.add_argument("--starts", type=int, default=5, help="shares started (wall)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    parts = args.parts.split(",")
    results: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
    }
    with tempfile.TemporaryDirectory(prefix="tilewall-share-") as folder:
        work = Path(folder)
        proc, api, session = start_host(work)
        try:
            if "cpu" in parts:
                results["cpu"] = part_cpu(proc, api, session, work, args.seconds)
                print("cpu", json.dumps(results["cpu"]))
            if "wall" in parts:
                width, height = (int(n) for n in args.size.split("x"))
                results["wall"] = part_wall(proc, api, (width, height), args.starts, args.seconds)
                print("wall", json.dumps(results["wall"]))
        finally:
            proc.stop()
    results["load_after"] = os.getloadavg()
    if args.out:
        args.out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
