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

With ``--marked`` the camera is bench/livefeeds.py's instead (PyAV's libx264, each
picture's making instant in an SEI), and a viewer of the stream's wire reads them:
*glass* is, for every frame a tile drew, its drawing instant less the instant its
picture was made, glass to glass in full. ``--settle S`` plays S seconds before the
measured play, for the stream's delay to follow the tiles' reports (docs/live.md);
*delay* is the host's delay when the measured play begins and ends.

    PYTHONPATH=src python -m bench.livewall --tiles 9 --play 10 --switches 8
    PYTHONPATH=src python -m bench.livewall --tiles 1 --size 1920x1080 --marked \
        --settle 45 --play 60 --switches 1
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.chromium import CHROMIUM, CHROMIUM_ARGS, receiver_pages, wait_for_tiles
from bench.livefeeds import MarkedSource, Viewer, watching
from bench.procs import free_port, tilewall_proc
from bench.seed import ADMIN, PASSWORD, Seeded, seed
from bench.syncframes import percentile
from bench.wallsync import host_ms
from tilewall.client import Client
from tilewall.config import LIVE_DELAY_ENV
from tilewall.live.feeds import LINGER_S

FFMPEG = "/usr/bin/ffmpeg"

#: the live frames a tile drew since a host instant: [{hostMs, at}]
DRAWN_JS = """(since) => window.tilewall.sync(since).frames
  .filter((f) => f.at !== undefined).map((f) => ({hostMs: f.hostMs, at: f.at, drawnMs: f.drawnMs}))"""


