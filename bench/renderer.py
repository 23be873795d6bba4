"""How Chromium presents a playing video's frames against the element's media clock: the
two measurements behind the wall-sync findings in BENCHMARKS.md, on one page, in
headless Chromium, with nothing of tilewall in it (the demo clip from a plain HTTP
server).

- *Nudges*: once the clip plays, its clock is moved ahead in steps, each by
  ``playbackRate`` 1 + step / 200 ms held for 200 ms (how a receiver removes small
  errors). After each step: how far the clock moved (``currentTime`` against the
  page's clock, from the first step on) and how far the frames on screen moved (each
  frame's media time against its expected display time, from
  ``requestVideoFrameCallback``, averaged over whole cycles of five frames).
- *Start phase*: the clip is held paused at its start and ``play()`` is called at a
  chosen phase of the screen's refresh interval (``requestAnimationFrame``'s grid),
  waited out on the page's thread; then the frames' mean error against the element's
  own clock, per phase.

    python bench/renderer.py --steps 1,5 --phases 2 --out renderer.json
"""

from __future__ import annotations

import argparse
import functools
import json
import shutil
import statistics
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.wallsync import CHROMIUM, CHROMIUM_ARGS, CLIP, VIEWPORT

PAGE = """<!doctype html><html><body style="margin:0;background:#000">
<video id="v" src="clip.mp4" muted playsinline preload="auto"
       style="width:320px;height:180px"></video>
<script>
const v = document.getElementById('v');
let frames = [];
const seen = (now, m) => {
  frames.push([m.expectedDisplayTime, m.mediaTime * 1000]);
  v.requestVideoFrameCallback(seen);
};
v.requestVideoFrameCallback(seen);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const frame = () => new Promise((r) => requestAnimationFrame(r));
const clockAt = async () => {  // performance time of media time 0, median of nine reads
  const starts = [];
  for (let i = 0; i < 9; i++) { starts.push(performance.now() - v.currentTime * 1000); await sleep(3); }
  return starts.sort((a, b) => a - b)[4];
};
const presented = (from, to, zero) => {  // mean of media time minus (display time - zero)
  const f = frames.filter((x) => x[0] >= from && x[0] < to);
  const n = Math.floor(f.length / 5) * 5;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += f[i][1] - (f[i][0] - zero);
  return n ? sum / n : null;
};
const rewind = async () => {
  v.pause(); v.playbackRate = 1; v.currentTime = 0;
  await new Promise((r) => v.addEventListener('seeked', r, { once: true }));
  await sleep(250);
};
window.nudges = async (step, count) => {
  await rewind();
  await v.play(); await sleep(400);
  const zero = await clockAt();
  const out = [];
  for (let k = 0; k <= count; k++) {
    if (k) { v.playbackRate = 1 + step / 200; await sleep(200); v.playbackRate = 1; }
    await sleep(150);
    const from = performance.now();
    await sleep(600);
    out.push({ clockMs: zero - (await clockAt()), framesMs: presented(from, performance.now(), zero) });
  }
  return out;
};
window.startAt = async (phaseMs) => {
  await rewind();
  const grid = await frame();
  const go = grid + 4 * 16.6667 + phaseMs;
  await sleep(go - performance.now() - 8);
  while (performance.now() < go) {}
  v.play(); frames = [];
  await sleep(1300);
  const zero = await clockAt();
  const interval = 1000 / 60;
  return { phaseMs, startedPhaseMs: (((zero - grid) % interval) + interval) % interval,
           lateMs: zero - go, framesMs: presented(zero + 300, zero + 1300, zero) };
};
</script></body></html>
"""


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(folder: Path) -> ThreadingHTTPServer:
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def measure(steps: list[float], count: int, phases: list[int]) -> dict[str, Any]:
    """Nudges of each size in ``steps`` (``count`` of each), then a start at each of
    ``phases`` (ms into the refresh interval)."""
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {"nudges": {}, "starts": []}
    with tempfile.TemporaryDirectory(prefix="renderer-") as tmp:
        folder = Path(tmp)
        shutil.copy(CLIP, folder / "clip.mp4")
        (folder / "index.html").write_text(PAGE)
        server = serve(folder)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
                page = browser.new_context(viewport=VIEWPORT).new_page()
                page.goto(f"http://127.0.0.1:{server.server_port}/index.html")
                page.wait_for_function("document.getElementById('v').readyState >= 3")
                for step in steps:
                    rows = page.evaluate("([s, n]) => nudges(s, n)", [step, count])
                    base = rows[0]
                    out["nudges"][str(step)] = [
                        {
                            "clock_moved_ms": r["clockMs"] - base["clockMs"],
                            "frames_moved_ms": r["framesMs"] - base["framesMs"],
                        }
                        for r in rows
                    ]
                for phase in phases:
                    out["starts"].append(page.evaluate("(p) => startAt(p)", phase))
                browser.close()
        finally:
            server.shutdown()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="1,5", help="nudge sizes in ms, comma separated")
    parser.add_argument("--count", type=int, default=8, help="nudges of each size")
    parser.add_argument("--phases", type=int, default=2, help="rounds of start phases")
    parser.add_argument("--out", type=Path, help="results JSON")
    args = parser.parse_args(argv)
    phases = [phase for _ in range(args.phases) for phase in range(0, 17, 2)]
    result = measure([float(s) for s in args.steps.split(",")], args.count, phases)
    for step, rows in result["nudges"].items():
        moved = ", ".join(f"{r['clock_moved_ms']:.1f}/{r['frames_moved_ms']:.1f}" for r in rows[1:])
        print(f"nudges of {step} ms, clock/frames moved (ms): {moved}")
    by_phase: dict[int, list[float]] = {}
    for start in result["starts"]:
        by_phase.setdefault(int(start["phaseMs"]), []).append(start["framesMs"])
    for phase, errors in sorted(by_phase.items()):
        print(
            f"play() {phase:2d} ms into the refresh interval: frames vs own clock "
            f"{statistics.mean(errors):6.1f} ms (runs {', '.join(f'{e:.1f}' for e in errors)})"
        )
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
