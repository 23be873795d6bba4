"""Where one tile of a live wall spends its CPU: decoding or drawing (docs/benchmarks/livewall.md).

A 3x3 wall's zone shows a live H.264 stream (as ``bench.livewall``); one receiver page is
opened, the middle tile, in headless Chromium. Over ``--seconds`` of play it reads the
CPU of that browser's processes by kind (psutil: the renderer holds the page, its
decoder and its canvas) and times the page's ``drawImage`` calls. ``--no-draw`` turns
``drawImage`` into nothing: what is left is decoding and the page's own work.

    PYTHONPATH=src python -m bench.tilecpu --size 1280x720 [--bitrate 3M] [--no-draw]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

from bench.chromium import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, wait_for_tiles
from bench.livewall import publisher
from bench.procs import free_port, tilewall_proc
from bench.seed import ADMIN, PASSWORD, Seeded, seed
from tilewall.client import Client

TILES, MIDDLE = 9, 4
#: drawImage timed (its synchronous part, which turns the frame into canvas pixels)
TIMED = """(() => {
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  window.benchDraw = { calls: 0, ms: 0 };
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    const t = performance.now();
    draw.apply(this, args);
    window.benchDraw.calls += 1;
    window.benchDraw.ms += performance.now() - t;
  };
})();"""
NO_DRAW = "CanvasRenderingContext2D.prototype.drawImage = function () {};"


def cpu_by_kind() -> dict[str, float]:
    """CPU seconds so far of this process's Chromium descendants, by process kind."""
    out: dict[str, float] = collections.defaultdict(float)
    for proc in psutil.Process().children(recursive=True):
        try:
            args = proc.cmdline()
            if not args or "chrom" not in args[0]:
                continue
            kind = next((a[7:] for a in args if a.startswith("--type=")), "browser")
            times = proc.cpu_times()
            out[kind] += times.user + times.system
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return dict(out)


def measure(page: Any, seconds: float) -> dict[str, Any]:
    frames_js = "() => window.tilewall.sample().frames"
    draws_js = "() => window.benchDraw || null"
    before, counts_before, draws_before = (
        cpu_by_kind(),
        page.evaluate(frames_js),
        page.evaluate(draws_js),
    )
    started = time.monotonic()
    time.sleep(seconds)
    after, counts, draws = cpu_by_kind(), page.evaluate(frames_js), page.evaluate(draws_js)
    elapsed = time.monotonic() - started
    percent = {k: round((after[k] - before.get(k, 0.0)) / elapsed * 100, 1) for k in after}
    out: dict[str, Any] = {
        "cpu_percent": percent,
        "frames": {k: counts[k] - counts_before[k] for k in ("received", "decoded", "drawn")},
    }
    if draws and draws_before:
        calls = draws["calls"] - draws_before["calls"]
        out["draw_ms_each"] = round((draws["ms"] - draws_before["ms"]) / max(1, calls), 2)
    return out


def run(
    size: str, seconds: float, no_draw: bool, work: Path, bitrate: str | None = None
) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    data = work / "seed"
    seed(data, TILES, 0, one_zone=True)
    zone = Seeded.read(data).zones[0]
    port = free_port()
    camera = publisher(port, size, 30, bitrate)
    proc = tilewall_proc(data, work, "uvicorn", "tilecpu")
    load_before = os.getloadavg()
    try:
        with proc, sync_playwright() as playwright:
            proc.start()
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            host = Client(proc.base_url, ADMIN, PASSWORD)
            host.login()
            context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)
            context.add_init_script(NO_DRAW if no_draw else TIMED)
            page = context.new_page()
            page.goto(f"{proc.base_url}/receiver/?seat=bench-{MIDDLE:05d}")
            wait_for_tiles([page])
            source = host.sources.create(
                "Bench camera", "RTSP Streamer", {"URL": f"udp://127.0.0.1:{port}"}
            )
            host.zones.switch(zone, source_id=source["sourceId"], by="id")
            time.sleep(5.0)  # opened, joined, decoding
            result = measure(page, seconds)
            host.close()
            browser.close()
    finally:
        camera.kill()
        camera.wait(10)
    load = {"before": load_before, "after": os.getloadavg()}
    return {
        "size": size,
        "bitrate": bitrate or "ultrafast preset's own",
        "tile": "middle of 3x3",
        "drawing": not no_draw,
        "load": load,
        **result,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--size", default="1280x720", help="the stream's picture size")
    parser.add_argument("--bitrate", help="the stream's bitrate (FFmpeg's form: 3M)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--no-draw", action="store_true", help="drawImage does nothing")
    parser.add_argument("--out", type=Path, help="results JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tilecpu-") as tmp:
        result = run(args.size, args.seconds, args.no_draw, Path(tmp), args.bitrate)
    print(json.dumps(result))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