def publisher(
    port: int, size: str = "1280x720", fps: int = 30, bitrate: str | None = None
) -> subprocess.Popen[bytes]:
    """A live stream pushed to udp://127.0.0.1:``port``, as an encoder does: at
    ``bitrate`` (FFmpeg's form: "3M") as a camera set to one sends, or else as much as
    x264's ultrafast preset makes of the pattern (~8 Mbit/s at 720p30)."""
    rate = ["-b:v", bitrate, "-maxrate", bitrate, "-bufsize", bitrate] if bitrate else []
    return subprocess.Popen(
        [
            FFMPEG, "-hide_banner", "-loglevel", "error", "-re",
            "-f", "lavfi", "-i", f"testsrc2=size={size}:rate={fps}",
            "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency",
            "-g", str(fps), "-pix_fmt", "yuv420p", *rate,
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
    late = [f["hostMs"] - f["at"] for frames in tiles for f in frames]
    return _spreads(tiles, "hostMs"), late


def _spreads(tiles: list[list[dict[str, float]]], key: str) -> list[float]:
    """For each frame drawn by every tile, the latest tile's ``key`` less the earliest's."""
    by_frame: dict[float, list[float]] = {}
    for frames in tiles:
        for f in frames:
            by_frame.setdefault(f["at"], []).append(f[key])
    return [max(t) - min(t) for t in by_frame.values() if len(t) == len(tiles)]


def drawing(tiles: list[list[dict[str, float]]]) -> dict[str, Any]:
    """The figures of the frames the tiles drew: the spread of the refreshes they were
    drawn for; how late after its frame's instant each was drawn for; how long after its
    refresh's instant each page's animation frame drew it (a page whose callback runs
    a refresh late may miss that refresh on screen), and the spread of those moments."""
    spreads, late = spread_and_late(tiles)
    timed = [frames for frames in tiles if all(f.get("drawnMs") is not None for f in frames)]
    callback = [f["drawnMs"] - f["hostMs"] for frames in timed for f in frames]
    return {
        "spread_ms": stats(spreads),
        "late_ms": stats(late),
        "callback_ms": stats(callback),
        "drawn_spread_ms": stats(_spreads(timed, "drawnMs") if len(timed) == len(tiles) else []),
    }


def glass(tiles: list[list[dict[str, float]]], viewer: Viewer) -> list[float]:
    """Each drawing of a frame whose making instant the viewer read: drawn less made."""
    # a page's `at` went through a VideoFrame's timestamp (whole µs): matched to the ms
    made = {round(at): made for made, at, _ in viewer.samples}
    return [
        f["hostMs"] - made[round(f["at"])]
        for frames in tiles
        for f in frames
        if round(f["at"]) in made
    ]


def delay_now(base_url: str, host: Client) -> float | None:
    """The host's delay of its one open live stream (its /metrics)."""
    token = host.transport.token or ""
    page = httpx.get(base_url + "/metrics", cookies={"JSESSIONID": token}, timeout=10).text
    found = re.search(r"^tilewall_live_delay_ms\{[^}]*\} (\S+)$", page, re.M)
    return float(found.group(1)) if found else None


def marked_play(base_url: str, host: Client, source: str, seconds: float) -> Viewer:
    """A viewer of ``source``'s wire for ``seconds``, reading each frame's making instant."""
    session = host.transport.token or ""
    # a thread of its own: Playwright's sync API holds this thread's event loop
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        run = pool.submit(asyncio.run, watching(base_url, session, [source], 1, seconds))
        return run.result()[0]


def _stop(camera: MarkedSource | subprocess.Popen[bytes]) -> None:
    if isinstance(camera, MarkedSource):
        camera.stop()
    else:
        camera.kill()
        camera.wait(10)


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


def _camera(port: int, size: str, marked: bool, bitrate: str | None) -> Any:
    """The stream's source: a camera stamping its pictures' instants, or an encoder."""
    if marked:
        width, height = (int(n) for n in size.split("x"))
        return MarkedSource(port, width, height).start()
    return publisher(port, size, 30, bitrate)


def run(
    tiles: int,
    play_s: float,
    switches: int,
    work: Path,
    size: str,
    delay_ms: int | None = None,
    keep_open: bool = False,
    marked: bool = False,
    settle_s: float = 0.0,
    bitrate: str | None = None,
) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    data = work / f"seed-{tiles}"
    seed(data, tiles, 0, one_zone=True)
    zone = Seeded.read(data).zones[0]
    port = free_port()
    camera = _camera(port, size, marked, bitrate)
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
            time.sleep(settle_s)
            delays = [delay_now(proc.base_url, host)]
            began = host_ms()
            if marked:
                viewer = marked_play(proc.base_url, host, source, play_s)
            else:
                time.sleep(play_s)
            delays.append(delay_now(proc.base_url, host))
            tiles_drawn = drawn(pages, began)
            figures = drawing(tiles_drawn)
            glass_ms = glass(tiles_drawn, viewer) if marked else []
            counts = [page.evaluate("() => window.tilewall.sample().frames") for page in pages]
            host.close()
            browser.close()
    finally:
        _stop(camera)
    warm = [m for f in firsts if not f["cold"] for m in f["ms"] if m is not None]
    cold = [m for f in firsts if f["cold"] for m in f["ms"] if m is not None]
    missing = sum(m is None for f in firsts for m in f["ms"])
    return {
        "tiles": tiles,
        "size": size,
        "bitrate": bitrate or "ultrafast preset's own",
        "delay_ms": "auto" if delay_ms is None else delay_ms,
        "load": {"before": load_before, "after": os.getloadavg()},
        "play_s": play_s,
        **figures,
        "marked": marked,
        "glass_ms": stats(glass_ms),
        "settle_s": settle_s,
        "delay_at_play_ms": delays,
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
        "--bitrate", help="the stream's bitrate, as a camera is set to (FFmpeg's form: 3M)"
    )
    parser.add_argument("--delay-ms", type=int, help=f"the host's {LIVE_DELAY_ENV} (default auto)")
    parser.add_argument(
        "--marked", action="store_true", help="the camera stamps each picture's making instant"
    )
    parser.add_argument("--settle", type=float, default=0.0, help="seconds played before")
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
            args.marked,
            args.settle,
            args.bitrate,
        )
    names = (
        "spread_ms",
        "late_ms",
        "callback_ms",
        "drawn_spread_ms",
        "glass_ms",
        "switch_warm_ms",
        "switch_kept_ms",
        "switch_cold_ms",
    )
    for name in names:
        if name not in result:
            continue
        s = result[name]
        print(f"{name:15} n={s['n']} p50={_ms(s['p50'])} p95={_ms(s['p95'])} max={_ms(s['max'])}")
    print(f"switches without a frame: {result['switch_no_frame']}")
    print(
        f"delay {result['delay_ms']} ms (at play: {result['delay_at_play_ms']}), load {result['load']}"
    )
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


if __name__ == "__main__":
    main()
