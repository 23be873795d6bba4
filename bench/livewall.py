"""A live source on a wall of receiver pages in headless Chromium (the receiver's side of
docs/live.md): ``tilewall serve`` in its own process relays a 720p30 H.264 stream
(Debian's ffmpeg, ``testsrc2`` pushed as MPEG-TS over UDP) to the tiles of one zone,
each a page in a browser context of its own, as each tile is a device of its own.

Every tile records each live frame it draws (``window.tilewall.sync()``: the host instant
of the animation frame it was drawn in, and the frame's ``at``). Figures:

- *spread*: for every frame drawn by all tiles, the latest tile's drawing instant less
  the earliest's (the goal: within one refresh, 17 ms, p95);
- *late*: each drawing instant less the frame's ``at`` (how long after its instant a tile
  draws a frame; glass to glass is the relay's made-to-``at``, bench/live.py, plus this
  and one refresh);
- *switch*: the zone switched from stopped to the stream, from the switch's answer to
  the first live frame drawn on each tile (p95 over the tiles of every switch); the
  first switch opens the stream (*cold*), the others find it open (the relay lingers).
  With ``--keep-open`` the source is set to ``Keep Open`` and the zone stays stopped
  past the lingering before each switch (*kept*: open only because it is kept).

    PYTHONPATH=src python -m bench.livewall --tiles 9 --play 10 --switches 8
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.chromium import CHROMIUM, CHROMIUM_ARGS, receiver_pages, wait_for_tiles
from bench.procs import free_port, tilewall_proc
from bench.seed import ADMIN, PASSWORD, Seeded, seed
from bench.syncframes import percentile
from bench.wallsync import host_ms
from tilewall.client import Client
from tilewall.config import LIVE_DELAY_ENV, LIVE_DELAY_MS
from tilewall.live.feeds import LINGER_S

FFMPEG = "/usr/bin/ffmpeg"

#: the live frames a tile drew since a host instant: [{hostMs, at}]
DRAWN_JS = """(since) => window.tilewall.sync(since).frames
  .filter((f) => f.at !== undefined).map((f) => ({hostMs: f.hostMs, at: f.at}))"""


def publisher(port: int, size: str = "1280x720", fps: int = 30) -> subprocess.Popen[bytes]:
    """A live stream pushed to udp://127.0.0.1:``port``, as an encoder does."""
    return subprocess.Popen(
        [
            FFMPEG, "-hide_banner", "-loglevel", "error", "-re",
            "-f", "lavfi", "-i", f"testsrc2=size={size}:rate={fps}",
            "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency",
            "-g", str(fps), "-pix_fmt", "yuv420p",
            "-f", "mpegts", f"udp://127.0.0.1:{port}?pkt_size=1316",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )  # fmt: skip


def stats(values: list[float]) -> dict[str, Any]:
    return {
        "n": len(values),
        "p50": percentile(values, 50) if values else None,
        "p95": percentile(values, 95) if values else None,
        "max": max(values) if values else None,
    }


def drawn(pages: list[Any], since: float) -> list[list[dict[str, float]]]:
    return [page.evaluate(DRAWN_JS, since) for page in pages]


def spread_and_late(tiles: list[list[dict[str, float]]]) -> tuple[list[float], list[float]]:
    by_frame: dict[float, list[float]] = {}
    late: list[float] = []
    for frames in tiles:
        for f in frames:
            by_frame.setdefault(f["at"], []).append(f["hostMs"])
            late.append(f["hostMs"] - f["at"])
    spreads = [max(t) - min(t) for t in by_frame.values() if len(t) == len(tiles)]
    return spreads, late


def first_frames(pages: list[Any], since: float) -> list[float | None]:
    out: list[float | None] = []
    for frames in drawn(pages, since):
        out.append(min((f["hostMs"] for f in frames), default=None))
    return out


def timed_switches(
    host: Client, zone: str, source: str, pages: list[Any], switches: int, keep_open: bool
) -> list[dict[str, Any]]:
    """The zone stopped and switched to the stream ``switches`` times: for each, the ms
    from the switch to each tile's first live frame, and whether the stream was cold."""
    firsts: list[dict[str, Any]] = []
    for n in range(switches):
        host.zones.stop(zone, by="id")
        time.sleep(LINGER_S + 1.5 if keep_open else 1.0)
        host.zones.switch(zone, source_id=source, by="id")
        switched = host_ms()
        time.sleep(3.0 if n or keep_open else 8.0)
        got = first_frames(pages, switched)
        firsts.append(
            {
                "cold": n == 0 and not keep_open,
                "ms": [None if g is None else g - switched for g in got],
            }
        )
    return firsts


def run(
    tiles: int,
    play_s: float,
    switches: int,
    work: Path,
    size: str,
    delay_ms: int | None = None,
    keep_open: bool = False,
) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    data = work / f"seed-{tiles}"
    seed(data, tiles, 0, one_zone=True)
    zone = Seeded.read(data).zones[0]
    port = free_port()
    camera = publisher(port, size)
    proc = tilewall_proc(data, work, "uvicorn", f"livewall-{tiles}")
    if delay_ms is not None:
        proc.env[LIVE_DELAY_ENV] = str(delay_ms)
    load_before = os.getloadavg()
    try:
        with proc, sync_playwright() as playwright:
            proc.start()
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            host = Client(proc.base_url, ADMIN, PASSWORD)
            host.login()
            pages = receiver_pages(browser, proc.base_url, tiles)
            wait_for_tiles(pages)
            params = {"URL": f"udp://127.0.0.1:{port}"}
            if keep_open:
                params["Keep Open"] = "true"
            source = host.sources.create("Bench camera", "RTSP Streamer", params)["sourceId"]
            if keep_open:
                time.sleep(8.0)  # the host opens it by itself

            firsts = timed_switches(host, zone, source, pages, switches, keep_open)
            began = host_ms()
            time.sleep(play_s)
            spreads, late = spread_and_late(drawn(pages, began))
            counts = [page.evaluate("() => window.tilewall.sample().frames") for page in pages]
            host.close()
            browser.close()
    finally:
        camera.kill()
        camera.wait(10)
    warm = [m for f in firsts if not f["cold"] for m in f["ms"] if m is not None]
    cold = [m for f in firsts if f["cold"] for m in f["ms"] if m is not None]
    missing = sum(m is None for f in firsts for m in f["ms"])
    return {
        "tiles": tiles,
        "size": size,
        "delay_ms": LIVE_DELAY_MS if delay_ms is None else delay_ms,
        "load": {"before": load_before, "after": os.getloadavg()},
        "play_s": play_s,
        "spread_ms": stats(spreads),
        "late_ms": stats(late),
        "keep_open": keep_open,
        # with keep_open: every switch found the stream open only because it is kept
        "switch_kept_ms" if keep_open else "switch_warm_ms": stats(warm),
        "switch_cold_ms": stats(cold),
        "switch_no_frame": missing,
        "frames": counts,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiles", type=int, default=9)
    parser.add_argument("--play", type=float, default=10.0, help="seconds of steady play")
    parser.add_argument("--switches", type=int, default=8)
    parser.add_argument("--size", default="1280x720", help="the stream's picture size")
    parser.add_argument(
        "--delay-ms", type=int, help=f"the host's {LIVE_DELAY_ENV} (default {LIVE_DELAY_MS})"
    )
    parser.add_argument(
        "--keep-open",
        action="store_true",
        help="the source kept open (Keep Open), each switch after the lingering",
    )
    parser.add_argument("--out", type=Path, help="results JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="livewall-") as tmp:
        result = run(
            args.tiles,
            args.play,
            args.switches,
            Path(tmp),
            args.size,
            args.delay_ms,
            args.keep_open,
        )
    for name in ("spread_ms", "late_ms", "switch_warm_ms", "switch_kept_ms", "switch_cold_ms"):
        if name not in result:
            continue
        s = result[name]
        print(f"{name:15} n={s['n']} p50={_ms(s['p50'])} p95={_ms(s['p95'])} max={_ms(s['max'])}")
    print(f"switches without a frame: {result['switch_no_frame']}")
    print(f"delay {result['delay_ms']} ms, load average {result['load']}")
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


if __name__ == "__main__":
    main()
